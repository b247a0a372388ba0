// Regression (fixed): when the text after a comment is no token, the lexer takes tokens from inside
// the comment: the comment-skipping part of the master regex
// `(?:[ \t\r\n]+|//[^\n]*)*` backtracks, so `//[^\n]*` matches less and a token inside
// the comment is returned. For the two-line input
//     // }
//     %
// mlc reports "1:4: error: unexpected '}', expected SSA value, ..." (inside the
// comment); mlir-opt-22 reports "2:1: error: invalid SSA name", as mlc now does. Any
// expected-error comment ends in `}}`, so the comment below is enough to trigger it.
// RUN: mlc-opt %s --verify-diagnostics

// expected-error@+1 {{invalid SSA name}}
%
