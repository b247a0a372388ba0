"""The core dialects: builtin, func and arith."""
