// The llvm dialect's attributes on function arguments and results: a unit, a type or
// an integer, on a pointer or an integer, some not on results; checked on any function
// (llvm.func and func.func), with MLIR's words. A declaration may name its arguments
// (the names are dropped). Both tools agree on every case.
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}
// RUN: mlc-opt %s --split-input-file --verify-diagnostics | filecheck %s

// CHECK: llvm.func @valid(!llvm.ptr {llvm.align = 16 : i64, llvm.noalias}, i32 {llvm.signext}, !llvm.ptr {llvm.byval = i64}) -> (!llvm.ptr {llvm.nonnull})
llvm.func @valid(%p : !llvm.ptr {llvm.noalias, llvm.align = 16 : i64}, %i : i32 {llvm.signext},
                 %s : !llvm.ptr {llvm.byval = i64}) -> (!llvm.ptr {llvm.nonnull})

// -----

// expected-error@below {{"llvm.noalias" attribute attached to non-pointer LLVM type}}
llvm.func @noalias_on_integer(%0 : i32 {llvm.noalias})

// -----

// expected-error@below {{"llvm.align" should be an integer attribute}}
llvm.func @align_of_string(%0 : !llvm.ptr {llvm.align = "4"})

// -----

// expected-error@below {{"llvm.sret" should be a type attribute}}
llvm.func @sret_without_type(%0 : !llvm.ptr {llvm.sret})

// -----

// expected-error@below {{"llvm.zeroext" attribute attached to non-integer LLVM type}}
llvm.func @zeroext_on_float() -> (f32 {llvm.zeroext})

// -----

// expected-error@below {{"llvm.readonly" is not a valid result attribute}}
llvm.func @readonly_result() -> (!llvm.ptr {llvm.readonly})

// -----

// expected-error@below {{"llvm.nonnull" should be a unit attribute}}
func.func private @on_func(%0 : !llvm.ptr {llvm.nonnull = 1 : i64})

// -----

// Types that are not LLVM's are left to their lowering (a memref's pointer is noalias).
// CHECK: func.func private @buffers(memref<4xf32> {llvm.noalias})
func.func private @buffers(%m : memref<4xf32> {llvm.noalias})
