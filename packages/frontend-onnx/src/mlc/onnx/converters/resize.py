"""ONNX Resize (and Upsample, its predecessor) as gathers along each resized axis.

Resizing is separable: each axis is resized on its own. Along one axis every output
position reads a few input positions (taps) with weights that depend only on the
output position, so with the sizes known at import the taps and weights are constants:
nearest reads one tap (a gather, exact for every element type); linear and cubic,
with or without antialiasing, read n taps, summed with their weights. Positions are
mapped to the input by the coordinate transformation mode, and taps past an edge are
clamped to it (edge padding), as ONNX's definition of Resize says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mlc.ir import FloatType, Value, element_dtype
from mlc.onnx.node import Node
from mlc.onnx.registry import converter


@dataclass(frozen=True)
class ResizeMode:
    """The attributes of one Resize node that shape its taps and weights."""

    mode: str = "nearest"
    coordinates: str = "half_pixel"
    nearest: str = "round_prefer_floor"
    cubic_a: float = -0.75
    exclude_outside: bool = False
    extrapolation: float = 0.0
    antialias: bool = False


def source_positions(mode: ResizeMode, out_size: int, in_size: int, scale: float,
                     roi: tuple[float, float]) -> tuple[np.ndarray, np.ndarray | None]:
    """The input coordinate of each output position along one axis, and (for
    tf_crop_and_resize) which of them lie outside the input."""
    y = np.arange(out_size, dtype=np.float64)
    scaled = scale * in_size  # the output extent before rounding to an integer
    kind = mode.coordinates
    outside = None
    if kind == "align_corners":
        x = np.zeros(out_size) if scaled == 1 else y * (in_size - 1) / (scaled - 1)
    elif kind == "asymmetric":
        x = y / scale
    elif kind == "tf_crop_and_resize":
        start, end = roi
        if scaled == 1:
            x = np.full(out_size, (end - start) * (in_size - 1) / 2)
        else:
            x = y * (end - start) * (in_size - 1) / (scaled - 1)
        x = x + start * (in_size - 1)
        outside = (x < 0) | (x > in_size - 1)
    elif kind == "pytorch_half_pixel":
        x = np.full(out_size, -0.5) if scaled == 1 else (y + 0.5) / scale - 0.5
    elif kind == "half_pixel":
        x = (y + 0.5) / scale - 0.5
    elif kind == "half_pixel_symmetric":
        offset = in_size / 2 * (1 - out_size / scaled)
        x = offset + (y + 0.5) / scale - 0.5
    else:
        raise ValueError(f"coordinate_transformation_mode '{kind}' is not supported")
    return x, outside


def _cubic(distance: np.ndarray, a: float) -> np.ndarray:
    """Keys' cubic convolution kernel with parameter `a`, at |distance|."""
    d = np.abs(distance)
    near = ((a + 2) * d - (a + 3)) * d * d + 1
    far = ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
    return np.where(d <= 1, near, np.where(d < 2, far, 0.0))


def taps(mode: ResizeMode, x: np.ndarray, in_size: int, scale: float
         ) -> tuple[np.ndarray, np.ndarray]:
    """(indices, weights), each (out positions, n taps): the input positions each
    output position reads (clamped into the input) and their weights.

    The taps of position x start at base + first, where base = ceil(x) - 1 (the input
    position left of x, or the one before when x is an integer) and `first` depends on
    the kernel's width; `ratio` = x - base lies in (0, 1]."""
    base = np.ceil(x) - 1
    ratio = x - base
    if mode.mode == "nearest":
        if mode.nearest == "round_prefer_floor":
            right = ratio > 0.5
        elif mode.nearest == "round_prefer_ceil":
            right = ratio >= 0.5
        elif mode.nearest == "floor":
            right = ratio == 1
        elif mode.nearest == "ceil":
            right = np.ones_like(ratio, dtype=bool)
        else:
            raise ValueError(f"nearest_mode '{mode.nearest}' is not supported")
        chosen = base + right
        return np.clip(chosen, 0, in_size - 1).astype(np.int64)[:, None], np.ones((len(x), 1))
    shrink = min(scale, 1.0) if mode.antialias else 1.0
    reach = 1 if mode.mode == "linear" else 2  # the kernel's half-width at scale 1
    first = math.floor(-reach / shrink) + 1
    offsets = np.arange(first, 1 - first + 1)  # an even number of taps around x
    distance = (offsets[None, :] - ratio[:, None]) * shrink
    if mode.mode == "linear":
        weights = np.clip(1 - np.abs(distance), 0, 1)
    elif mode.mode == "cubic":
        weights = _cubic(distance, mode.cubic_a)
    else:
        raise ValueError(f"mode '{mode.mode}' is not supported")
    if mode.antialias:
        weights = weights / weights.sum(axis=1, keepdims=True)
    indices = base[:, None] + offsets[None, :]
    if mode.exclude_outside:
        weights = np.where((indices < 0) | (indices >= in_size), 0.0, weights)
        total = weights.sum(axis=1, keepdims=True)
        weights = weights / np.where(total == 0, 1.0, total)
    return np.clip(indices, 0, in_size - 1).astype(np.int64), weights


