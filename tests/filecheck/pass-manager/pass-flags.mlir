// Passes named as flags run in command-line order, as if given with -p; options go
// after `=`, as in braces.
// RUN: mlc-opt %s --cse --canonicalize --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=ORDER
// ORDER:      Pass Manager with 2 passes:
// ORDER-NEXT: builtin.module(cse,canonicalize{max-iterations=10 max-num-rewrites=-1 top-down=true fold=true enable-patterns= disable-patterns= test-convergence=false region-simplify=normal})
// RUN: mlc-opt %s --symbol-dce --allow-unregistered-dialect --cse --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=REVERSED
// REVERSED: builtin.module(symbol-dce,cse)
// RUN: mlc-opt %s --canonicalize='max-iterations=3 top-down=false' --print-ir=label=x --dump-pass-pipeline 2>&1 >/dev/null | filecheck %s --check-prefix=FLAG-OPTIONS
// FLAG-OPTIONS: builtin.module(canonicalize{max-iterations=3 max-num-rewrites=-1 top-down=false fold=true enable-patterns= disable-patterns= test-convergence=false region-simplify=normal},print-ir{label=x})
//
// --cse --canonicalize gives the same output as -p 'cse,canonicalize'.
// RUN: mlc-opt %s --cse --canonicalize > %t.flags
// RUN: mlc-opt %s -p 'cse,canonicalize' > %t.pipeline
// RUN: diff %t.flags %t.pipeline
// RUN: filecheck %s --input-file %t.flags
//
// Not both ways at once.
// RUN: not mlc-opt %s --cse -p canonicalize 2>&1 | filecheck %s --check-prefix=BOTH
// BOTH: mlc-opt: error: give passes with -p or as flags, not both
//
// A bad option given in a flag is reported against the pipeline it makes.
// RUN: not mlc-opt %s --canonicalize=bogus=1 2>&1 | filecheck %s --check-prefix=BAD-OPTION
// BAD-OPTION:      <pipeline>:1:14: error: pass 'canonicalize' has no option 'bogus'
// BAD-OPTION-NEXT: canonicalize{bogus=1}
//
// A flag that names no pass is an unknown argument.
// RUN: not mlc-opt %s --no-such-pass 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN: mlc-opt: error: unrecognized arguments: --no-such-pass
//
// The pass flags are listed in --help.
// RUN: mlc-opt --help | filecheck %s --check-prefix=HELP
// HELP: pass flags (--NAME or --NAME='opt=value ...'):
// HELP: --canonicalize [OPTIONS]
// HELP: --cse [OPTIONS]
// HELP: --symbol-dce [OPTIONS]

// Both merge the two additions; canonicalize folds the rest.
// CHECK-LABEL: func.func @f(%arg0: i32)
// CHECK-NEXT:    %[[A:.*]] = arith.addi %arg0, %arg0 : i32
// CHECK-NEXT:    %[[M:.*]] = arith.muli %[[A]], %[[A]] : i32
// CHECK-NEXT:    return %[[M]] : i32
func.func @f(%arg0: i32) -> i32 {
  %0 = arith.addi %arg0, %arg0 : i32
  %1 = arith.addi %arg0, %arg0 : i32
  %2 = arith.muli %0, %1 : i32
  %c1 = arith.constant 1 : i32
  %3 = arith.muli %2, %c1 : i32
  return %3 : i32
}
