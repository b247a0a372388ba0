"""ONNX DFT and STFT against numpy.fft on random signals: forward and inverse, one-
sided both ways (rfft, irfft), real and complex inputs, a dft_length that truncates
or zero-pads, any signal axis; interpreted, and natively for a few."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper

from mlc.onnx.backend import MlcBackend, native_available


def _dft_model(shape, out_shape, length, **attributes):
    graph = helper.make_graph(
        [helper.make_node("DFT", ["x", "length"], ["y"], **attributes)], "dft",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)],
        [helper.make_tensor("length", TensorProto.INT64, [], [length])])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _numpy_dft(signal, length, axis, inverse, onesided):
    """ONNX's layout (trailing real, imaginary) of numpy's transform of `signal`."""
    if inverse and onesided:
        return np.fft.irfft(signal, n=length, axis=axis)[..., None]
    result = (np.fft.ifft if inverse else np.fft.fft)(signal, n=length, axis=axis)
    if onesided:
        result = np.take(result, np.arange(length // 2 + 1), axis=axis)
    return np.stack([result.real, result.imag], axis=-1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), extent=st.integers(1, 9), length=st.integers(1, 12),
       axis=st.sampled_from([0, 1]), inverse=st.booleans(), onesided=st.booleans(),
       complex_input=st.booleans())
def test_dft_matches_numpy_fft(seed, extent, length, axis, inverse, onesided, complex_input):
    if onesided and not inverse:
        complex_input = False  # ONNX's rfft takes real signals
    rng = np.random.default_rng(seed)
    shape = [extent, 3] if axis == 0 else [2, extent]
    parts = rng.standard_normal((*shape, 2 if complex_input or (inverse and onesided) else 1))
    x = parts.astype(np.float32)
    signal = parts[..., 0] + 1j * parts[..., 1] if parts.shape[-1] == 2 else parts[..., 0]
    expected = _numpy_dft(signal, length, axis, inverse, onesided)
    model = _dft_model(x.shape, expected.shape, length, axis=axis, inverse=int(inverse),
                       onesided=int(onesided))
    (got,) = MlcBackend.prepare(model).run([x])
    assert got.shape == expected.shape and got.dtype == np.float32
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("native", [False, True], ids=["interpreted", "native"])
def test_stft_with_a_window_matches_numpy(native):
    if native and not native_available():
        pytest.skip("native mode unavailable")
    rng = np.random.default_rng(0)
    signal = rng.standard_normal((2, 40, 1)).astype(np.float32)
    window = np.hanning(10).astype(np.float32)
    frames = (40 - 10) // 4 + 1
    graph = helper.make_graph(
        [helper.make_node("STFT", ["signal", "step", "window"], ["y"], onesided=1)], "stft",
        [helper.make_tensor_value_info("signal", TensorProto.FLOAT, signal.shape),
         helper.make_tensor_value_info("window", TensorProto.FLOAT, window.shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, frames, 6, 2])],
        [helper.make_tensor("step", TensorProto.INT64, [], [4])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    (got,) = MlcBackend.prepare(model, native=native).run([signal, window])
    framed = np.stack([signal[:, 4 * f:4 * f + 10, 0] * window for f in range(frames)], axis=1)
    spectrum = np.fft.rfft(framed, axis=-1)
    np.testing.assert_allclose(got, np.stack([spectrum.real, spectrum.imag], axis=-1),
                               rtol=1e-4, atol=1e-4)
