// --list-patterns: the canonicalization patterns, sorted by root op then name;
// declarative ones as their DAGs, with their constraints.
// RUN: mlc-opt --list-patterns | filecheck %s

// CHECK:      AddIAddConstant: (arith.addi (arith.addi $x, (constant $c0)), (constant $c1)) -> (arith.addi $x, (arith.constant {value = add_int($c0, $c1)})) where is_int_constant($c0)
// CHECK-NEXT: AddIMulNegativeOneLhs: (arith.addi (arith.muli $x, (constant $m)), $y) -> (arith.subi $y, $x) where is_minus_one($m)
// CHECK-NEXT: AddIMulNegativeOneRhs: (arith.addi $x, (arith.muli $y, (constant $m))) -> (arith.subi $x, $y) where is_minus_one($m)
// CHECK-NEXT: AddISubConstantLHS: (arith.addi (arith.subi (constant $c0), $x), (constant $c1)) -> (arith.subi (arith.constant {value = add_int($c0, $c1)}), $x) where is_int_constant($c0)
// CHECK-NEXT: AddISubConstantRHS: (arith.addi (arith.subi $x, (constant $c0)), (constant $c1)) -> (arith.addi $x, (arith.constant {value = sub_int($c1, $c0)})) where is_int_constant($c0)
// CHECK-NEXT: ExtSIOfExtUI: (arith.extsi (arith.extui $x)) -> (arith.extui $x)
// CHECK-NEXT: IndexCastOfIndexCast: (arith.index_cast:$root (arith.index_cast:$inner $x)) -> $x where result_has_type_of($root, $x), casts_to_index($inner)
// CHECK-NEXT: MulIMulIConstant: (arith.muli (arith.muli $x, (constant $c0)), (constant $c1)) -> (arith.muli $x, (arith.constant {value = mul_int($c0, $c1)})) where is_int_constant($c0)
// CHECK-NEXT: SelectI1ToNot: (arith.select $c, (constant false), (constant true)) -> (arith.xori $c, (arith.constant {value = true}))
// CHECK-NEXT: SelectNotCond: (arith.select (arith.xori $c, (constant true)), $a, $b) -> (arith.select $c, $b, $a) where is_i1($c)
// CHECK-NEXT: SubILHSAddConstant: (arith.subi (constant $c1), (arith.addi $x, (constant $c0))) -> (arith.subi (arith.constant {value = sub_int($c1, $c0)}), $x) where is_int_constant($c0)
// CHECK-NEXT: SubILHSSubConstantLHS: (arith.subi (constant $c1), (arith.subi (constant $c0), $x)) -> (arith.addi $x, (arith.constant {value = sub_int($c1, $c0)})) where is_int_constant($c0)
// CHECK-NEXT: SubILHSSubConstantRHS: (arith.subi (constant $c1), (arith.subi $x, (constant $c0))) -> (arith.subi (arith.constant {value = add_int($c0, $c1)}), $x) where is_int_constant($c0)
// CHECK-NEXT: SubIRHSAddConstant: (arith.subi (arith.addi $x, (constant $c0)), (constant $c1)) -> (arith.addi $x, (arith.constant {value = sub_int($c0, $c1)})) where is_int_constant($c0)
// CHECK-NEXT: SubIRHSSubConstantLHS: (arith.subi (arith.subi (constant $c0), $x), (constant $c1)) -> (arith.subi (arith.constant {value = sub_int($c0, $c1)}), $x) where is_int_constant($c0)
// CHECK-NEXT: SubIRHSSubConstantRHS: (arith.subi (arith.subi $x, (constant $c0)), (constant $c1)) -> (arith.subi $x, (arith.constant {value = add_int($c0, $c1)})) where is_int_constant($c0)
// CHECK-NEXT: TruncIExtSIToExtSI: (arith.trunci:$root (arith.extsi $x)) -> (arith.extsi $x) where result_wider_than($root, $x)
// CHECK-NEXT: TruncIExtUIToExtUI: (arith.trunci:$root (arith.extui $x)) -> (arith.extui $x) where result_wider_than($root, $x)
// CHECK-NEXT: XOrINotCmpI: (arith.xori (arith.cmpi {predicate = $p} $a, $b), (constant true)) -> (arith.cmpi {predicate = invert_cmpi_predicate($p)} $a, $b)
// Then the graph dialect's, by root op (graph.add first).
// CHECK-NEXT: AddZero: (graph.add
// CHECK:      LayoutTransformInverse: (graph.layout_transform
