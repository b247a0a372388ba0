"""Typed builder methods of the graph ops, generated from their declarations by
`python -m mlc.graph.op_methods_gen`; do not edit. `GraphBuilder` inherits them."""

# ruff: noqa: E501
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mlc.ir import Attribute, Location, Type, Value


def _given(**attrs: Any) -> dict[str, Any]:
    """The attributes given a value (None: the op's default)."""
    return {key: value for key, value in attrs.items() if value is not None}


class GraphOpMethods:
    """One method per graph op: `b.conv2d(x, w, strides=(2, 2))` appends
    `graph.conv2d` and returns its result (a list for ops with variadic results).
    `name` names the result (and locates the op), `loc` locates it."""

    def op(self, short_name: str, *operands: Value | Sequence[Value], name: str | None = None,
           loc: Location | None = None, **attrs: Any) -> Value | list[Value]:
        raise NotImplementedError

    def abs(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise absolute value."""
        return self.op('abs', x, name=name, loc=loc)  # type: ignore[return-value]

    def acos(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise arccosine."""
        return self.op('acos', x, name=name, loc=loc)  # type: ignore[return-value]

    def acosh(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise inverse hyperbolic cosine."""
        return self.op('acosh', x, name=name, loc=loc)  # type: ignore[return-value]

    def add(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise sum, broadcasting."""
        return self.op('add', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def argmax(self, x: Value, *, axis: int | None = None, keepdims: bool | None = None, select_last_index: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Index of the largest element along `axis`, as i64 (ONNX ArgMax)."""
        return self.op('argmax', x, name=name, loc=loc, **_given(axis=axis, keepdims=keepdims, select_last_index=select_last_index))  # type: ignore[return-value]

    def argmin(self, x: Value, *, axis: int | None = None, keepdims: bool | None = None, select_last_index: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Index of the smallest element along `axis`, as i64 (ONNX ArgMin)."""
        return self.op('argmin', x, name=name, loc=loc, **_given(axis=axis, keepdims=keepdims, select_last_index=select_last_index))  # type: ignore[return-value]

    def asin(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise arcsine."""
        return self.op('asin', x, name=name, loc=loc)  # type: ignore[return-value]

    def asinh(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise inverse hyperbolic sine."""
        return self.op('asinh', x, name=name, loc=loc)  # type: ignore[return-value]

    def atan(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise arctangent."""
        return self.op('atan', x, name=name, loc=loc)  # type: ignore[return-value]

    def atanh(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise inverse hyperbolic tangent."""
        return self.op('atanh', x, name=name, loc=loc)  # type: ignore[return-value]

    def avg_pool2d(self, x: Value, *, pool_size: Any, strides: Any | None = None, padding: Any | None = None, dilation: Any | None = None, ceil_mode: Any | None = None, layout: Any | None = None, count_include_pad: Any | None = None, name: str | None = None, loc: Location | None = None, **spellings: Any) -> Value:
        """Mean over each window of NCHW data."""
        return self.op('avg_pool2d', x, name=name, loc=loc, **_given(pool_size=pool_size, strides=strides, padding=padding, dilation=dilation, ceil_mode=ceil_mode, layout=layout, count_include_pad=count_include_pad, **spellings))  # type: ignore[return-value]

    def batch_matmul(self, lhs: Value, rhs: Value, *, transpose_a: bool | None = None, transpose_b: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Batched matrix product of rank-3 tensors: (B, M, K) x (B, K, N) -> (B, M, N)."""
        return self.op('batch_matmul', lhs, rhs, name=name, loc=loc, **_given(transpose_a=transpose_a, transpose_b=transpose_b))  # type: ignore[return-value]

    def batch_norm(self, data: Value, gamma: Value, beta: Value, moving_mean: Value, moving_var: Value, *, axis: int | None = None, epsilon: float | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Batch normalisation at inference, with the running statistics:"""
        return self.op('batch_norm', data, gamma, beta, moving_mean, moving_var, name=name, loc=loc, **_given(axis=axis, epsilon=epsilon))  # type: ignore[return-value]

    def bias_add(self, data: Value, bias: Value, *, axis: int | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Adds a 1-D `bias` along `axis` of `data`."""
        return self.op('bias_add', data, bias, name=name, loc=loc, **_given(axis=axis))  # type: ignore[return-value]

    def bitcast(self, x: Value, *, dtype: Type, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise reinterpretation of each element's bits as another element type of the same width (ONNX BitCast, arith.bitcast): f32 1.0 is i32 1065353216."""
        return self.op('bitcast', x, name=name, loc=loc, **_given(dtype=dtype))  # type: ignore[return-value]

    def bitwise_and(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise bitwise and, broadcasting (ONNX BitwiseAnd)."""
        return self.op('bitwise_and', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def bitwise_not(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise bitwise complement (ONNX BitwiseNot): every bit flipped."""
        return self.op('bitwise_not', x, name=name, loc=loc)  # type: ignore[return-value]

    def bitwise_or(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise bitwise or, broadcasting (ONNX BitwiseOr)."""
        return self.op('bitwise_or', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def bitwise_xor(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise bitwise exclusive or, broadcasting (ONNX BitwiseXor)."""
        return self.op('bitwise_xor', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def broadcast_to(self, x: Value, *, shape: Sequence[int], name: str | None = None, loc: Location | None = None) -> Value:
        """Broadcasts to `shape` by numpy's rules."""
        return self.op('broadcast_to', x, name=name, loc=loc, **_given(shape=shape))  # type: ignore[return-value]

    def cast(self, x: Value, *, dtype: Type, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise conversion to another element type."""
        return self.op('cast', x, name=name, loc=loc, **_given(dtype=dtype))  # type: ignore[return-value]

    def ceil(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise round up."""
        return self.op('ceil', x, name=name, loc=loc)  # type: ignore[return-value]

    def celu(self, x: Value, *, alpha: float | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise CELU: max(0, x) + min(0, alpha·(e^(x/alpha) - 1)) (ONNX Celu)."""
        return self.op('celu', x, name=name, loc=loc, **_given(alpha=alpha))  # type: ignore[return-value]

    def clip(self, x: Value, *, min: float, max: float, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise clamp to [min, max] (relu6 is clip 0..6): min(max(x, min), max)."""
        return self.op('clip', x, name=name, loc=loc, **_given(min=min, max=max))  # type: ignore[return-value]

    def concat(self, inputs: Sequence[Value], *, axis: int | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Joins tensors along `axis`."""
        return self.op('concat', inputs, name=name, loc=loc, **_given(axis=axis))  # type: ignore[return-value]

    def constant(self, *, value: Attribute, name: str | None = None, loc: Location | None = None) -> Value:
        """A constant tensor."""
        return self.op('constant', name=name, loc=loc, **_given(value=value))  # type: ignore[return-value]

    def conv2d(self, data: Value, weight: Value, *, strides: Any | None = None, padding: Any | None = None, dilation: Any | None = None, groups: Any | None = None, data_layout: Any | None = None, kernel_layout: Any | None = None, name: str | None = None, loc: Location | None = None, **spellings: Any) -> Value:
        """2-D convolution (cross-correlation, as Relay's `nn.conv2d`)."""
        return self.op('conv2d', data, weight, name=name, loc=loc, **_given(strides=strides, padding=padding, dilation=dilation, groups=groups, data_layout=data_layout, kernel_layout=kernel_layout, **spellings))  # type: ignore[return-value]

    def cos(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise cosine."""
        return self.op('cos', x, name=name, loc=loc)  # type: ignore[return-value]

    def cosh(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise hyperbolic cosine."""
        return self.op('cosh', x, name=name, loc=loc)  # type: ignore[return-value]

    def cumprod(self, x: Value, *, axis: int | None = None, exclusive: bool | None = None, reverse: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Running product along `axis` (ONNX CumProd)."""
        return self.op('cumprod', x, name=name, loc=loc, **_given(axis=axis, exclusive=exclusive, reverse=reverse))  # type: ignore[return-value]

    def cumsum(self, x: Value, *, axis: int | None = None, exclusive: bool | None = None, reverse: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Running sum along `axis` (ONNX CumSum)."""
        return self.op('cumsum', x, name=name, loc=loc, **_given(axis=axis, exclusive=exclusive, reverse=reverse))  # type: ignore[return-value]

    def dense(self, data: Value, weight: Value, *, weight_layout: str | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Fully connected layer x·Wᵀ: data (..., K), weight (N, K) -> (..., N)."""
        return self.op('dense', data, weight, name=name, loc=loc, **_given(weight_layout=weight_layout))  # type: ignore[return-value]

    def divide(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise quotient, broadcasting."""
        return self.op('divide', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def dropout(self, x: Value, *, rate: float | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Dropout; the identity at inference (graph-simplify-inference removes it)."""
        return self.op('dropout', x, name=name, loc=loc, **_given(rate=rate))  # type: ignore[return-value]

    def elu(self, x: Value, *, alpha: float | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise ELU: x if x > 0 else alpha·(e^x - 1) (ONNX Elu)."""
        return self.op('elu', x, name=name, loc=loc, **_given(alpha=alpha))  # type: ignore[return-value]

    def equal(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise lhs == rhs, broadcasting; i1 results."""
        return self.op('equal', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def erf(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise error function."""
        return self.op('erf', x, name=name, loc=loc)  # type: ignore[return-value]

    def exp(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise e^x."""
        return self.op('exp', x, name=name, loc=loc)  # type: ignore[return-value]

    def expand_dims(self, x: Value, *, axis: int, num_newaxis: int | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Inserts `num_newaxis` axes of extent 1 at `axis` (Relay's expand_dims)."""
        return self.op('expand_dims', x, name=name, loc=loc, **_given(axis=axis, num_newaxis=num_newaxis))  # type: ignore[return-value]

    def flatten(self, x: Value, *, axis: int | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Collapses to 2-D as ONNX Flatten does: (prod(shape[:axis]), prod(shape[axis:]))."""
        return self.op('flatten', x, name=name, loc=loc, **_given(axis=axis))  # type: ignore[return-value]

    def floor(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise round down."""
        return self.op('floor', x, name=name, loc=loc)  # type: ignore[return-value]

    def gather(self, data: Value, indices: Value, *, axis: int | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Takes the slices of `data` along `axis` that `indices` names (numpy's take)."""
        return self.op('gather', data, indices, name=name, loc=loc, **_given(axis=axis))  # type: ignore[return-value]

    def gather_elements(self, data: Value, indices: Value, *, axis: int | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Takes one element of `data` per element of `indices`, which names its position along `axis` (ONNX GatherElements, PyTorch's gather, numpy's take_along_axis)."""
        return self.op('gather_elements', data, indices, name=name, loc=loc, **_given(axis=axis))  # type: ignore[return-value]

    def gather_nd(self, data: Value, indices: Value, *, batch_dims: int | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Gathers slices of `data` addressed by the last axis of `indices` (ONNX GatherND)."""
        return self.op('gather_nd', data, indices, name=name, loc=loc, **_given(batch_dims=batch_dims))  # type: ignore[return-value]

    def gelu(self, x: Value, *, approximate: str | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise GELU (ONNX Gelu): the exact form x·Φ(x) = x/2·(1 + erf(x/√2)), or with `approximate = "tanh"` x/2·(1 + tanh(√(2/π)·(x + 0.044715·x³)))."""
        return self.op('gelu', x, name=name, loc=loc, **_given(approximate=approximate))  # type: ignore[return-value]

    def global_avg_pool2d(self, x: Value, *, layout: str | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Mean of each channel over H and W."""
        return self.op('global_avg_pool2d', x, name=name, loc=loc, **_given(layout=layout))  # type: ignore[return-value]

    def global_max_pool2d(self, x: Value, *, layout: str | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Maximum of each channel over H and W."""
        return self.op('global_max_pool2d', x, name=name, loc=loc, **_given(layout=layout))  # type: ignore[return-value]

    def greater(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise lhs > rhs, broadcasting; i1 results."""
        return self.op('greater', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def greater_equal(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise lhs >= rhs, broadcasting; i1 results."""
        return self.op('greater_equal', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def hard_sigmoid(self, x: Value, *, alpha: float | None = None, beta: float | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise max(0, min(1, alpha·x + beta)) (ONNX HardSigmoid)."""
        return self.op('hard_sigmoid', x, name=name, loc=loc, **_given(alpha=alpha, beta=beta))  # type: ignore[return-value]

    def hard_swish(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise x·max(0, min(1, x/6 + 1/2)) (ONNX HardSwish)."""
        return self.op('hard_swish', x, name=name, loc=loc)  # type: ignore[return-value]

    def isinf(self, x: Value, *, detect_positive: bool | None = None, detect_negative: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise x is +inf or -inf, as i1 (ONNX IsInf); `detect_positive` and `detect_negative` choose which."""
        return self.op('isinf', x, name=name, loc=loc, **_given(detect_positive=detect_positive, detect_negative=detect_negative))  # type: ignore[return-value]

    def isnan(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise x is NaN, as i1 (ONNX IsNaN)."""
        return self.op('isnan', x, name=name, loc=loc)  # type: ignore[return-value]

    def layer_norm(self, data: Value, gamma: Value, beta: Value, *, axis: int | None = None, epsilon: float | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Layer normalisation (ONNX LayerNormalization): every slice over the axes from `axis` to the last is normalised by its own mean and (population) variance,"""
        return self.op('layer_norm', data, gamma, beta, name=name, loc=loc, **_given(axis=axis, epsilon=epsilon))  # type: ignore[return-value]

    def layout_transform(self, x: Value, *, src_layout: str, dst_layout: str, name: str | None = None, loc: Location | None = None) -> Value:
        """Re-lays a tensor from one layout to another."""
        return self.op('layout_transform', x, name=name, loc=loc, **_given(src_layout=src_layout, dst_layout=dst_layout))  # type: ignore[return-value]

    def leaky_relu(self, x: Value, *, alpha: float | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise x if x > 0 else alpha·x."""
        return self.op('leaky_relu', x, name=name, loc=loc, **_given(alpha=alpha))  # type: ignore[return-value]

    def left_shift(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise lhs << rhs, broadcasting (ONNX BitShift LEFT)."""
        return self.op('left_shift', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def less(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise lhs < rhs, broadcasting; i1 results."""
        return self.op('less', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def less_equal(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise lhs <= rhs, broadcasting; i1 results."""
        return self.op('less_equal', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def log(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise natural logarithm."""
        return self.op('log', x, name=name, loc=loc)  # type: ignore[return-value]

    def log_softmax(self, x: Value, *, axis: int | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """x - log(sum(exp(x))) along `axis`."""
        return self.op('log_softmax', x, name=name, loc=loc, **_given(axis=axis))  # type: ignore[return-value]

    def logical_and(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise boolean and, broadcasting."""
        return self.op('logical_and', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def logical_not(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise boolean negation."""
        return self.op('logical_not', x, name=name, loc=loc)  # type: ignore[return-value]

    def logical_or(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise boolean or, broadcasting."""
        return self.op('logical_or', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def logical_xor(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise boolean exclusive or, broadcasting."""
        return self.op('logical_xor', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def matmul(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Matrix product with numpy's rules (ONNX MatMul)."""
        return self.op('matmul', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def max(self, x: Value, *, axes: Sequence[int] | None = None, keepdims: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Maximum over `axes`."""
        return self.op('max', x, name=name, loc=loc, **_given(axes=axes, keepdims=keepdims))  # type: ignore[return-value]

    def max_pool2d(self, x: Value, *, pool_size: Any, strides: Any | None = None, padding: Any | None = None, dilation: Any | None = None, ceil_mode: Any | None = None, layout: Any | None = None, name: str | None = None, loc: Location | None = None, **spellings: Any) -> Value:
        """Maximum over each window of NCHW data."""
        return self.op('max_pool2d', x, name=name, loc=loc, **_given(pool_size=pool_size, strides=strides, padding=padding, dilation=dilation, ceil_mode=ceil_mode, layout=layout, **spellings))  # type: ignore[return-value]

    def maximum(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise maximum, broadcasting."""
        return self.op('maximum', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def mean(self, x: Value, *, axes: Sequence[int] | None = None, keepdims: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Arithmetic mean over `axes`."""
        return self.op('mean', x, name=name, loc=loc, **_given(axes=axes, keepdims=keepdims))  # type: ignore[return-value]

    def min(self, x: Value, *, axes: Sequence[int] | None = None, keepdims: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Minimum over `axes`."""
        return self.op('min', x, name=name, loc=loc, **_given(axes=axes, keepdims=keepdims))  # type: ignore[return-value]

    def minimum(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise minimum, broadcasting."""
        return self.op('minimum', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def mish(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise mish x·tanh(softplus(x))."""
        return self.op('mish', x, name=name, loc=loc)  # type: ignore[return-value]

    def mod(self, lhs: Value, rhs: Value, *, fmod: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise remainder, broadcasting (ONNX Mod)."""
        return self.op('mod', lhs, rhs, name=name, loc=loc, **_given(fmod=fmod))  # type: ignore[return-value]

    def multiply(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise product, broadcasting."""
        return self.op('multiply', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def neg(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise negation."""
        return self.op('neg', x, name=name, loc=loc)  # type: ignore[return-value]

    def not_equal(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise lhs != rhs, broadcasting; i1 results."""
        return self.op('not_equal', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def one_hot(self, indices: Value, *, depth: Any, on_value: Any, off_value: Any, axis: Any | None = None, name: str | None = None, loc: Location | None = None, **spellings: Any) -> Value:
        """`on_value` where the position along the new axis `axis` equals the index, `off_value` elsewhere (ONNX OneHot, Relay's one_hot): the result has the shape of `indices` with an axis of extent `depth` inserted at `axis`."""
        return self.op('one_hot', indices, name=name, loc=loc, **_given(depth=depth, axis=axis, on_value=on_value, off_value=off_value, **spellings))  # type: ignore[return-value]

    def pad(self, x: Value, *, pads: Sequence[int], value: float | None = None, mode: str | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Pads each axis (ONNX Pad): with a constant `value`, or with the operand's own elements by `mode`: `reflect` mirrors them about the edge element (which is not repeated), `edge` repeats the edge element, `wrap` continues from the other end."""
        return self.op('pad', x, name=name, loc=loc, **_given(pads=pads, value=value, mode=mode))  # type: ignore[return-value]

    def power(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise lhs^rhs, broadcasting."""
        return self.op('power', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def prelu(self, x: Value, slope: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise x if x > 0 else slope·x, `slope` broadcast to `x` (ONNX PRelu)."""
        return self.op('prelu', x, slope, name=name, loc=loc)  # type: ignore[return-value]

    def prod(self, x: Value, *, axes: Sequence[int] | None = None, keepdims: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Product over `axes`."""
        return self.op('prod', x, name=name, loc=loc, **_given(axes=axes, keepdims=keepdims))  # type: ignore[return-value]

    def range(self, *, start: Any, limit: Any, delta: Any, name: str | None = None, loc: Location | None = None, **spellings: Any) -> Value:
        """The numbers start, start + delta, start + 2·delta, ... up to but excluding `limit` (ONNX Range, numpy's arange)."""
        return self.op('range', name=name, loc=loc, **_given(start=start, limit=limit, delta=delta, **spellings))  # type: ignore[return-value]

    def reciprocal(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise 1/x."""
        return self.op('reciprocal', x, name=name, loc=loc)  # type: ignore[return-value]

    def relu(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise max(x, 0)."""
        return self.op('relu', x, name=name, loc=loc)  # type: ignore[return-value]

    def reshape(self, x: Value, *, shape: Sequence[int], allowzero: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Same elements, new shape; `shape` may hold one -1 (inferred) and 0s (copied from the operand's shape, or with `allowzero` extents of 0, as ONNX Reshape)."""
        return self.op('reshape', x, name=name, loc=loc, **_given(shape=shape, allowzero=allowzero))  # type: ignore[return-value]

    def right_shift(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise lhs >> rhs, broadcasting (ONNX BitShift RIGHT)."""
        return self.op('right_shift', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def round(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise round to nearest, ties to even (as ONNX)."""
        return self.op('round', x, name=name, loc=loc)  # type: ignore[return-value]

    def rsqrt(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise 1/sqrt(x)."""
        return self.op('rsqrt', x, name=name, loc=loc)  # type: ignore[return-value]

    def scatter_elements(self, data: Value, indices: Value, updates: Value, *, reduction: str | None = None, axis: int | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Writes each element of `updates` into a copy of `data` at the position `indices` holds for it along `axis` (ONNX ScatterElements, the inverse of gather_elements): for axis 0, out[indices[i][j]][j] = updates[i][j]."""
        return self.op('scatter_elements', data, indices, updates, name=name, loc=loc, **_given(reduction=reduction, axis=axis))  # type: ignore[return-value]

    def scatter_nd(self, data: Value, indices: Value, updates: Value, *, reduction: str | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Writes slices of `updates` into a copy of `data` at the index tuples of the last axis of `indices` (ONNX ScatterND, the inverse of gather_nd)."""
        return self.op('scatter_nd', data, indices, updates, name=name, loc=loc, **_given(reduction=reduction))  # type: ignore[return-value]

    def selu(self, x: Value, *, alpha: float | None = None, gamma: float | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise SELU: gamma·x if x > 0 else gamma·alpha·(e^x - 1) (ONNX Selu)."""
        return self.op('selu', x, name=name, loc=loc, **_given(alpha=alpha, gamma=gamma))  # type: ignore[return-value]

    def shrink(self, x: Value, *, lambd: float | None = None, bias: float | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise x + bias if x < -lambd, x - bias if x > lambd, else 0 (ONNX Shrink; the soft shrinkage for bias = lambd, the hard one for bias = 0)."""
        return self.op('shrink', x, name=name, loc=loc, **_given(lambd=lambd, bias=bias))  # type: ignore[return-value]

    def sigmoid(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise logistic 1/(1+e^-x)."""
        return self.op('sigmoid', x, name=name, loc=loc)  # type: ignore[return-value]

    def sign(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise sign: -1, 0 or 1."""
        return self.op('sign', x, name=name, loc=loc)  # type: ignore[return-value]

    def sin(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise sine."""
        return self.op('sin', x, name=name, loc=loc)  # type: ignore[return-value]

    def sinh(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise hyperbolic sine."""
        return self.op('sinh', x, name=name, loc=loc)  # type: ignore[return-value]

    def slice(self, x: Value, *, starts: Sequence[int], ends: Sequence[int], axes: Sequence[int] | None = None, steps: Sequence[int] | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """A strided slice with ONNX Slice's semantics."""
        return self.op('slice', x, name=name, loc=loc, **_given(starts=starts, ends=ends, axes=axes, steps=steps))  # type: ignore[return-value]

    def softmax(self, x: Value, *, axis: int | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """exp(x) / sum(exp(x)) along `axis`."""
        return self.op('softmax', x, name=name, loc=loc, **_given(axis=axis))  # type: ignore[return-value]

    def softplus(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise softplus log(1 + e^x)."""
        return self.op('softplus', x, name=name, loc=loc)  # type: ignore[return-value]

    def softsign(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise x/(1 + |x|)."""
        return self.op('softsign', x, name=name, loc=loc)  # type: ignore[return-value]

    def split(self, x: Value, *, sections: Any, axis: Any | None = None, name: str | None = None, loc: Location | None = None, **spellings: Any) -> list[Value]:
        """Cuts a tensor along `axis` into pieces, one result per piece."""
        return self.op('split', x, name=name, loc=loc, **_given(sections=sections, axis=axis, **spellings))  # type: ignore[return-value]

    def sqrt(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise square root."""
        return self.op('sqrt', x, name=name, loc=loc)  # type: ignore[return-value]

    def squeeze(self, x: Value, *, axes: Sequence[int] | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Removes axes of extent 1: those in `axes`, or every one when `axes` is empty."""
        return self.op('squeeze', x, name=name, loc=loc, **_given(axes=axes))  # type: ignore[return-value]

    def subtract(self, lhs: Value, rhs: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise difference, broadcasting."""
        return self.op('subtract', lhs, rhs, name=name, loc=loc)  # type: ignore[return-value]

    def sum(self, x: Value, *, axes: Sequence[int] | None = None, keepdims: bool | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Sum over `axes`."""
        return self.op('sum', x, name=name, loc=loc, **_given(axes=axes, keepdims=keepdims))  # type: ignore[return-value]

    def swish(self, x: Value, *, alpha: float | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise swish x·sigmoid(alpha·x) (ONNX Swish; SiLU for alpha 1)."""
        return self.op('swish', x, name=name, loc=loc, **_given(alpha=alpha))  # type: ignore[return-value]

    def tan(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise tangent."""
        return self.op('tan', x, name=name, loc=loc)  # type: ignore[return-value]

    def tanh(self, x: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise hyperbolic tangent."""
        return self.op('tanh', x, name=name, loc=loc)  # type: ignore[return-value]

    def thresholded_relu(self, x: Value, *, alpha: float | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise x if x > alpha else 0 (ONNX ThresholdedRelu)."""
        return self.op('thresholded_relu', x, name=name, loc=loc, **_given(alpha=alpha))  # type: ignore[return-value]

    def tile(self, x: Value, *, repeats: Sequence[int], name: str | None = None, loc: Location | None = None) -> Value:
        """Repeats the tensor `repeats[i]` times along axis i."""
        return self.op('tile', x, name=name, loc=loc, **_given(repeats=repeats))  # type: ignore[return-value]

    def top_k(self, x: Value, *, k: int, axis: int | None = None, largest: bool | None = None, name: str | None = None, loc: Location | None = None) -> list[Value]:
        """The `k` largest (or with `largest = false` smallest) elements along `axis`, in order, and their indices as i64 (ONNX TopK)."""
        return self.op('top_k', x, name=name, loc=loc, **_given(k=k, axis=axis, largest=largest))  # type: ignore[return-value]

    def transpose(self, x: Value, *, axes: Sequence[int] | None = None, name: str | None = None, loc: Location | None = None) -> Value:
        """Permutes the axes: result axis i is operand axis `axes[i]`."""
        return self.op('transpose', x, name=name, loc=loc, **_given(axes=axes))  # type: ignore[return-value]

    def where(self, condition: Value, x: Value, y: Value, *, name: str | None = None, loc: Location | None = None) -> Value:
        """Elementwise select: `x` where `condition` holds, else `y`; all three broadcast."""
        return self.op('where', condition, x, y, name=name, loc=loc)  # type: ignore[return-value]
