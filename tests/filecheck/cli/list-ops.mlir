// --list-ops lists every op of every installed dialect, with a one-line summary, by
// dialect; --op-docs prints one dialect's reference.
// RUN: mlc-opt --list-ops | filecheck %s
// RUN: mlc-opt --op-docs func | filecheck %s --check-prefix=DOCS
// RUN: not mlc-opt --op-docs nosuchdialect 2>&1 | filecheck %s --check-prefix=NODIALECT

// CHECK-DAG: {{^}}arith: Integer and floating-point arithmetic.
// CHECK-DAG: {{^}}builtin:
// CHECK-DAG: {{^}}func: Functions, calls and returns.
// CHECK-DAG: {{^}}memref: Buffers in memory: allocation, element access and views.
// CHECK-DAG: memref.subview {{.+}}
// CHECK-DAG: vector.transfer_read {{.+}}
// CHECK-DAG: arith.addf {{.+}}
// CHECK-DAG: arith.addi {{.+}}
// CHECK-DAG: arith.andi {{.+}}
// CHECK-DAG: arith.cmpf {{.+}}
// CHECK-DAG: arith.cmpi {{.+}}
// CHECK-DAG: arith.constant {{.+}}
// CHECK-DAG: arith.divf {{.+}}
// CHECK-DAG: arith.divsi {{.+}}
// CHECK-DAG: arith.divui {{.+}}
// CHECK-DAG: arith.extf {{.+}}
// CHECK-DAG: arith.extsi {{.+}}
// CHECK-DAG: arith.extui {{.+}}
// CHECK-DAG: arith.fptosi {{.+}}
// CHECK-DAG: arith.fptoui {{.+}}
// CHECK-DAG: arith.index_cast {{.+}}
// CHECK-DAG: arith.maximumf {{.+}}
// CHECK-DAG: arith.minimumf {{.+}}
// CHECK-DAG: arith.mulf {{.+}}
// CHECK-DAG: arith.muli {{.+}}
// CHECK-DAG: arith.negf {{.+}}
// CHECK-DAG: arith.ori {{.+}}
// CHECK-DAG: arith.remf {{.+}}
// CHECK-DAG: arith.remsi {{.+}}
// CHECK-DAG: arith.remui {{.+}}
// CHECK-DAG: arith.select {{.+}}
// CHECK-DAG: arith.sitofp {{.+}}
// CHECK-DAG: arith.subf {{.+}}
// CHECK-DAG: arith.subi {{.+}}
// CHECK-DAG: arith.truncf {{.+}}
// CHECK-DAG: arith.trunci {{.+}}
// CHECK-DAG: arith.uitofp {{.+}}
// CHECK-DAG: arith.xori {{.+}}
// CHECK-DAG: builtin.module {{.+}}
// CHECK-DAG: builtin.unrealized_conversion_cast {{.+}}
// CHECK-DAG: func.call {{.+}}
// CHECK-DAG: func.func {{.+}}
// CHECK-DAG: func.return {{.+}}
// CHECK-DAG: scf.for {{.+}}
// CHECK-DAG: scf.if {{.+}}
// CHECK-DAG: scf.while {{.+}}
// CHECK-DAG: scf.yield {{.+}}

// DOCS: # The `func` dialect
// DOCS-DAG: func.call
// DOCS-DAG: func.func
// DOCS-DAG: func.return

// NODIALECT: mlc-opt: error: no dialect named 'nosuchdialect'; installed: {{.*}}arith, builtin, cf, func
