// A malformed pipeline is one error located in the pipeline text, with the line and a
// caret under the offending spot, and exit status 1; the input is not printed and
// -o is not written (see the end of the file).
//
// Names: unknown passes (nested too, with the closest name if one is close), empty
// names, an op name expected before '('.
// RUN: not mlc-opt %s -p 'bad{' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// UNKNOWN:      <pipeline>:1:1: error: 'bad' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT: bad{
// UNKNOWN-NEXT: {{^\^$}}
// UNKNOWN-NOT:  module
// RUN: not mlc-opt %s -p 'builtin.module(func.func(cse,nope))' 2>&1 | filecheck %s --check-prefix=NESTED-UNKNOWN
// NESTED-UNKNOWN:      <pipeline>:1:30: error: 'nope' does not refer to a registered pass or pass pipeline
// NESTED-UNKNOWN-NEXT: builtin.module(func.func(cse,nope))
// NESTED-UNKNOWN-NEXT: {{^                             \^$}}
// RUN: not mlc-opt %s -p 'cse,canonicalise' 2>&1 | filecheck %s --check-prefix=CLOSE
// CLOSE: <pipeline>:1:5: error: 'canonicalise' does not refer to a registered pass or pass pipeline; did you mean 'canonicalize'?
// RUN: not mlc-opt %s -p 'cse,,dce' 2>&1 | filecheck %s --check-prefix=EMPTY-ELEMENT
// EMPTY-ELEMENT:      <pipeline>:1:5: error: expected a pass or op name, found ','
// EMPTY-ELEMENT-NEXT: cse,,dce
// EMPTY-ELEMENT-NEXT: {{^    \^$}}
// RUN: not mlc-opt %s -p 'cse,' 2>&1 | filecheck %s --check-prefix=TRAILING
// TRAILING: <pipeline>:1:5: error: expected a pass or op name, found end of pipeline
// RUN: not mlc-opt %s -p 'canonicalize{=3}' 2>&1 | filecheck %s --check-prefix=EMPTY-OPTION-NAME
// EMPTY-OPTION-NAME:      <pipeline>:1:14: error: expected an option name, found '='
// EMPTY-OPTION-NAME-NEXT: canonicalize{=3}
// EMPTY-OPTION-NAME-NEXT: {{^             \^$}}
// RUN: not mlc-opt %s -p 'cse(dce)' 2>&1 | filecheck %s --check-prefix=NOT-AN-OP
// NOT-AN-OP: <pipeline>:1:1: error: 'cse' is not an op name (dialect.op) or 'any': only ops have nested pipelines
//
// Brackets: each unbalanced one is located; an unclosed one where it opens.
// RUN: not mlc-opt %s -p 'builtin.module(func.func(cse)' 2>&1 | filecheck %s --check-prefix=UNCLOSED
// UNCLOSED:      <pipeline>:1:15: error: unbalanced parentheses: this '(' is never closed
// UNCLOSED-NEXT: builtin.module(func.func(cse)
// UNCLOSED-NEXT: {{^              \^$}}
// RUN: not mlc-opt %s -p 'cse)' 2>&1 | filecheck %s --check-prefix=EXTRA
// EXTRA:      <pipeline>:1:4: error: unbalanced parentheses: ')' without a matching '('
// EXTRA-NEXT: cse)
// EXTRA-NEXT: {{^   \^$}}
// RUN: not mlc-opt %s -p 'canonicalize{max-iterations=3' 2>&1 | filecheck %s --check-prefix=UNCLOSED-BRACE
// UNCLOSED-BRACE:      <pipeline>:1:13: error: unbalanced braces: this '{' is never closed
// UNCLOSED-BRACE-NEXT: canonicalize{max-iterations=3
// UNCLOSED-BRACE-NEXT: {{^            \^$}}
// RUN: not mlc-opt %s -p 'print-ir{label={a b}' 2>&1 | filecheck %s --check-prefix=UNCLOSED-INNER-BRACE
// UNCLOSED-INNER-BRACE: <pipeline>:1:9: error: unbalanced braces: this '{' is never closed
// RUN: not mlc-opt %s -p 'cse}' 2>&1 | filecheck %s --check-prefix=EXTRA-BRACE
// EXTRA-BRACE: <pipeline>:1:4: error: unbalanced braces: '}' without a matching '{'
// RUN: not mlc-opt %s -p 'print-ir{label="a b}' 2>&1 | filecheck %s --check-prefix=QUOTE
// QUOTE: <pipeline>:1:16: error: unterminated '"' in pass options
// RUN: not mlc-opt %s -p 'print-ir{label=a} dce' 2>&1 | filecheck %s --check-prefix=JUNK
// JUNK:      <pipeline>:1:19: error: expected ',' between pipeline elements, found 'd'
// RUN: not mlc-opt %s -p 'builtin.module(cse dce)' 2>&1 | filecheck %s --check-prefix=JUNK-NESTED
// JUNK-NESTED: <pipeline>:1:20: error: expected ',' or ')', found 'd'
//
// Options: unknown, given twice, without a value, of the wrong type; the caret is
// under the option's name or its value.
// RUN: not mlc-opt %s -p 'canonicalize{bogus=1}' 2>&1 | filecheck %s --check-prefix=NO-OPTION
// NO-OPTION:      <pipeline>:1:14: error: pass 'canonicalize' has no option 'bogus' (options: max-iterations, max-num-rewrites, top-down, fold, enable-patterns, disable-patterns, test-convergence, region-simplify)
// NO-OPTION-NEXT: canonicalize{bogus=1}
// NO-OPTION-NEXT: {{^             \^$}}
// RUN: not mlc-opt %s -p 'cse{x=1}' 2>&1 | filecheck %s --check-prefix=NO-OPTIONS
// NO-OPTIONS: <pipeline>:1:5: error: pass 'cse' has no option 'x' (options: none)
// RUN: not mlc-opt %s -p 'canonicalize{max-iterations=1 max-iterations=2}' 2>&1 | filecheck %s --check-prefix=TWICE
// TWICE:      <pipeline>:1:31: error: option 'max-iterations' of 'canonicalize' is given twice
// TWICE-NEXT: canonicalize{max-iterations=1 max-iterations=2}
// TWICE-NEXT: {{^                              \^$}}
// TWICE-NEXT: <pipeline>:1:14: note: first given here
// RUN: not mlc-opt %s -p 'canonicalize{max-iterations}' 2>&1 | filecheck %s --check-prefix=NO-VALUE
// NO-VALUE: <pipeline>:1:14: error: option 'max-iterations' of 'canonicalize' needs a value: an int >= -1
// RUN: not mlc-opt %s -p 'cse,canonicalize{max-iterations=many}' 2>&1 | filecheck %s --check-prefix=BAD-INT
// BAD-INT:      <pipeline>:1:33: error: invalid value for option 'max-iterations' of 'canonicalize': expected an int >= -1, got 'many'
// BAD-INT-NEXT: cse,canonicalize{max-iterations=many}
// BAD-INT-NEXT: {{^                                \^$}}
// RUN: not mlc-opt %s -p 'canonicalize{top-down=maybe}' 2>&1 | filecheck %s --check-prefix=BAD-BOOL
// BAD-BOOL: <pipeline>:1:23: error: invalid value for option 'top-down' of 'canonicalize': expected true or false, got 'maybe'
//
// Domains: every option with one is checked when the pipeline is parsed, also when
// --opt-level will skip the pass (graph-fuse-ops is level 1, graph-fold-constant 2,
// graph-alter-op-layout 3).
// RUN: not mlc-opt %s -p 'graph-fuse-ops{max-depth=-1}' --opt-level 0 2>&1 | filecheck %s --check-prefix=MAX-DEPTH
// MAX-DEPTH:      <pipeline>:1:26: error: invalid value for option 'max-depth' of 'graph-fuse-ops': expected an int >= 0, got '-1'
// MAX-DEPTH-NEXT: graph-fuse-ops{max-depth=-1}
// MAX-DEPTH-NEXT: {{^                         \^$}}
// RUN: not mlc-opt %s -p 'graph-fuse-ops{opt-level=-3}' --opt-level 0 2>&1 | filecheck %s --check-prefix=FUSE-LEVEL
// FUSE-LEVEL: <pipeline>:1:26: error: invalid value for option 'opt-level' of 'graph-fuse-ops': expected an int >= 0, got '-3'
// RUN: not mlc-opt %s -p 'graph-fold-constant{max-growth-elements=-5}' --opt-level 0 2>&1 | filecheck %s --check-prefix=GROWTH
// GROWTH: <pipeline>:1:41: error: invalid value for option 'max-growth-elements' of 'graph-fold-constant': expected an int >= 0, got '-5'
// RUN: not mlc-opt %s -p 'graph-alter-op-layout{block=0}' --opt-level 0 2>&1 | filecheck %s --check-prefix=BLOCK
// BLOCK:      <pipeline>:1:29: error: invalid value for option 'block' of 'graph-alter-op-layout': expected an int >= 1, got '0'
// BLOCK-NEXT: graph-alter-op-layout{block=0}
// BLOCK-NEXT: {{^                            \^$}}
// RUN: not mlc-opt %s -p 'builtin.module(func.func(canonicalize{max-num-rewrites=-2}))' 2>&1 | filecheck %s --check-prefix=REWRITES
// REWRITES: <pipeline>:1:56: error: invalid value for option 'max-num-rewrites' of 'canonicalize': expected an int >= -1, got '-2'
// Named as a flag, the option is located in the pipeline the flags make.
// RUN: not mlc-opt %s --cse --graph-alter-op-layout=block=-16 2>&1 | filecheck %s --check-prefix=FLAG
// FLAG:      <pipeline>:1:33: error: invalid value for option 'block' of 'graph-alter-op-layout': expected an int >= 1, got '-16'
// FLAG-NEXT: cse,graph-alter-op-layout{block=-16}
//
// Anchors. A pipeline that is one `op-name(...)` runs on that op, as in mlir-opt:
// func.func(cse) cannot run on the module the input is.
// RUN: not mlc-opt %s -p 'func.func(cse)' 2>&1 | filecheck %s --check-prefix=ROOT
// ROOT:      <pipeline>:1:1: error: can't run 'func.func' pass manager on 'builtin.module' op
// ROOT-NEXT: func.func(cse)
// ROOT-NEXT: {{^\^$}}
// ROOT-NOT:  func.func @f
// A pass on an op that lacks a trait it needs: symbol-dce needs a symbol table.
// RUN: not mlc-opt %s -p 'builtin.module(func.func(symbol-dce))' --opt-level 0 2>&1 | filecheck %s --check-prefix=TRAIT
// TRAIT:      <pipeline>:1:26: error: pass 'symbol-dce' cannot run on 'func.func': it needs an op with the SymbolTable trait
// TRAIT-NEXT: builtin.module(func.func(symbol-dce))
// TRAIT-NEXT: {{^                         \^$}}
// A nested pipeline on an op that is not isolated from above, or no op of its dialect.
// RUN: not mlc-opt %s -p 'builtin.module(func.func(arith.addi(cse)))' 2>&1 | filecheck %s --check-prefix=NOT-ISOLATED
// NOT-ISOLATED: <pipeline>:1:26: error: can't schedule passes on 'arith.addi' ops: they are not marked 'IsolatedFromAbove'
// RUN: not mlc-opt %s -p 'builtin.module(func.fnc(cse))' 2>&1 | filecheck %s --check-prefix=NO-SUCH-OP
// NO-SUCH-OP:      <pipeline>:1:16: error: 'func.fnc' is not an op of the 'func' dialect
// NO-SUCH-OP-NEXT: builtin.module(func.fnc(cse))
// NO-SUCH-OP-NEXT: {{^               \^$}}
//
// Named pipelines expand at their name: an error is located there.
// RUN: not mlc-opt %s -p 'cse,graph-optimize{x=1}' 2>&1 | filecheck %s --check-prefix=NAMED
// NAMED: <pipeline>:1:19: error: named pipeline 'graph-optimize' takes no options
//
// -o is never written when the pipeline is malformed, or cannot run on the input.
// RUN: rm -f %t.out
// RUN: not mlc-opt %s -p 'graph-fuse-ops{max-depth=-1}' -o %t.out
// RUN: not mlc-opt %s -p 'func.func(cse)' -o %t.out
// RUN: not mlc-opt %s -p 'builtin.module(func.func(symbol-dce))' -o %t.out
// RUN: not ls %t.out

func.func @f() {
  return
}
