// --list-patterns: the canonicalization patterns, sorted by root op then name;
// declarative ones as their DAGs, with their constraints.
// RUN: mlc-opt --list-patterns | filecheck %s

// CHECK:      AddIAddConstant: (arith.addi (arith.addi $x, (constant $c0)), (constant $c1)) -> (arith.addi $x, (arith.constant {value = add_int($c0, $c1)})) where is_int_constant($c0)
// CHECK-NEXT: AddIMulNegativeOneLhs: (arith.addi (arith.muli $x, (constant $m)), $y) -> (arith.subi $y, $x) where is_minus_one($m)
// CHECK-NEXT: AddIMulNegativeOneRhs: (arith.addi $x, (arith.muli $y, (constant $m))) -> (arith.subi $x, $y) where is_minus_one($m)
// CHECK-NEXT: AddISubConstantLHS: (arith.addi (arith.subi (constant $c0), $x), (constant $c1)) -> (arith.subi (arith.constant {value = add_int($c0, $c1)}), $x) where is_int_constant($c0)
// CHECK-NEXT: AddISubConstantRHS: (arith.addi (arith.subi $x, (constant $c0)), (constant $c1)) -> (arith.addi $x, (arith.constant {value = sub_int($c1, $c0)})) where is_int_constant($c0)
// CHECK-NEXT: AddUIExtendedToAddI: (arith.addui_extended:$root $x, $y) -> [(arith.addi $x, $y), $x] where second_result_unused($root)
// CHECK-NEXT: BitcastOfBitcast: (arith.bitcast (arith.bitcast $x)) -> (arith.bitcast $x)
// CHECK-NEXT: ExtSIOfExtUI: (arith.extsi (arith.extui $x)) -> (arith.extui $x)
// CHECK-NEXT: IndexCastOfExtSI: (arith.index_cast (arith.extsi $x)) -> (arith.index_cast $x)
// CHECK-NEXT: IndexCastOfIndexCast: (arith.index_cast:$root (arith.index_cast:$inner $x)) -> $x where result_has_type_of($root, $x), casts_to_index($inner)
// CHECK-NEXT: IndexCastUIOfExtUI: (arith.index_castui (arith.extui $x)) -> (arith.index_castui $x)
// CHECK-NEXT: IndexCastUIOfIndexCastUI: (arith.index_castui:$root (arith.index_castui:$inner $x)) -> $x where result_has_type_of($root, $x), casts_to_index($inner)
// CHECK-NEXT: MulIMulIConstant: (arith.muli (arith.muli $x, (constant $c0)), (constant $c1)) -> (arith.muli $x, (arith.constant {value = mul_int($c0, $c1)})) where is_int_constant($c0)
// CHECK-NEXT: MulSIExtendedRHSOne: (arith.mulsi_extended $x, (constant $one)) -> [$x, (arith.extsi (arith.cmpi {predicate = 2 : i64} $x, (arith.constant {value = zero_of($x)})))] where is_signed_one($one), has_fixed_width($x)
// CHECK-NEXT: MulSIExtendedToMulI: (arith.mulsi_extended:$root $x, $y) -> [(arith.muli $x, $y), $x] where second_result_unused($root)
// CHECK-NEXT: MulUIExtendedToMulI: (arith.mului_extended:$root $x, $y) -> [(arith.muli $x, $y), $x] where second_result_unused($root)
// CHECK-NEXT: SelectI1ToNot: (arith.select $c, (constant false), (constant true)) -> (arith.xori $c, (arith.constant {value = true}))
// CHECK-NEXT: SelectNotCond: (arith.select (arith.xori $c, (constant true)), $a, $b) -> (arith.select $c, $b, $a) where is_i1($c)
// CHECK-NEXT: SubILHSAddConstant: (arith.subi (constant $c1), (arith.addi $x, (constant $c0))) -> (arith.subi (arith.constant {value = sub_int($c1, $c0)}), $x) where is_int_constant($c0)
// CHECK-NEXT: SubILHSSubConstantLHS: (arith.subi (constant $c1), (arith.subi (constant $c0), $x)) -> (arith.addi $x, (arith.constant {value = sub_int($c1, $c0)})) where is_int_constant($c0)
// CHECK-NEXT: SubILHSSubConstantRHS: (arith.subi (constant $c1), (arith.subi $x, (constant $c0))) -> (arith.subi (arith.constant {value = add_int($c0, $c1)}), $x) where is_int_constant($c0)
// CHECK-NEXT: SubIRHSAddConstant: (arith.subi (arith.addi $x, (constant $c0)), (constant $c1)) -> (arith.addi $x, (arith.constant {value = sub_int($c0, $c1)})) where is_int_constant($c0)
// CHECK-NEXT: SubIRHSSubConstantLHS: (arith.subi (arith.subi (constant $c0), $x), (constant $c1)) -> (arith.subi (arith.constant {value = sub_int($c0, $c1)}), $x) where is_int_constant($c0)
// CHECK-NEXT: SubIRHSSubConstantRHS: (arith.subi (arith.subi $x, (constant $c0)), (constant $c1)) -> (arith.subi $x, (arith.constant {value = add_int($c0, $c1)})) where is_int_constant($c0)
// CHECK-NEXT: TruncFSIToFPToSIToFP: (arith.truncf:$root (arith.sitofp $x)) -> (arith.sitofp $x) where has_default_rounding($root)
// CHECK-NEXT: TruncFUIToFPToUIToFP: (arith.truncf:$root (arith.uitofp $x)) -> (arith.uitofp $x) where has_default_rounding($root)
// CHECK-NEXT: TruncIExtSIToExtSI: (arith.trunci:$root (arith.extsi $x)) -> (arith.extsi $x) where result_wider_than($root, $x)
// CHECK-NEXT: TruncIExtUIToExtUI: (arith.trunci:$root (arith.extui $x)) -> (arith.extui $x) where result_wider_than($root, $x)
// CHECK-NEXT: TruncIShrSIToTrunciShrUI: (arith.trunci:$root (arith.shrsi $x, (constant $c))) -> (arith.trunci (arith.shrui $x, (arith.constant {value = $c}))) where shifts_out_truncated_bits($x, $root, $c)
// CHECK-NEXT: XOrINotCmpI: (arith.xori (arith.cmpi {predicate = $p} $a, $b), (constant true)) -> (arith.cmpi {predicate = invert_cmpi_predicate($p)} $a, $b)
// Then the cf dialect's code patterns, by root op.
// CHECK-NEXT: EraseAssertOfTrue: <code pattern on cf.assert> cf.assert of a constant true does nothing: erase it.
// CHECK-NEXT: JumpThroughPassThroughBlock: <code pattern on cf.br> cf.br to a block that only jumps on: jump to where that block jumps.
// CHECK-NEXT: MergeBlockWithSinglePredecessor: <code pattern on cf.br> cf.br to a block no other edge reaches: append that block to this one.
// CHECK-NEXT: CondBranchDecidedByPredecessor: <code pattern on cf.cond_br> cf.cond_br after a cf.cond_br on the same condition: decided by the first.
// CHECK-NEXT: CondBranchOnConstant: <code pattern on cf.cond_br> cf.cond_br on a constant: a jump to the way it takes.
// CHECK-NEXT: CondBranchThroughPassThroughBlocks: <code pattern on cf.cond_br> cf.cond_br to blocks that only jump on: branch to where they jump.
// CHECK-NEXT: CondBranchToOneBlock: <code pattern on cf.cond_br> cf.cond_br whose two ways go to one block: a jump (with selects if needed).
// CHECK-NEXT: PropagateBranchCondition: <code pattern on cf.cond_br> cf.cond_br: uses of its condition in its successors become constants.
// CHECK-NEXT: DropSwitchCasesExcludedByPredecessor: <code pattern on cf.switch> cf.switch in the default of a cf.switch on the same flag: fewer cases.
// CHECK-NEXT: DropSwitchCasesLikeDefault: <code pattern on cf.switch> cf.switch cases that go where the default goes, with its operands: dropped.
// CHECK-NEXT: SwitchDecidedByPredecessor: <code pattern on cf.switch> cf.switch in a case of a cf.switch on the same flag: a jump.
// CHECK-NEXT: SwitchOnConstant: <code pattern on cf.switch> cf.switch on a constant: a jump to the case it matches, or the default.
// CHECK-NEXT: SwitchThroughPassThroughBlocks: <code pattern on cf.switch> cf.switch to blocks that only jump on: switch to where they jump.
// CHECK-NEXT: SwitchWithOnlyDefault: <code pattern on cf.switch> cf.switch without cases: a jump to its default.
// Then the graph dialect's, by root op (graph.add first).
// CHECK-NEXT: AddZero: (graph.add
// CHECK:      LayoutTransformInverse: (graph.layout_transform