def resize_axis(node: Node, x: Value, axis: int, out_size: int, scale: float,
                roi: tuple[float, float], mode: ResizeMode) -> Value:
    """`x` resized along `axis` to `out_size` positions."""
    in_size = x.type.shape[axis]
    positions, outside = source_positions(mode, out_size, in_size, scale, roi)
    indices, weights = taps(mode, positions, in_size, scale)
    b = node.b
    if mode.mode == "nearest":
        result = b.gather(x, b.const(indices[:, 0]), axis=axis)
    else:
        element = x.type.element_type
        dtype = element_dtype(element)
        shape = [1] * len(x.type.shape)
        shape[axis] = out_size
        result = None
        for k in range(indices.shape[1]):
            if not weights[:, k].any():
                continue
            term = b.multiply(b.gather(x, b.const(indices[:, k]), axis=axis),
                              b.const(weights[:, k].astype(dtype).reshape(shape), dtype=element))
            result = term if result is None else b.add(result, term)
    if outside is not None and outside.any():
        shape = [1] * len(x.type.shape)
        shape[axis] = out_size
        fill = np.array(mode.extrapolation, element_dtype(x.type.element_type))
        result = b.where(b.const(outside.reshape(shape)), b.const(fill, dtype=x.type.element_type),
                         result)
    return result


def resize(node: Node, x: Value, sizes: list[int] | None, scales: list[float] | None,
           axes: list[int], roi: list[float] | None, mode: ResizeMode,
           aspect_policy: str = "stretch") -> Value:
    """`x` resized along `axes` to `sizes` (or by `scales`), as ONNX Resize."""
    shape = x.type.shape
    node.check(mode.mode == "nearest" or isinstance(x.type.element_type, FloatType),
               f"{mode.mode} resizing of {x.type.element_type} tensors is not supported")
    if sizes is not None:
        node.check(len(sizes) == len(axes), f"sizes has {len(sizes)} values for {len(axes)} axes")
        factors = [s / shape[a] if shape[a] else 1.0 for s, a in zip(sizes, axes)]
        if aspect_policy in ("not_larger", "not_smaller"):
            one = min(factors) if aspect_policy == "not_larger" else max(factors)
            factors = [one] * len(axes)
            sizes = [int(one * shape[a] + 0.5) for a in axes]
        else:
            node.check(aspect_policy == "stretch",
                       f"keep_aspect_ratio_policy '{aspect_policy}' is not supported")
    else:
        node.check(scales is not None and len(scales) == len(axes),
                   "Resize needs scales or sizes, one per resized axis")
        node.check(all(s > 0 for s in scales), f"scales {scales} must be positive")
        factors = list(scales)
        sizes = [int(s * shape[a]) for s, a in zip(scales, axes)]
    result = x
    for i, axis in enumerate(axes):
        window = (0.0, 1.0) if roi is None else (float(roi[i]), float(roi[len(axes) + i]))
        if sizes[i] == shape[axis] and math.isclose(factors[i], 1.0) and window == (0.0, 1.0):
            continue
        try:
            result = resize_axis(node, result, axis, sizes[i], factors[i], window, mode)
        except ValueError as exc:
            raise node.unsupported(str(exc)) from None
    return result


def _axes(node: Node, rank: int) -> list[int]:
    axes = node.attr("axes", None)
    if axes is None:
        return list(range(rank))
    normalized = [a + rank if a < 0 else a for a in axes]
    node.check(all(0 <= a < rank for a in normalized) and len(set(normalized)) == len(axes),
               f"axes {list(axes)} are not distinct axes of a rank-{rank} tensor")
    return normalized


def _nonempty(array: np.ndarray | None) -> np.ndarray | None:
    return None if array is None or array.size == 0 else array.reshape(-1)


@converter("Resize", 11)
def resize_11(node: Node) -> Value:
    x = node.input(0)
    rank = len(x.type.shape)
    roi = _nonempty(node.optional_constant(1))
    scales = _nonempty(node.optional_constant(2))
    sizes = _nonempty(node.optional_constant(3))
    axes = _axes(node, rank)
    coordinates = node.attr("coordinate_transformation_mode", "half_pixel")
    mode = ResizeMode(mode=node.attr("mode", "nearest"), coordinates=coordinates,
                      nearest=node.attr("nearest_mode", "round_prefer_floor"),
                      cubic_a=float(node.attr("cubic_coeff_a", -0.75)),
                      exclude_outside=bool(node.attr("exclude_outside", 0)),
                      extrapolation=float(node.attr("extrapolation_value", 0.0)),
                      antialias=bool(node.attr("antialias", 0)))
    node.check(not (mode.antialias and mode.mode == "nearest"),
               "antialias applies to linear and cubic modes only")
    if coordinates != "tf_crop_and_resize":
        roi = None
    else:
        node.check(roi is not None and len(roi) == 2 * len(axes),
                   "tf_crop_and_resize needs a roi of two values per resized axis")
    return resize(node, x, None if sizes is None else [int(s) for s in sizes],
                  None if scales is None else [float(s) for s in scales], axes,
                  None if roi is None else [float(r) for r in roi], mode,
                  node.attr("keep_aspect_ratio_policy", "stretch"))


def _scales_only(node: Node, scales: np.ndarray) -> Value:
    """Resize-10 and Upsample: scales for every axis, positions mapped asymmetrically
    (y / scale) and, for nearest, rounded down."""
    x = node.input(0)
    mode = node.attr("mode", "nearest")
    node.check(mode in ("nearest", "linear"), f"mode '{mode}' is not supported")
    return resize(node, x, None, [float(s) for s in scales.reshape(-1)],
                  list(range(len(x.type.shape))), None,
                  ResizeMode(mode=mode, coordinates="asymmetric", nearest="floor"))


@converter("Resize", 10)
def resize_10(node: Node) -> Value:
    return _scales_only(node, node.constant(1))


@converter("Upsample", 9)
def upsample_9(node: Node) -> Value:
    return _scales_only(node, node.constant(1))


@converter("Upsample", 7)
def upsample_7(node: Node) -> Value:
    return _scales_only(node, np.asarray(node.attr("scales"), np.float32))
