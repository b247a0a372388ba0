// convert-scf-to-cf on scf ops whose blocks would have nowhere to go: an error at
// the outermost such op, and the IR is left as it was (mlir-opt-22 lowers them
// anyway and then fails to verify the op that holds them).
// RUN: mlc-opt %s --convert-scf-to-cf --split-input-file --verify-diagnostics
// RUN: not mlc-opt %s --convert-scf-to-cf --split-input-file 2>&1 | filecheck %s

// CHECK: convert-scf-to-cf-invalid.mlir:[[# @LINE + 5]]:3: error: 'scf.for' cannot be lowered to cf here: its blocks would land in a region of 'builtin.module', which holds a single block
// CHECK-NOT: Traceback
module {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'scf.for' cannot be lowered to cf here: its blocks would land in a region of 'builtin.module', which holds a single block}}
  scf.for %i = %c0 to %c0 step %c0 {
    %c = arith.constant true
    scf.if %c {
    }
  }
}

// -----

// Lowered one after the other, the function's ops are fine; the module-level one is not.
func.func @fine(%c: i1) {
  scf.if %c {
  }
  return
}
%c = arith.constant true
// expected-error@+1 {{'scf.if' cannot be lowered to cf here}}
scf.if %c {
}

// -----

func.func @shared_outputs(%t: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'scf.forall' with shared outputs cannot be lowered to cf: only a bufferized one (without outputs) becomes scf.parallel}}
  %0 = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<4xf32>) {
    scf.forall.in_parallel {
    }
  }
  return %0 : tensor<4xf32>
}
