// Textual pass pipelines: an unanchored list runs on the top-level module,
// `op-name(...)` runs its pipeline on each op of that name directly inside the
// current op, `any(...)` on each op whatever its name; options go in braces.
// --dump-pass-pipeline prints the pipeline with every option spelled out.
//
// RUN: mlc-opt %s -p 'cse,canonicalize' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=UNANCHORED
// RUN: mlc-opt %s -p 'builtin.module(cse,canonicalize)' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=UNANCHORED
// RUN: mlc-opt %s -p ' cse , canonicalize ' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=UNANCHORED
// UNANCHORED:      Pass Manager with 2 passes:
// UNANCHORED-NEXT: builtin.module(cse,canonicalize{max-iterations=10 max-num-rewrites=-1 top-down=true fold=true enable-patterns= disable-patterns= test-convergence=false region-simplify=normal})
//
// RUN: mlc-opt %s -p 'builtin.module(func.func(cse,canonicalize{max-iterations=3 top-down=false}),symbol-dce,any(print-ir{label=x}))' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=NESTED
// NESTED:      Pass Manager with 4 passes:
// NESTED-NEXT: builtin.module(func.func(cse,canonicalize{max-iterations=3 max-num-rewrites=-1 top-down=false fold=true enable-patterns= disable-patterns= test-convergence=false region-simplify=normal}),symbol-dce,any(print-ir{label=x}))
//
// List options take comma-separated values; a bool option given without a value is
// true; `{}` is no options.
// RUN: mlc-opt %s -p 'canonicalize{disable-patterns=AddZero,AddIAddConstant test-convergence},cse{}' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=OPTIONS
// OPTIONS: builtin.module(canonicalize{max-iterations=10 max-num-rewrites=-1 top-down=true fold=true enable-patterns= disable-patterns=AddZero,AddIAddConstant test-convergence=true region-simplify=normal},cse)
//
// A pipeline spelled as --dump-pass-pipeline prints it dumps the same (see also
// option-values.mlir).
// RUN: mlc-opt %s -p 'builtin.module(func.func(cse,dce),symbol-dce,any(print-ir{label=x}))' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=ROUNDTRIP
// ROUNDTRIP:      Pass Manager with 4 passes:
// ROUNDTRIP-NEXT: builtin.module(func.func(cse,dce),symbol-dce,any(print-ir{label=x}))
//
// An empty pipeline, or empty nested ones, run nothing, and the input comes back
// unchanged; the dump of an empty pipeline parses back.
// RUN: mlc-opt %s -p '' --dump-pass-pipeline 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: mlc-opt %s -p 'builtin.module()' --dump-pass-pipeline 2>&1 | filecheck %s --check-prefix=EMPTY
// EMPTY:      Pass Manager with 0 passes:
// EMPTY-NEXT: builtin.module()
// EMPTY:      %c0 = arith.constant 0 : i32
// RUN: mlc-opt %s -p 'func.func(),builtin.module(func.func())' --dump-pass-pipeline 2>&1 | filecheck %s --check-prefix=EMPTY-NESTED
// EMPTY-NESTED:      Pass Manager with 0 passes:
// EMPTY-NESTED-NEXT: builtin.module(func.func(),builtin.module(func.func()))
// EMPTY-NESTED:      %c0 = arith.constant 0 : i32
//
// Where the passes run: func.func(...) reaches the functions directly in the
// top-level module only; a nested module's functions need another level.
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize))' | filecheck %s --check-prefix=FUNC
// RUN: mlc-opt %s -p 'builtin.module(builtin.module(func.func(canonicalize)))' | filecheck %s --check-prefix=INNER
// RUN: mlc-opt %s -p 'canonicalize' | filecheck %s --check-prefix=ALL
// any(...) reaches every op directly inside the module, the nested module too:
// RUN: mlc-opt %s -p 'builtin.module(any(canonicalize))' | filecheck %s --check-prefix=ALL
// A pipeline that is one any(...) runs on the top-level op itself (and so does one
// builtin.module(...); one func.func(...) cannot run on a module: see
// pipeline-errors.mlir):
// RUN: mlc-opt %s -p 'any(canonicalize)' | filecheck %s --check-prefix=ALL
// RUN: mlc-opt %s -p 'any(canonicalize)' --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=ROOT-ANY
// ROOT-ANY: any(canonicalize{
//
// A function marked mlc.skip_optimization is left out of nested pipelines (but a
// pass on the whole module still reaches into it).
// RUN: mlc-opt %s -p 'builtin.module(func.func(canonicalize))' | filecheck %s --check-prefix=SKIP
// RUN: mlc-opt %s -p 'canonicalize' | filecheck %s --check-prefix=NOSKIP

// FUNC-LABEL:   func.func @outer(%arg0: i32)
// FUNC-NEXT:      return %arg0 : i32
// FUNC-LABEL:   func.func @inner(%arg0: i32)
// FUNC-NEXT:      %c0 = arith.constant 0 : i32
// INNER-LABEL:  func.func @outer(%arg0: i32)
// INNER-NEXT:     %c0 = arith.constant 0 : i32
// INNER-LABEL:  func.func @inner(%arg0: i32)
// INNER-NEXT:     return %arg0 : i32
// ALL-LABEL:    func.func @outer(%arg0: i32)
// ALL-NEXT:       return %arg0 : i32
// ALL-LABEL:    func.func @inner(%arg0: i32)
// ALL-NEXT:       return %arg0 : i32
// SKIP-LABEL:   func.func @skipped(%arg0: i32) -> i32 attributes {mlc.skip_optimization}
// SKIP-NEXT:      %c0 = arith.constant 0 : i32
// NOSKIP-LABEL: func.func @skipped(%arg0: i32) -> i32 attributes {mlc.skip_optimization}
// NOSKIP-NEXT:    return %arg0 : i32

func.func @outer(%arg0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %arg0, %c0 : i32
  return %0 : i32
}
module @nested {
  func.func @inner(%arg0: i32) -> i32 {
    %c0 = arith.constant 0 : i32
    %0 = arith.addi %arg0, %c0 : i32
    return %0 : i32
  }
}
func.func @skipped(%arg0: i32) -> i32 attributes {mlc.skip_optimization} {
  %c0 = arith.constant 0 : i32
  %0 = arith.addi %arg0, %c0 : i32
  return %0 : i32
}
