// mlc-import and mlc-opt on models they cannot import: one diagnostic naming the file,
// exit status 1, nothing on stdout.
// RUN: rm -rf %t.d && mkdir -p %t.d
// RUN: python %S/../../../examples/onnx_convnet.py %t.d/convnet.onnx

// RUN: not mlc-import %t.d/convnet.onnx 2>&1 | filecheck %s --check-prefix=UNBOUND
// RUN: not mlc-opt %t.d/convnet.onnx -p graph-optimize 2>&1 | filecheck %s --check-prefix=UNBOUND
// UNBOUND: convnet.onnx: error: dynamic dimensions must be bound with --input-shape NAME=D0,D1,... (input_shapes=): unbound: 'image' dimension 0 ('N')
// UNBOUND-NOT: {{.}}

// RUN: head -c 1000 %t.d/convnet.onnx > %t.d/cut.onnx
// RUN: not mlc-import %t.d/cut.onnx 2>&1 | filecheck %s --check-prefix=CUT
// CUT: cut.onnx: error: not an ONNX model: the file (1000 bytes) is not a valid ModelProto (truncated or not protobuf)
// CUT-NOT: {{.}}

// RUN: not mlc-import %t.d/absent.onnx --input-shape image=1,3,32,32 2>&1 | filecheck %s --check-prefix=ABSENT
// ABSENT: absent.onnx: error: cannot read the model: No such file or directory

// RUN: not mlc-import %t.d/convnet.onnx --input-shape image=1,3,32 2>&1 | filecheck %s --check-prefix=RANK
// RANK: convnet.onnx: error: input 'image' has rank 4, but 3 dimensions are given for it
