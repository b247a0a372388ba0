"""Data layouts of 4-D tensors: `NCHW` and its channel-blocked form `NCHW{n}c`, and
kernel layouts `OIHW` and `OIHW{i}i{o}o` (what graph-alter-op-layout produces).

Re-laying returns numpy views where it can, so a splat (a zero-stride view) stays one."""

from __future__ import annotations

import re

import numpy as np

from mlc.graph.op_base import ShapeError

_BLOCKED_DATA = re.compile(r"NCHW(\d+)c")
_BLOCKED_KERNEL = re.compile(r"OIHW(\d+)i(\d+)o")


def data_block(layout: str) -> int:
    """Channel block of a data layout: 0 for NCHW, n for NCHW{n}c."""
    if layout == "NCHW":
        return 0
    match = _BLOCKED_DATA.fullmatch(layout)
    if match is None or int(match.group(1)) <= 0:
        raise ShapeError(f"data layout must be NCHW or NCHW<n>c, got '{layout}'")
    return int(match.group(1))


def kernel_blocks(layout: str) -> tuple[int, int]:
    """(input, output) channel blocks of a kernel layout: (0, 0) for OIHW."""
    if layout == "OIHW":
        return 0, 0
    match = _BLOCKED_KERNEL.fullmatch(layout)
    if match is None or int(match.group(1)) <= 0 or int(match.group(2)) <= 0:
        raise ShapeError(f"kernel layout must be OIHW or OIHW<i>i<o>o, got '{layout}'")
    return int(match.group(1)), int(match.group(2))


def blocked_shape(shape: tuple[int, ...], block: int) -> tuple[int, ...]:
    """NCHW shape -> NCHW{block}c shape."""
    n, c, h, w = shape
    if c % block:
        raise ShapeError(f"{c} channels do not split into blocks of {block}")
    return (n, c // block, h, w, block)


def to_blocked(array: np.ndarray, block: int) -> np.ndarray:
    """NCHW -> NCHW{block}c."""
    n, c, h, w = array.shape
    return array.reshape(n, c // block, block, h, w).transpose(0, 1, 3, 4, 2)


def from_blocked(array: np.ndarray) -> np.ndarray:
    """NCHW{n}c -> NCHW."""
    n, cb, h, w, block = array.shape
    return array.transpose(0, 1, 4, 2, 3).reshape(n, cb * block, h, w)


def kernel_to_blocked(array: np.ndarray, in_block: int, out_block: int) -> np.ndarray:
    """OIHW -> OIHW{in_block}i{out_block}o: (O/ob, I/ib, H, W, ib, ob)."""
    o, i, h, w = array.shape
    return array.reshape(o // out_block, out_block, i // in_block, in_block, h, w) \
        .transpose(0, 2, 4, 5, 3, 1)


def kernel_from_blocked(array: np.ndarray) -> np.ndarray:
    """OIHW{i}i{o}o -> OIHW."""
    ob_n, ib_n, h, w, ib, ob = array.shape
    return array.transpose(0, 5, 1, 4, 2, 3).reshape(ob_n * ob, ib_n * ib, h, w)


def convert(array: np.ndarray, src: str, dst: str) -> np.ndarray:
    """Re-lay `array` from layout `src` to `dst` (data or kernel layouts)."""
    if src == dst:
        return array
    if src.startswith("OIHW") or dst.startswith("OIHW"):
        if src != "OIHW":
            array = kernel_from_blocked(array)
        if dst != "OIHW":
            array = kernel_to_blocked(array, *kernel_blocks(dst))
        return array
    if src != "NCHW":
        array = from_blocked(array)
    if dst != "NCHW":
        array = to_blocked(array, data_block(dst))
    return array


def converted_shape(shape: tuple[int, ...], src: str, dst: str) -> tuple[int, ...]:
    """The shape `convert` gives, checked."""
    kernel = src.startswith("OIHW") or dst.startswith("OIHW")
    if kernel:
        kernel_blocks(src), kernel_blocks(dst)
        rank = 4 if src == "OIHW" else 6
    else:
        data_block(src), data_block(dst)
        rank = 4 if src == "NCHW" else 5
    if len(shape) != rank:
        raise ShapeError(f"a {src} tensor has rank {rank}, got shape {list(shape)}")
    if kernel:
        if src == "OIHW":
            o, i, h, w = shape
        else:
            ob_n, ib_n, h, w, ib, ob = shape
            if kernel_blocks(src) != (ib, ob):
                raise ShapeError(f"shape {list(shape)} does not end in the blocks of {src}")
            o, i = ob_n * ob, ib_n * ib
        if dst == "OIHW":
            return (o, i, h, w)
        ib, ob = kernel_blocks(dst)
        if o % ob or i % ib:
            raise ShapeError(f"{o}x{i} channels do not split into {dst} blocks")
        return (o // ob, i // ib, h, w, ib, ob)
    if src == "NCHW":
        n, c, h, w = shape
    else:
        n, cb, h, w, block = shape
        if block != data_block(src):
            raise ShapeError(f"shape {list(shape)} does not end in the block of {src}")
        c = cb * block
    if dst == "NCHW":
        return (n, c, h, w)
    return blocked_shape((n, c, h, w), data_block(dst))


def logical_index(layout: str, index: tuple) -> tuple:
    """The NCHW (or OIHW) index of element `index` of a tensor in `layout`; works on
    ints and on tensor-expression indices alike."""
    if layout in ("NCHW", "OIHW"):
        return tuple(index)
    if layout.startswith("OIHW"):
        in_block, out_block = kernel_blocks(layout)
        ob, ib, h, w, i, o = index
        return (ob * out_block + o, ib * in_block + i, h, w)
    n, cb, h, w, c = index
    return (n, cb * data_block(layout) + c, h, w)


def physical_index(layout: str, index: tuple) -> tuple:
    """Where NCHW (or OIHW) element `index` sits in a tensor in `layout` (the inverse
    of `logical_index`)."""
    if layout in ("NCHW", "OIHW"):
        return tuple(index)
    if layout.startswith("OIHW"):
        in_block, out_block = kernel_blocks(layout)
        o, i, h, w = index
        return (o // out_block, i // in_block, h, w, i % in_block, o % out_block)
    block = data_block(layout)
    n, c, h, w = index
    return (n, c // block, h, w, c % block)
