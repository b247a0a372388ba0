// Regression (fixed): builtin.module accepts discardable attributes without a dialect prefix:
// `module attributes {x}` verifies. mlir-opt-22: "'builtin.module' op can only
// contain attributes with dialect-prefixed names, found: 'x'".
// RUN: mlc-opt %s --verify-diagnostics

// expected-error@+1 {{can only contain attributes with dialect-prefixed names, found: 'x'}}
module @a attributes {x} {
}
