// Malformed `{-# ... #-}` file metadata: each error at mlir-opt-22's place in its words
// (mlc's own cases, not MLIR's test file). Keys of the section and dialect names are
// identifiers; resource handles may be strings; builtin and test resources are hex
// blobs that start with a power-of-two alignment; another dialect's keys are checked
// by that dialect (mlc's other dialects have none); an unknown dialect is an error.
// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: %if mlir-opt %{ %mlir_opt %s --split-input-file --verify-diagnostics %}

// expected-error@+1 {{expected identifier key in file metadata dictionary}}
{-# "dialect_resources": {} #-}

// -----

// expected-error@+1 {{unknown key 'resources' in file metadata dictionary}}
{-# resources: {} #-}

// -----

// expected-error@+1 {{expected identifier key for 'resource' entry}}
{-# dialect_resources: { "builtin": {} } #-}

// -----

// expected-error@+1 {{dialect 'nosuch' is unknown}}
{-# dialect_resources: { nosuch: { a: "0x04000000" } } #-}

// -----

// expected-error@+1 {{unexpected 'resource' section for dialect 'arith'}}
{-# dialect_resources: { arith: { weights: "0x04000000" } } #-}

// -----

// expected-error@+1 {{expected hex string blob for key 'b'}}
{-# dialect_resources: { test: { b: 10 } } #-}

// -----

// expected-error@+1 {{expected hex string blob for key 'b'}}
{-# dialect_resources: { builtin: { b: "0x123" } } #-}

// -----

// expected-error@+1 {{expected hex string blob for key 'b' to encode alignment in first 4 bytes}}
{-# dialect_resources: { builtin: { b: "0x0400" } } #-}

// -----

// expected-error@+1 {{expected hex string blob for key 'b' to encode alignment in first 4 bytes, but got non-power-of-2 value: 3}}
{-# dialect_resources: { builtin: { b: "0x03000000" } } #-}

// -----

// A quoted handle is fine.
{-# dialect_resources: { builtin: { "a b": "0x0400000001020304" } } #-}
