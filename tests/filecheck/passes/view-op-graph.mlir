// view-op-graph writes a Graphviz DOT picture of the data flow to stderr, as
// mlir-opt's: every op with regions a cluster (here the module and each function),
// every block a cluster, block arguments and ops record nodes, data-flow edges from a
// result's port to an operand's port. After graph-fuse-ops each kernel is a cluster
// named by its symbol, and each call node names the kernel it runs.
// RUN: mlc-opt %s --graph-fuse-ops --view-op-graph 2>&1 >/dev/null | filecheck %s
// RUN: mlc-opt %s -p 'graph-fuse-ops,view-op-graph{print-attrs=false print-result-types=false}' 2>&1 >/dev/null | filecheck %s --check-prefix=BARE
// RUN: mlc-opt %s --graph-fuse-ops --view-op-graph='print-data-flow-edges=false print-control-flow-edges=true' 2>&1 >/dev/null | filecheck %s --check-prefix=CONTROL
// The IR on stdout is what it is without the pass.
// RUN: mlc-opt %s --graph-fuse-ops > %t.ir
// RUN: mlc-opt %s --graph-fuse-ops --view-op-graph 2>/dev/null > %t.viewed
// RUN: diff %t.ir %t.viewed
// output=FILE: the DOT goes to the file (written whole, then renamed), not stderr.
// RUN: mlc-opt %s -p 'graph-fuse-ops,view-op-graph{output=%t.dot}' 2>%t.err >/dev/null
// RUN: filecheck %s --input-file=%t.dot
// RUN: filecheck %s --allow-empty --input-file=%t.err --check-prefix=EMPTY
// RUN: not mlc-opt %s -p 'view-op-graph{output=%t.no-such-dir/graph.dot}' 2>&1 | filecheck %s --check-prefix=NOWRITE

// CHECK:      digraph G {
// CHECK-NEXT:   compound = true;
// CHECK-NEXT:   subgraph cluster_1 {
// CHECK-NEXT:     v2 [label = " ", shape = plain];
// CHECK-NEXT:     label = "builtin.module : ()\l";
// CHECK-NEXT:     subgraph cluster_3 {
// CHECK-NEXT:       v4 [label = " ", shape = plain];
// CHECK-NEXT:       label = "";
// CHECK-NEXT:       subgraph cluster_5 {
// CHECK-NEXT:         v6 [label = " ", shape = plain];
// CHECK-NEXT:         label = "func.func @mlp : ()\lfunction_type: (tensor<1x8xf32>, te...\l";
// CHECK-NEXT:         subgraph cluster_7 {
// CHECK-NEXT:           v8 [label = " ", shape = plain];
// CHECK-NEXT:           label = "";
// CHECK-NEXT:           [[X:v[0-9]+]] [label = "<out0> %x tensor\<1x8xf32\>", shape = Mrecord];
// CHECK-NEXT:           [[W:v[0-9]+]] [label = "<out0> %w tensor\<4x8xf32\>", shape = Mrecord];
// CHECK-NEXT:           [[B:v[0-9]+]] [label = "<out0> %b tensor\<4xf32\>", shape = Mrecord];
// CHECK-NEXT:           [[CALL1:v[0-9]+]] [fillcolor = "[[CALL_COLOR:[0-9.]+ 0.3 0.95]]", label = "{{[{][{]}}<in0> %x|<in1> %w|<in2> %b}|func.call @fused_dense_bias_add_relu\l|{<out0> %0 tensor\<1x4xf32\>}}", shape = Mrecord, style = filled];
// CHECK-NEXT:           [[CALL2:v[0-9]+]] [fillcolor = "[[CALL_COLOR]]", label = "{{[{][{]}}<in0> %0}|func.call @fused_softmax\l|{<out0> %1 tensor\<1x4xf32\>}}", shape = Mrecord, style = filled];
// CHECK-NEXT:           [[RET:v[0-9]+]] [fillcolor = "[[RET_COLOR:[0-9.]+ 0.3 0.95]]", label = "{{[{][{]}}<in0> %1}|func.return\l}", shape = Mrecord, style = filled];
// CHECK-NEXT:         }
// CHECK-NEXT:       }
// The first kernel: its label names it and says it is a primitive function.
// CHECK-NEXT:       subgraph cluster_{{[0-9]+}} {
// CHECK-NEXT:         v{{[0-9]+}} [label = " ", shape = plain];
// CHECK-NEXT:         label = "func.func @fused_dense_bias_add_relu : ()\lfunction_type: (tensor<1x8xf32>, te...\lgraph.primitive: unit\lsym_visibility: \"private\"\l";
// CHECK-NEXT:         subgraph cluster_{{[0-9]+}} {
// CHECK-NEXT:           v{{[0-9]+}} [label = " ", shape = plain];
// CHECK-NEXT:           label = "";
// CHECK-NEXT:           [[P0:v[0-9]+]] [label = "<out0> %p0 tensor\<1x8xf32\>", shape = Mrecord];
// CHECK-NEXT:           [[P1:v[0-9]+]] [label = "<out0> %p1 tensor\<4x8xf32\>", shape = Mrecord];
// CHECK-NEXT:           [[P2:v[0-9]+]] [label = "<out0> %p2 tensor\<4xf32\>", shape = Mrecord];
// CHECK-NEXT:           [[DENSE:v[0-9]+]] [{{.*}}label = "{{[{][{]}}<in0> %p0|<in1> %p1}|graph.dense\l\lweight_layout: \"NK\"\l|{<out0> %0 tensor\<1x4xf32\>}}"
// CHECK-NEXT:           [[BIAS:v[0-9]+]] [{{.*}}label = "{{[{][{]}}<in0> %0|<in1> %p2}|graph.bias_add\l\laxis: 1 : i64\l|{<out0> %1 tensor\<1x4xf32\>}}"
// CHECK-NEXT:           [[RELU:v[0-9]+]] [{{.*}}label = "{{[{][{]}}<in0> %1}|graph.relu\l|{<out0> %2 tensor\<1x4xf32\>}}"
// CHECK-NEXT:           [[KRET:v[0-9]+]] [fillcolor = "[[RET_COLOR]]", label = "{{[{][{]}}<in0> %2}|func.return\l}"
// CHECK-NEXT:         }
// CHECK-NEXT:       }
// CHECK-NEXT:       subgraph cluster_{{[0-9]+}} {
// CHECK-NEXT:         v{{[0-9]+}} [label = " ", shape = plain];
// CHECK-NEXT:         label = "func.func @fused_softmax : ()\lfunction_type: (tensor<1x4xf32>) ->...\lgraph.primitive: unit\lsym_visibility: \"private\"\l";
// CHECK:              [[SOFTMAX:v[0-9]+]] [{{.*}}label = "{{[{][{]}}<in0> %p0}|graph.softmax\l\laxis: -1 : i64\l|
// CHECK:              func.return
// CHECK-NEXT:         }
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// Data-flow edges, after every node: from a result's port to an operand's port.
// CHECK-NEXT:   [[X]]:out0:s -> [[CALL1]]:in0:n [style = solid];
// CHECK-NEXT:   [[W]]:out0:s -> [[CALL1]]:in1:n [style = solid];
// CHECK-NEXT:   [[B]]:out0:s -> [[CALL1]]:in2:n [style = solid];
// CHECK-NEXT:   [[CALL1]]:out0:s -> [[CALL2]]:in0:n [style = solid];
// CHECK-NEXT:   [[CALL2]]:out0:s -> [[RET]]:in0:n [style = solid];
// CHECK-NEXT:   [[P0]]:out0:s -> [[DENSE]]:in0:n [style = solid];
// CHECK-NEXT:   [[P1]]:out0:s -> [[DENSE]]:in1:n [style = solid];
// CHECK-NEXT:   [[DENSE]]:out0:s -> [[BIAS]]:in0:n [style = solid];
// CHECK-NEXT:   [[P2]]:out0:s -> [[BIAS]]:in1:n [style = solid];
// CHECK-NEXT:   [[BIAS]]:out0:s -> [[RELU]]:in0:n [style = solid];
// CHECK-NEXT:   [[RELU]]:out0:s -> [[KRET]]:in0:n [style = solid];
// CHECK-NEXT:   v{{[0-9]+}}:out0:s -> [[SOFTMAX]]:in0:n [style = solid];
// CHECK-NEXT:   [[SOFTMAX]]:out0:s -> v{{[0-9]+}}:in0:n [style = solid];
// CHECK-NEXT: }
// CHECK-NOT:  {{.}}

