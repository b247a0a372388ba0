// --crash-reproducer FILE: when the pipeline fails, FILE gets the input IR and,
// as MLIR's reproducers do, an external resource naming the pipeline (every
// option spelled out). --run-reproducer replays it: the same pipeline on the same
// IR, failing the same way.
//
// RUN: rm -f %t.repro
// RUN: not mlc-opt %s -p 'func.func(cse),test-legalize-full' --crash-reproducer %t.repro 2>&1 | filecheck %s --check-prefix=ERROR
// RUN: filecheck %s --check-prefix=REPRO --input-file %t.repro
// RUN: not mlc-opt %t.repro --run-reproducer 2>&1 | filecheck %s --check-prefix=ERROR
//
// The reproducer is valid input on its own (the resource is ignored), and runs
// through another pipeline.
// RUN: mlc-opt %t.repro | filecheck %s --check-prefix=INPUT
// RUN: mlc-opt %t.repro -p 'func.func(cse),test-legalize-partial' | filecheck %s --check-prefix=OTHER
//
// A run that succeeds writes no reproducer.
// RUN: rm -f %t.none
// RUN: mlc-opt %s -p 'func.func(cse),test-legalize-partial' --crash-reproducer %t.none > /dev/null
// RUN: not ls %t.none
//
// A verify-each failure is a pipeline failure too. (The reproducer does not
// record --no-verify.)
// RUN: rm -f %t.verify
// RUN: not mlc-opt %S/Inputs/invalid-addf.mlir --no-verify -p 'cse' --crash-reproducer %t.verify 2>/dev/null
// RUN: filecheck %s --check-prefix=VERIFY --input-file %t.verify
// RUN: not mlc-opt %t.verify --no-verify --run-reproducer 2>&1 | filecheck %s --check-prefix=VERIFY-REPLAY
//
// With --split-input-file, the reproducer holds the chunk that failed.
// RUN: rm -f %t.split
// RUN: not mlc-opt %S/Inputs/two-chunks.mlir --split-input-file -p 'test-legalize-full' --crash-reproducer %t.split 2>/dev/null
// RUN: filecheck %s --check-prefix=SPLIT --input-file %t.split
//
// Input without a reproducer:
// RUN: not mlc-opt %S/Inputs/invalid-addf.mlir --run-reproducer 2>&1 | filecheck %s --check-prefix=NO-REPRO

// ERROR:     error: failed to legalize operation 'test.unknown'
// ERROR-NOT: error:

// The reproducer starts with this file, comments included (hence the anchors,
// which keep these lines from matching themselves), then the resource.
// REPRO:      {{^}}// --crash-reproducer FILE: when the pipeline fails
// REPRO:      {{^}}func.func @f(%arg0: i32) -> i32 {
// REPRO-NEXT: {{^}}  %0 = arith.addi %arg0, %arg0 : i32
// REPRO:      {{^}}{-#
// REPRO-NEXT: {{^}}  external_resources: {
// REPRO-NEXT: {{^}}    mlir_reproducer: {
// REPRO-NEXT: {{^}}      pipeline: "builtin.module(func.func(cse),test-legalize-full)",
// REPRO-NEXT: {{^}}      disable_threading: true,
// REPRO-NEXT: {{^}}      verify_each: true
// REPRO-NEXT: {{^}}    }
// REPRO-NEXT: {{^}}  }
// REPRO-NEXT: {{^}}#-}

// INPUT-LABEL: func.func @f(%arg0: i32)
// INPUT-NEXT:    %0 = arith.addi %arg0, %arg0 : i32
// INPUT-NEXT:    %1 = arith.addi %arg0, %arg0 : i32

// OTHER-LABEL: func.func @f(%arg0: i32)
// OTHER-NEXT:    %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// OTHER-NEXT:    %[[S:.*]] = test.sink %[[A]] : i32 -> i32
// OTHER-NEXT:    %[[T:.*]] = test.sink %[[S]] : i32 -> i32
// OTHER-NEXT:    test.unknown %[[T]] : i32

// VERIFY:        pipeline: "builtin.module(cse)",
// VERIFY-REPLAY: error: verification failed after running pass 'cse'

// SPLIT-NOT:  @first
// SPLIT:      func.func @second
// SPLIT-NEXT:   test.unknown
// SPLIT:      pipeline: "builtin.module(test-legalize-full)",

// NO-REPRO: mlc-opt: error: '{{.*}}invalid-addf.mlir' holds no mlir_reproducer pipeline

func.func @f(%arg0: i32) -> i32 {
  %0 = arith.addi %arg0, %arg0 : i32
  %1 = arith.addi %arg0, %arg0 : i32
  %2 = test.source %0 : i32 -> i32
  %3 = test.middle %2 : i32 -> i32
  test.unknown %3 : i32
  return %1 : i32
}
