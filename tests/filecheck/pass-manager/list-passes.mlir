// --list-passes: every registered pass, sorted, with its opt level, the ops it runs
// on (when not any op), its summary and options (type and domain, the real default,
// the config key it falls back to, meaning), then the named pipelines and the
// PassContext config keys. No input is read.
// RUN: mlc-opt --list-passes | filecheck %s
// RUN: mlc-opt --list-passes %s | filecheck %s

// CHECK:      Passes:
// CHECK-NEXT:   arith-emulate-unsupported-floats  (opt level 0)  Emulate arith ops on unsupported float types by computing them in a supported one between extf and truncf.
// CHECK-NEXT:       source-types: list = ""  the float types to emulate
// CHECK-NEXT:       target-type: str = f32  the float type to compute them in
// CHECK-NEXT:   arith-emulate-wide-int  (opt level 0)  Emulate integers twice as wide as the target supports with pairs of supported ones.
// CHECK-NEXT:       widest-int-supported: int >= 2 = 32  the widest integer type the target supports (a power of two); twice as wide is emulated
// CHECK-NEXT:   arith-expand  (opt level 0)  Expand arith ops that have no LLVM instruction into simpler arith ops.
// CHECK-NEXT:       include-bf16: bool = false  expand extf bf16 -> f32 and truncf f32 -> bf16
// CHECK-NEXT:       include-f8e8m0: bool = false  expand extf and truncf of f8E8M0FNU
// CHECK-NEXT:       include-f4e2m1: bool = false  expand extf and truncf of f4E2M1FN
// CHECK-NEXT:   arith-int-range-narrowing  (opt level 2)  Compute integer ops in the narrowest supported width their ranges allow.
// CHECK-NEXT:       int-bitwidths-supported: list of ints >= 1 = ""  the integer widths ops may be narrowed to, tried in this order
// CHECK-NEXT:   arith-unsigned-when-equivalent  (opt level 2)  Replace signed ops by unsigned ones where every operand and result is non-negative.
// CHECK-NEXT:   canonicalize  (opt level 0)  Fold ops and apply canonicalization patterns until nothing changes.
// CHECK-NEXT:       max-iterations: int >= -1 = 10 (config canonicalize.max-iterations)  most sweeps over the IR; -1: until nothing changes
// CHECK-NEXT:       max-num-rewrites: int >= -1 = -1  most rewrites; -1: no limit
// CHECK-NEXT:       top-down: bool = true  visit ops top-down (else bottom-up)
// CHECK-NEXT:       fold: bool = true  fold ops, besides applying patterns
// CHECK-NEXT:       enable-patterns: list of canonicalization pattern names (--list-patterns) = ""  apply only these patterns
// CHECK-NEXT:       disable-patterns: list of canonicalization pattern names (--list-patterns) = ""  never apply these patterns
// CHECK-NEXT:       test-convergence: bool = false  fail if the rewrites did not converge
// CHECK-NEXT:       region-simplify: str in {disabled, normal, aggressive} = normal  after each sweep, simplify the regions: normal erases unreachable blocks and dead code (block arguments too), aggressive also merges identical blocks; disabled only erases unreachable blocks (as mlir-opt-22)
// mlc-backend-llvm's lowerings, sorted in among the core's passes.
// CHECK-NEXT:   convert-arith-to-llvm  (opt level 0)  Lower arith to the llvm dialect (index as i64); other ops stay, with unrealized casts between the two.
// CHECK-NEXT:   convert-cf-to-llvm  (opt level 0)  Lower cf branches and asserts to the llvm dialect.
// CHECK-NEXT:   convert-func-to-llvm  (opt level 0)  Lower func.func, func.call and func.return to the llvm dialect (index as i64; other ops stay, with unrealized casts).
// CHECK-NEXT:       use-bare-ptr-memref-call-conv: bool = false  pass each statically shaped memref as one pointer to its first element (mlc's only convention: false, MLIR's default, is refused where a signature has a memref)
// CHECK-NEXT:   convert-math-to-llvm  (opt level 0)  Lower math ops LLVM has intrinsics for to the llvm dialect.
// CHECK-NEXT:   convert-scf-parallel-to-gomp  (opt level 0)  Run each outermost scf.parallel on the OpenMP runtime's threads: its body outlined, called through GOMP_parallel (libgomp's ABI, which LLVM's libomp exports too).
// CHECK-NEXT:       num-threads: int in [0, 4096] = 0  threads each parallel loop asks the runtime for (0: the runtime's default, OMP_NUM_THREADS or the cores)
// CHECK-NEXT:       schedule: str in {static, dynamic} = static  how iterations go to threads: one contiguous share each (static: the same share every run, which keeps a thread's data in its caches from one loop to the next), or chunks taken from a shared counter as threads become free (dynamic: for machines shared with other jobs, where a preempted thread holds back less); loops with reductions are always static, so their results do not depend on timing
// CHECK-NEXT:   convert-scf-to-cf  (opt level 0)  Convert structured control flow (scf) to branches between blocks (cf).
// CHECK-NEXT:       allow-pattern-rollback: bool = true  MLIR's switch between its two conversion drivers; mlc's driver always rolls back a failed pattern, and these patterns produce the same IR either way, so the value changes nothing
// CHECK-NEXT:   convert-to-llvm  (opt level 0)  Lower func, arith, math, cf, memref (static shapes, bare pointers) and vector to the llvm dialect.
// CHECK-NEXT:       filter-dialects: list of dialects with patterns to llvm = ""  lower only these dialects' ops; others stay (with unrealized casts)
// CHECK-NEXT:       allow-pattern-rollback: bool = true  MLIR's switch between its two conversion drivers; mlc's driver always rolls back a failed pattern, and these patterns produce the same IR either way, so the value changes nothing
// CHECK-NEXT:   convert-ub-to-llvm  (opt level 0)  Lower ub.poison to llvm.mlir.poison.
// CHECK-NEXT:   convert-vector-to-llvm  (opt level 0)  Lower 1-D vector ops to the llvm dialect; other ops stay, with unrealized casts between the two.
// CHECK-NEXT:   cse  (opt level 3)  Eliminate common subexpressions (dominance-scoped; side-effecting ops are kept).
// CHECK-NEXT:   dce  (opt level 1)  Erase unused side-effect-free ops and unreachable blocks.
// CHECK-NEXT:   duplicate-function-elimination  (opt level 0, on 'builtin.module' ops)  Deduplicate functions
// CHECK-NEXT:   finalize-memref-to-llvm  (opt level 0)  Lower memref ops on statically shaped buffers to the llvm dialect, each buffer one pointer (mlc's convention; MLIR's descriptors are not implemented); other ops stay, with unrealized casts.
// Installed packages add theirs (mlc-dialect-graph's graph-* passes), in name order.
// CHECK-NEXT:   graph-alter-op-layout  (opt level 3)
// CHECK-NEXT:       block: int >= 1 = 16  the channel block n of NCHW{n}c
// CHECK-NEXT:   graph-bind-params  (opt level 0, on ops with SymbolTable)  Make the parameters of a function named in a .npz file constants of their arrays (Relax's BindParams).
// CHECK-NEXT:       file: str = ""  a numpy .npz file of the arrays, by parameter name
// CHECK-NEXT:       func-name: str = main  the function whose parameters are bound
// CHECK-NEXT:   graph-fold-constant  (opt level 2)
// CHECK-NEXT:       max-growth-elements: int >= 0 = 65536  most elements
// CHECK:        graph-fuse-ops  (opt level 1)
// CHECK-NEXT:       max-depth: int >= 0 = 256 (config graph.fuse-ops.max-depth)  most ops graph-fuse-ops puts in one kernel
// CHECK-NEXT:       opt-level: int >= 0 = the PassContext's opt level  fusion level: 0 keeps every op alone
// CHECK-NEXT:       remarks: bool = false (config graph.fuse-ops.remarks)
// CHECK:        inline  (opt level 0, on 'builtin.module' ops)  Inline function calls (every call whose callee has a body and is not recursive), erase the private functions left unused, canonicalize.
// CHECK:        int-range-optimizations  (opt level 2)  Replace values of constant integer range by constants; drop trivial remainders.
// CHECK:        mem2reg  (opt level 0)  Promote memory slots (memref.alloca and llvm.alloca of one element) whose only uses are loads and stores to SSA values.
// CHECK-NEXT:       region-simplify: bool = true  afterwards, erase the blocks no path reaches (mlir-opt-22 leaves dead code, such as an llvm.alloca's size, in place too)
// CHECK:        print-ir  (opt level 0)  Print the IR to stderr, with an optional label.
// CHECK-NEXT:       label: str = ""  printed in the dump's header
// CHECK-NEXT:   reconcile-unrealized-casts  (opt level 0)  Remove unrealized conversion casts that cancel out; fail on any left.
// CHECK-NEXT:   symbol-dce  (opt level 1, on ops with SymbolTable)  Erase the symbols nothing live references.
// CHECK-NEXT:   test-legalize-full  (opt level 0)  (test) full conversion of the test dialect
// CHECK-NEXT:   test-legalize-partial  (opt level 0)  (test) partial conversion of the test dialect
// CHECK:      Pipelines:
// CHECK-NEXT:   graph-optimize  The default graph pipeline
// CHECK-NEXT:       = graph-simplify-inference,canonicalize,graph-fold-constant,graph-fold-scale-axis,cse,dce,graph-fuse-ops
// CHECK-NEXT: Config keys (--pass-config KEY=VALUE):
// CHECK-NEXT:   canonicalize.max-iterations: int >= -1 = 10  most sweeps over the IR; -1: until nothing changes
// CHECK-NEXT:   graph.fuse-ops.max-depth: int >= 0 = 256  most ops graph-fuse-ops puts in one kernel
// CHECK-NEXT:   graph.fuse-ops.remarks: bool = false

func.func @not_printed() {
  return
}
// CHECK-NOT: func.func
