"""ONNX signal processing: DFT, STFT and MelWeightMatrix.

A discrete Fourier transform along one axis is a matrix product: the axis is moved
last and multiplied by constant [input length, output length] matrices of cosines and
sines (the real and imaginary parts of the input each by two), which also truncate or
zero-pad the input to the transform's length (rows past it are zero; missing rows
add nothing). One-sided transforms keep the first n // 2 + 1 frequencies; the
one-sided inverse (irfft) weighs each kept frequency but the first (and the Nyquist
one) twice, the conjugate half it stands for. Complex values are ONNX's trailing axis
of 2 (real, imaginary); a trailing axis of 1 is real.
"""

from __future__ import annotations

import numpy as np

from mlc.ir import Value, element_dtype
from mlc.onnx.node import Node
from mlc.onnx.registry import converter
from mlc.onnx.types import numpy_dtype


@converter("DFT", 20)
def dft(node: Node) -> Value:
    axis = node.optional_constant(2)
    return _dft_node(node, -2 if axis is None else int(axis.reshape(-1)[0]))


@converter("DFT", 17)
def dft_17(node: Node) -> Value:
    return _dft_node(node, node.attr("axis", 1))


def _dft_node(node: Node, axis: int) -> Value:
    x = node.input(0)
    rank = len(x.type.shape)
    node.check(x.type.shape and x.type.shape[-1] in (1, 2),
               f"the input's last axis must be 1 (real) or 2 (complex), got shape {list(x.type.shape)}")
    node.check(-rank <= axis < rank and axis % rank != rank - 1,
               f"axis {axis} is not a signal axis of rank {rank} (the last holds the complex parts)")
    inverse, onesided = bool(node.attr("inverse", 0)), bool(node.attr("onesided", 0))
    length = node.optional_constant(1)
    extent = x.type.shape[axis % rank]
    if length is not None:
        length = int(length.reshape(-1)[0])
    elif inverse and onesided:
        length = 2 * (extent - 1)
    else:
        length = extent
    node.check(length > 0, f"dft_length {length} is not positive")
    node.check(not (onesided and not inverse and x.type.shape[-1] == 2),
               "a one-sided transform of a complex input")
    return transform(node, x, axis % rank, length, inverse=inverse, onesided=onesided)


def transform(node: Node, x: Value, axis: int, length: int, inverse: bool,
              onesided: bool) -> Value:
    """The DFT of `x` (ONNX's layout, trailing axis of 1 or 2) along `axis` with
    `length` points: forward, or inverse (divided by `length`); one-sided as ONNX's
    DFT means it (forward: the first length // 2 + 1 frequencies; inverse: from those,
    a real signal)."""
    b = node.b
    shape = x.type.shape
    rank = len(shape)
    dtype = element_dtype(x.type.element_type)
    moved = list(range(rank - 1))
    moved.remove(axis)
    moved.append(axis)
    parts = [b.transpose(b.squeeze(b.slice(x, starts=[i], ends=[i + 1], axes=[rank - 1],
                                           steps=[1]), axes=[rank - 1]), axes=moved)
             for i in range(shape[-1])]
    real_out, imaginary_out = _matrices(shape[axis], length, inverse, onesided)
    outputs = []
    for matrices in (real_out, imaginary_out) if not (inverse and onesided) else (real_out,):
        terms = [b.matmul(part, b.const(matrix.astype(dtype)))
                 for part, matrix in zip(parts, matrices)]
        total = terms[0] if len(terms) == 1 else b.add(terms[0], terms[1])
        back = np.argsort(moved).tolist()
        outputs.append(b.expand_dims(b.transpose(total, axes=back), axis=rank - 1))
    return outputs[0] if len(outputs) == 1 else b.concat(outputs, axis=rank - 1)


