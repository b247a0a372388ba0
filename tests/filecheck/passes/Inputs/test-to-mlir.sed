# The test dialect's loop, if and memory ops in generic form, renamed to the MLIR ops
# they mirror (scf.for, scf.if, scf.yield, memref.alloc/load/store/dealloc), so that
# mlir-opt-22 can run the same pass on the same program. test.opaque stays an
# unregistered op: unknown effects in both tools.
s/"test\.\(for\|if\|yield\)"/"scf.\1"/g
s/"test\.\(load\|store\)"/"memref.\1"/g
s/"test\.alloc"()/"memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}>/g
s/"test\.free"/"memref.dealloc"/g
