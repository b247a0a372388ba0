"""The func dialect's passes: duplicate-function-elimination, inline. Importing this
package registers them."""

from mlc.ir.passes.func import duplicate_function_elimination, inline