def _matrices(extent: int, length: int, inverse: bool,
              onesided: bool) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """([from real, from imaginary] to the real part, the same to the imaginary part):
    [extent, outputs] matrices in float64."""
    inputs = length // 2 + 1 if inverse and onesided else length
    outputs = length // 2 + 1 if onesided and not inverse else length
    n = np.arange(extent).reshape(-1, 1)
    k = np.arange(outputs).reshape(1, -1)
    # The angle's multiple reduced mod length first: exact integers, accurate sines.
    angle = 2 * np.pi * ((n * k) % length) / length
    cos, sin = np.cos(angle), np.sin(angle)
    used = (n < inputs).astype(np.float64)  # rows past the transform's input: truncated
    if not inverse:
        return [cos * used, sin * used], [-sin * used, cos * used]
    scale = used / length
    if onesided:
        # Bins 1 .. (length - 1) // 2 stand for their conjugates too.
        scale = scale * np.where((n > 0) & (2 * n < length), 2.0, 1.0)
    return [cos * scale, -sin * scale], [sin * scale, cos * scale]


@converter("STFT", 17)
def stft(node: Node) -> Value:
    """Frames of frame_length samples every frame_step, each times the window, each
    transformed (one-sided by default): [batch, frames, frequencies, 2]."""
    b, signal = node.b, node.input(0)
    batch, samples, parts = signal.type.shape
    step = int(node.constant(1).reshape(-1)[0])
    window = node.optional_input(2)
    frame_length = node.optional_constant(3)
    if frame_length is not None:
        frame_length = int(frame_length.reshape(-1)[0])
    elif window is not None:
        frame_length = window.type.shape[0]
    else:
        frame_length = samples
    node.check(step > 0 and 0 < frame_length <= samples,
               f"frame_step {step} and frame_length {frame_length} do not frame {samples} samples")
    onesided = bool(node.attr("onesided", 1))
    node.check(not (onesided and parts == 2), "a one-sided transform of a complex signal")
    frames = (samples - frame_length) // step + 1
    starts = np.arange(frames).reshape(-1, 1) * step + np.arange(frame_length)
    framed = b.gather(signal, b.const(starts.astype(np.int64)), axis=1)  # [b, f, l, parts]
    if window is not None:
        framed = b.multiply(framed, b.reshape(window, shape=[frame_length, 1]))
    return transform(node, framed, 2, frame_length, inverse=False, onesided=onesided)


@converter("MelWeightMatrix", 17)
def mel_weight_matrix(node: Node) -> Value:
    """[dft_length // 2 + 1, num_mel_bins] triangular filters, one per mel bin, over
    the spectrogram's bins: a constant, its shape set by the inputs' values (known at
    import). The filters' corners are num_mel_bins + 2 points a step of
    (mel(upper) - mel(lower)) / (num_mel_bins + 2) apart from mel(lower), in the
    bins of a (dft_length + 1)-point spectrum, as ONNX's reference places them."""
    mel_bins, dft_length, sample_rate = (int(node.constant(i).reshape(-1)[0]) for i in range(3))
    lower, upper = (float(node.constant(i).reshape(-1)[0]) for i in (3, 4))
    node.check(mel_bins > 0 and dft_length > 0 and sample_rate > 0,
               "num_mel_bins, dft_length and sample_rate must be positive")

    def mel(hertz: float) -> float:
        return 2595 * np.log1p(hertz / 700) / np.log(10)

    step = (mel(upper) - mel(lower)) / (mel_bins + 2)
    hertz = 700 * np.expm1((np.arange(mel_bins + 2) * step + mel(lower)) / 2595 * np.log(10))
    corners = (((dft_length + 1) * hertz) // sample_rate).astype(np.int64)
    bins = np.arange(dft_length // 2 + 1).reshape(-1, 1)
    left, center, right = corners[:-2], corners[1:-1], corners[2:]
    rising = np.where((bins >= left) & (bins <= center),
                      (bins - left) / np.maximum(center - left, 1), 0.0)
    rising = np.where((center == left) & (bins == center), 1.0, rising)
    falling = np.where((bins >= center) & (bins < right),
                       (right - bins) / np.maximum(right - center, 1), 0.0)
    weights = np.where((bins >= center) & (bins < right), falling, rising)
    return node.b.const(weights.astype(numpy_dtype(node.attr("output_datatype", 1))))