// Without attributes and types: names, symbols and value names only.
// BARE:      label = "builtin.module";
// BARE:      label = "func.func @mlp";
// BARE:      label = "{{[{][{]}}<in0> %x|<in1> %w|<in2> %b}|func.call @fused_dense_bias_add_relu\l|{<out0> %0}}"
// BARE:      label = "func.func @fused_dense_bias_add_relu";
// BARE:      [label = "<out0> %p0", shape = Mrecord];
// BARE:      label = "{{[{][{]}}<in0> %0|<in1> %p2}|graph.bias_add\l|{<out0> %1}}"

// Control flow only: dashed edges between consecutive ops of each block.
// CONTROL:     [[CALL1:v[0-9]+]] [{{.*}}func.call @fused_dense_bias_add_relu
// CONTROL-NEXT: [[CALL2:v[0-9]+]] [{{.*}}func.call @fused_softmax
// CONTROL-NEXT: [[RET:v[0-9]+]] [{{.*}}func.return
// CONTROL:     [[CALL1]] -> [[CALL2]] [style = dashed];
// CONTROL-NEXT: [[CALL2]] -> [[RET]] [style = dashed];
// CONTROL-NOT: solid

// EMPTY-NOT: {{.}}

// NOWRITE: <pipeline>:1:1: error: view-op-graph: cannot write '{{.*}}no-such-dir/graph.dot': No such file or directory
// NOWRITE-NEXT: view-op-graph{output={{.*}}}
// NOWRITE-NEXT: ^

func.func @mlp(%x: tensor<1x8xf32>, %w: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<1x4xf32> {
  %0 = graph.dense %x, %w : (tensor<1x8xf32>, tensor<4x8xf32>) -> tensor<1x4xf32>
  %1 = graph.bias_add %0, %b : (tensor<1x4xf32>, tensor<4xf32>) -> tensor<1x4xf32>
  %2 = graph.relu %1 : tensor<1x4xf32>
  %3 = graph.softmax %2 : tensor<1x4xf32>
  return %3 : tensor<1x4xf32>
}
