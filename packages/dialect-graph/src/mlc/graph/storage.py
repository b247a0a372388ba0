"""How graph tensors are stored as numpy arrays (bf16 as its 16-bit patterns) and
how computed values are rounded once into their element type."""

from __future__ import annotations

import numpy as np

from mlc.ir import RankedTensorType, Type


def _is_bf16(type_: Type) -> bool:
    return isinstance(type_, RankedTensorType) and getattr(type_.element_type, "name", "") == "bf16"


def stored(array, type_: Type, producer: str = "a graph op") -> np.ndarray:
    """`array` in the storage dtype of `type_`'s elements (bf16 as bit patterns,
    rounded once); floats overflow to inf. An integer result must be computed in
    integers: a float array for one is a bug in `producer`'s reference."""
    from mlc.ir.core.attributes import element_dtype

    array = np.asarray(array)
    if not isinstance(type_, RankedTensorType):
        return array
    if _is_bf16(type_):
        return to_bf16_bits(array)
    dtype = element_dtype(type_.element_type)
    if dtype.kind in "iub" and array.dtype.kind == "f":
        raise TypeError(f"{producer} computed {array.dtype} values for a {type_} result")
    with np.errstate(over="ignore"):
        return np.asarray(array, dtype)


def to_bf16_bits(array) -> np.ndarray:
    """bfloat16 bit patterns (uint16) of numbers of any dtype, rounded once to nearest
    even (f64 and integers are not rounded through f32 first); beyond bf16's range
    they become ±inf, NaN the quiet NaN 0x7FC0."""
    x = np.asarray(array)
    if x.dtype.kind in "iu":
        x = _integers_to_bf16_values(x)
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        # bf16 keeps 8 significant bits; below its smallest normal, 2^-126, the
        # quantum stays 2^-133 (the subnormals). Scaling by powers of two is exact, so
        # np.round (half to even) is the only rounding.
        _, exponent = np.frexp(x)  # |x| in [2^(e-1), 2^e)
        quantum = np.maximum(exponent, -125) - 8
        rounded = np.ldexp(np.round(np.ldexp(x, -quantum)), quantum)
        single = rounded.astype(np.float32)  # exact, or ±inf past bf16's largest value
    bits = (single.view(np.uint32) >> 16).astype(np.uint16)
    return np.where(np.isnan(x), np.uint16(0x7FC0), bits)


def _integers_to_bf16_values(x: np.ndarray) -> np.ndarray:
    """Integers rounded (half to even) to bf16's 8 significant bits, in integer
    arithmetic: float64 would already round those above 2^53."""
    if x.dtype.kind == "u":
        negative, magnitude = np.zeros(x.shape, bool), x.astype(np.uint64)
    else:
        wide = x.astype(np.int64)
        # |INT64_MIN| wraps to itself; as uint64 it reads 2^63, the right magnitude.
        negative, magnitude = wide < 0, np.abs(wide).astype(np.uint64)
    length = np.zeros(x.shape, np.uint64)  # bit length of each magnitude
    rest = magnitude
    for step in (32, 16, 8, 4, 2, 1):
        high = (rest >> np.uint64(step)) != 0
        length += np.where(high, np.uint64(step), np.uint64(0))
        rest = np.where(high, rest >> np.uint64(step), rest)
    length += (rest != 0).astype(np.uint64)
    shift = np.where(length > 8, length - np.uint64(8), np.uint64(0))
    kept = magnitude >> shift
    dropped = magnitude - (kept << shift)
    half = np.uint64(1) << (np.maximum(shift, np.uint64(1)) - np.uint64(1))  # unused at shift 0
    up = (shift > 0) & ((dropped > half) | ((dropped == half) & ((kept & np.uint64(1)) == 1)))
    value = np.ldexp((kept + up.astype(np.uint64)).astype(np.float64), shift.astype(np.int64))
    return np.where(negative, -value, value)


def from_bf16_bits(array) -> np.ndarray:
    """float32 values of bfloat16 bit patterns (uint16)."""
    return (np.asarray(array, np.uint16).astype(np.uint32) << 16).view(np.float32)


