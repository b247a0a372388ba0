"""The default converters: torch functions, tensor methods, `nn` modules and the ATen
ops of `torch.export` into graph ops.

Each converter takes a :class:`~mlc.torch.node.Node` and returns what the node
computes: a graph value, a list of them (split, chunk), or a Python value (a size).
Functions, methods and ATen ops that share torch's signature share one converter
(`F.conv2d(input, weight, bias, stride, padding, dilation, groups)` is also
`aten.conv2d`'s); a module's converter reads its settings and tensors from the module.
`FUNCTION_MAP` keys call_function targets (a torch function, an `operator` function,
an ATen op packet such as `torch.ops.aten.conv2d`) and call_method names (`"view"`);
`MODULE_MAP` keys `nn.Module` classes.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Sequence

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from mlc.ir import FloatType, Value, element_dtype, f32
from mlc.torch import aten as aten_converters
from mlc.torch.node import Node

Converter = Callable[[Node], object]
aten = torch.ops.aten


def _rank(x: Value) -> int:
    return len(x.type.shape)


def _axis(node: Node, axis: int, rank: int) -> int:
    node.check(-rank <= axis < rank, f"dimension {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def _pair(node: Node, value, name: str) -> list[int]:
    """A 2-D window setting given as one int or two."""
    values = [value, value] if isinstance(value, int) else list(value)
    if len(values) == 1:
        values = values * 2
    node.check(len(values) == 2 and all(isinstance(v, int) for v in values),
               f"{name} must be one or two integers, got {value!r}")
    return values


# -- elementwise arithmetic: tensors with tensors or Python numbers; sizes in Python


def _binary(graph_op: str, python: Callable, scaled: bool = False) -> Converter:
    def convert(node: Node):
        lhs, rhs = node.arg(0, "input"), node.arg(1, "other")
        alpha = node.arg(2, "alpha", 1) if scaled else 1
        if not isinstance(lhs, Value) and not isinstance(rhs, Value):
            return python(lhs, rhs * alpha)  # arithmetic on sizes and numbers
        node.check(isinstance(lhs, (Value, int, float)) and isinstance(rhs, (Value, int, float)),
                   f"operands of {type(lhs).__name__} and {type(rhs).__name__} are not supported")
        if alpha != 1:
            rhs = rhs * alpha if not isinstance(rhs, Value) else \
                node.b.multiply(*aten_converters.promoted(node, rhs, alpha))
        # torch's promotion: a float number against an integer tensor makes it float.
        lhs, rhs = aten_converters.promoted(node, lhs, rhs)
        if graph_op == "divide" and not isinstance(lhs.type.element_type, FloatType):
            # True division of integers is float (torch's default dtype).
            lhs, rhs = node.b.cast(lhs, dtype=f32), node.b.cast(rhs, dtype=f32)
        return node.b.op(graph_op, lhs, rhs)

    return convert


def _reversed(convert: Converter) -> Converter:
    """For `2 * x` spelled as a method of the number's right operand (`rsub`)."""
    def swapped(node: Node):
        return convert(Node(node.fx_node, node.b, (node.arg(1, "other"), node.arg(0, "input")),
                            {}, node.module))

    return swapped


def _divide(node: Node):
    if node.kwargs.get("rounding_mode") == "floor":
        return aten_converters.floor_divide(node)
    node.check(node.kwargs.get("rounding_mode") is None,
               f"rounding_mode={node.kwargs.get('rounding_mode')!r} is not supported")
    return _binary("divide", operator.truediv)(node)


def _unary(graph_op: str, **attributes) -> Converter:
    def convert(node: Node) -> Value:
        return node.b.op(graph_op, node.tensor(0, "input"), **attributes)

    return convert


def _gelu(node: Node) -> Value:
    approximate = node.arg(1, "approximate", "none")
    node.check(approximate in ("none", "tanh"), f"approximate={approximate!r} is not supported")
    return node.b.gelu(node.tensor(0, "input"), approximate=approximate)


def _silu(node: Node) -> Value:
    return node.b.swish(node.tensor(0, "input"))


def _softmax(graph_op: str) -> Converter:
    def convert(node: Node) -> Value:
        x = node.tensor(0, "input")
        dim = node.arg(1, "dim", None)
        node.check(dim is not None, "softmax without dim is not supported (give dim)")
        node.check(node.kwargs.get("dtype") is None, "dtype= is not supported")
        return node.b.op(graph_op, x, axis=_axis(node, dim, _rank(x)))

    return convert


# -- layers


def _linear(node: Node, x: Value, weight: Value, bias: Value | None) -> Value:
    """x·Wᵀ (+ b) as dense and bias_add on the last axis: what graph-optimize fuses."""
    y = node.b.dense(x, weight)
    return y if bias is None else node.b.bias_add(y, bias, axis=_rank(y) - 1)


def _conv2d(node: Node, x: Value, weight: Value, bias: Value | None, stride, padding,
            dilation, groups: int) -> Value:
    node.check(_rank(x) == 4, f"conv2d of rank-{_rank(x)} input is not supported (NCHW is)")
    node.check(not isinstance(padding, str), f"padding={padding!r} is not supported")
    top, left = _pair(node, padding, "padding")
    y = node.b.conv2d(x, weight, strides=_pair(node, stride, "stride"),
                      padding=[top, left, top, left], dilation=_pair(node, dilation, "dilation"),
                      groups=groups)
    return y if bias is None else node.b.bias_add(y, bias, axis=1)


def _batch_norm(node: Node, x: Value, weight, bias, mean, var, training: bool,
                epsilon: float) -> Value:
    node.check(not training, "batch norm in training mode is not supported (call .eval())")
    node.check(mean is not None and var is not None, "batch norm without running statistics "
               "is not supported")
    channels = mean.type.shape
    if weight is None:
        weight = node.b.const(np.ones(channels, np.float32), dtype=x.type.element_type)
    if bias is None:
        bias = node.b.const(np.zeros(channels, np.float32), dtype=x.type.element_type)
    return node.b.batch_norm(x, weight, bias, mean, var, axis=1, epsilon=float(epsilon))


def _layer_norm(node: Node, x: Value, shape, weight, bias, epsilon: float) -> Value:
    shape = [shape] if isinstance(shape, int) else list(shape)
    node.check(tuple(shape) == x.type.shape[len(x.type.shape) - len(shape):],
               f"normalized_shape {shape} is not the trailing shape of {list(x.type.shape)}")
    element = x.type.element_type
    if weight is None:
        weight = node.b.const(np.ones(shape, np.float32), dtype=element)
    if bias is None:
        bias = node.b.const(np.zeros(shape, np.float32), dtype=element)
    return node.b.layer_norm(x, weight, bias, axis=_rank(x) - len(shape), epsilon=float(epsilon))


def _pool2d(node: Node, graph_op: str, x: Value, kernel, stride, padding, dilation,
            ceil_mode: bool, **extra) -> Value:
    node.check(_rank(x) == 4, f"pooling of rank-{_rank(x)} input is not supported (NCHW is)")
    kernel = _pair(node, kernel, "kernel_size")
    stride = kernel if stride is None or stride == [] else _pair(node, stride, "stride")
    top, left = _pair(node, padding, "padding")
    return node.b.op(graph_op, x, pool_size=kernel, strides=stride,
                     padding=[top, left, top, left], dilation=_pair(node, dilation, "dilation"),
                     ceil_mode=bool(ceil_mode), **extra)


def _max_pool2d(node: Node) -> Value:
    node.check(not node.arg(6, "return_indices", False), "return_indices=True is not supported")
    return _pool2d(node, "max_pool2d", node.tensor(0, "input"), node.arg(1, "kernel_size"),
                   node.arg(2, "stride", None), node.arg(3, "padding", 0),
                   node.arg(4, "dilation", 1), node.arg(5, "ceil_mode", False))


def _avg_pool2d(node: Node) -> Value:
    node.check(node.arg(6, "divisor_override", None) is None,
               "divisor_override is not supported")
    return _pool2d(node, "avg_pool2d", node.tensor(0, "input"), node.arg(1, "kernel_size"),
                   node.arg(2, "stride", None), node.arg(3, "padding", 0), 1,
                   node.arg(4, "ceil_mode", False),
                   count_include_pad=bool(node.arg(5, "count_include_pad", True)))


def _adaptive_avg_pool2d(node: Node, x: Value, output_size) -> Value:
    """Global average pooling for a 1x1 output; a plain average pool when the output
    size divides the input's evenly."""
    node.check(_rank(x) == 4, f"pooling of rank-{_rank(x)} input is not supported (NCHW is)")
    height, width = x.type.shape[2:]
    out = [height if o is None else o for o in _pair(node, output_size, "output_size")] \
        if not isinstance(output_size, int) else [output_size, output_size]
    if out == [1, 1]:
        return node.b.global_avg_pool2d(x)
    if height % out[0] == 0 and width % out[1] == 0:
        window = [height // out[0], width // out[1]]
        return node.b.avg_pool2d(x, pool_size=window, strides=window)
    # Output i averages inputs floor(i·n/m) .. ceil((i+1)·n/m) - 1 (torch's windows,
    # which overlap or repeat when m does not divide n): a matrix along each axis.
    dtype = element_dtype(x.type.element_type)
    rows = node.b.const(_adaptive_weights(out[0], height, dtype), dtype=x.type.element_type)
    columns = node.b.const(_adaptive_weights(out[1], width, dtype).T, dtype=x.type.element_type)
    return node.b.matmul(rows, node.b.matmul(x, columns))


def _adaptive_weights(out: int, size: int, dtype) -> np.ndarray:
    """(out, size): row i averages the inputs of adaptive pooling's window i."""
    weights = np.zeros((out, size), np.float64)
    for i in range(out):
        start, end = (i * size) // out, -((-(i + 1) * size) // out)
        weights[i, start:end] = 1 / (end - start)
    return weights.astype(dtype)


# -- shapes and layouts


def _sizes(node: Node, args: Sequence) -> list[int]:
    """A shape given as `*sizes` or as one sequence (`view(2, -1)`, `view((2, -1))`)."""
    sizes = list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)
    node.check(all(isinstance(s, int) for s in sizes), f"the shape {sizes} is not static")
    return sizes


def _reshape_to(node: Node, x: Value, sizes: list[int]) -> Value:
    shape = list(sizes)
    total = math.prod(x.type.shape)
    if -1 in shape:
        node.check(shape.count(-1) == 1, "the shape has more than one -1")
        known = math.prod(s for s in shape if s != -1)
        node.check(known != 0 and total % known == 0, f"cannot view {list(x.type.shape)} as {sizes}")
        shape[shape.index(-1)] = total // known
    node.check(math.prod(shape) == total, f"cannot view {list(x.type.shape)} as {sizes}")
    return x if tuple(shape) == x.type.shape else node.b.reshape(x, shape=shape)


def _view_method(node: Node) -> Value:
    return _reshape_to(node, node.tensor(0, "self"), _sizes(node, node.args[1:] or
                                                             [node.kwargs.get("shape", ())]))


def _reshape_function(node: Node) -> Value:
    return _reshape_to(node, node.tensor(0, "input"), _sizes(node, [node.arg(1, "shape")]))


def _flatten(node: Node, x: Value, start: int, end: int) -> Value:
    rank = max(_rank(x), 1)
    start, end = _axis(node, start, rank), _axis(node, end, rank)
    shape = x.type.shape
    if start == 1 and end == rank - 1:
        return node.b.flatten(x, axis=1)
    return _reshape_to(node, x, [*shape[:start], math.prod(shape[start:end + 1]),
                                 *shape[end + 1:]])


def _permute_to(node: Node, x: Value, dims: Sequence[int]) -> Value:
    rank = _rank(x)
    axes = [_axis(node, d, rank) for d in dims]
    node.check(sorted(axes) == list(range(rank)), f"{list(dims)} is not a permutation")
    return x if axes == list(range(rank)) else node.b.transpose(x, axes=axes)


def _permute_method(node: Node) -> Value:
    return _permute_to(node, node.tensor(0, "self"), _sizes(node, node.args[1:] or
                                                             [node.kwargs.get("dims", ())]))


def _permute_function(node: Node) -> Value:
    return _permute_to(node, node.tensor(0, "input"), _sizes(node, [node.arg(1, "dims")]))


def _transpose(node: Node) -> Value:
    x = node.tensor(0, "input")
    rank = _rank(x)
    first, second = _axis(node, node.arg(1, "dim0"), rank), _axis(node, node.arg(2, "dim1"), rank)
    axes = list(range(rank))
    axes[first], axes[second] = axes[second], axes[first]
    return _permute_to(node, x, axes)


def _identity(node: Node) -> Value:
    return node.tensor(0, "input")


def _dropout(node: Node) -> Value:
    # F.dropout(input, p=0.5, training=True, inplace=False): a module passes self.training
    node.check(not node.arg(2, "training", True), "dropout in training mode is not supported")
    return node.tensor(0, "input")


def _aten_dropout(node: Node) -> Value:
    node.check(not node.arg(2, "train"), "dropout in training mode is not supported")
    return node.tensor(0, "input")


def _size(node: Node):
    x = node.tensor(0, "input")
    dim = node.arg(1, "dim", None)
    return tuple(x.type.shape) if dim is None else x.type.shape[_axis(node, dim, _rank(x))]


def _getattr(node: Node):
    x, attribute = node.arg(0, "obj"), node.arg(1, "name")
    node.check(isinstance(x, Value) and attribute in ("shape", "ndim"),
               f"attribute '{attribute}' is not supported (shape and ndim are)")
    return tuple(x.type.shape) if attribute == "shape" else _rank(x)


def _getitem(node: Node):
    """An element of a tuple (a split's pieces, a size), or a tensor indexed by
    integers and unit-step slices."""
    container, index = node.arg(0, "a"), node.arg(1, "b")
    if not isinstance(container, Value):
        node.check(isinstance(container, (list, tuple)), f"cannot index {type(container).__name__}")
        return container[index]
    return _index_tensor(node, container, index if isinstance(index, tuple) else (index,))


def _index_tensor(node: Node, x: Value, index: tuple) -> Value:
    shape = x.type.shape
    node.check(len(index) <= len(shape), f"{len(index)} indices for rank {len(shape)}")
    starts, ends, axes, steps, squeezed = [], [], [], [], []
    for axis, item in enumerate(index):
        if isinstance(item, int):
            position = _axis(node, item, shape[axis]) if shape[axis] else item
            starts.append(position), ends.append(position + 1), axes.append(axis)
            steps.append(1), squeezed.append(axis)
        elif isinstance(item, slice):
            node.check(item.step is None or item.step > 0, "slices with a step below 1 are "
                       "not supported (torch has none)")
            start, stop, step = item.indices(shape[axis])
            if (start, stop, step) != (0, shape[axis], 1):
                starts.append(start), ends.append(max(stop, start)), axes.append(axis)
                steps.append(step)
        else:
            raise node.unsupported(f"indexing with {type(item).__name__} is not supported "
                                   "(integers and slices are)")
    if axes:
        x = node.b.slice(x, starts=starts, ends=ends, axes=axes, steps=steps)
    return node.b.squeeze(x, axes=squeezed) if squeezed else x


def _aten_slice(node: Node) -> Value:
    """aten.slice(input, dim, start, end, step): what `x[:, 1:5]` exports as."""
    x = node.tensor(0, "input")
    axis = _axis(node, node.arg(1, "dim", 0), _rank(x))
    return _index_tensor(node, x, (slice(None),) * axis + (
        slice(node.arg(2, "start", None), node.arg(3, "end", None), node.arg(4, "step", 1)),))


def _aten_select(node: Node) -> Value:
    """aten.select(input, dim, index): what `x[:, 2]` exports as."""
    x = node.tensor(0, "input")
    axis = _axis(node, node.arg(1, "dim"), _rank(x))
    return _index_tensor(node, x, (slice(None),) * axis + (node.arg(2, "index"),))


def _cat(node: Node) -> Value:
    tensors = [t for t in node.arg(0, "tensors")]
    node.check(all(isinstance(t, Value) for t in tensors), "every input of cat must be a tensor")
    return node.b.concat(tensors, axis=_axis(node, node.arg(1, "dim", 0), _rank(tensors[0])))


def _split_into(node: Node, x: Value, sections: list[int], axis: int) -> list[Value]:
    if len(sections) == 1:
        return [x]
    return node.b.split(x, sections=sections, axis=axis)


def _split(node: Node) -> list[Value]:
    x = node.tensor(0, "input")
    sizes = node.arg(1, "split_size_or_sections", None)
    if sizes is None:
        sizes = node.arg(1, "split_size")
    axis = _axis(node, node.arg(2, "dim", 0), _rank(x))
    extent = x.type.shape[axis]
    if isinstance(sizes, int):
        node.check(sizes > 0, f"split size {sizes} must be positive")
        sections = [min(sizes, extent - start) for start in range(0, extent, sizes)] or [0]
    else:
        sections = list(sizes)
        node.check(sum(sections) == extent, f"split sizes {sections} do not add up to {extent}")
    return _split_into(node, x, sections, axis)


def _chunk(node: Node) -> list[Value]:
    x, chunks = node.tensor(0, "input"), node.arg(1, "chunks")
    axis = _axis(node, node.arg(2, "dim", 0), _rank(x))
    extent = x.type.shape[axis]
    node.check(chunks > 0, f"chunks must be positive, got {chunks}")
    size = max(math.ceil(extent / chunks), 1)  # torch: pieces of ceil(n / chunks), maybe fewer
    return _split_into(node, x, [min(size, extent - s) for s in range(0, extent, size)], axis)


# -- the converters by signature


def _f_linear(node: Node) -> Value:
    return _linear(node, node.tensor(0, "input"), node.tensor(1, "weight"),
                   node.optional_tensor(2, "bias"))


def _f_conv2d(node: Node) -> Value:
    return _conv2d(node, node.tensor(0, "input"), node.tensor(1, "weight"),
                   node.optional_tensor(2, "bias"), node.arg(3, "stride", 1),
                   node.arg(4, "padding", 0), node.arg(5, "dilation", 1), node.arg(6, "groups", 1))


def _f_batch_norm(node: Node) -> Value:
    # F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)
    return _batch_norm(node, node.tensor(0, "input"), node.optional_tensor(3, "weight"),
                       node.optional_tensor(4, "bias"), node.optional_tensor(1, "running_mean"),
                       node.optional_tensor(2, "running_var"), node.arg(5, "training", False),
                       node.arg(7, "eps", 1e-5))


def _aten_batch_norm(node: Node) -> Value:
    # aten.batch_norm(input, weight, bias, running_mean, running_var, training, momentum,
    # eps, cudnn_enabled)
    return _batch_norm(node, node.tensor(0, "input"), node.optional_tensor(1, "weight"),
                       node.optional_tensor(2, "bias"), node.optional_tensor(3, "running_mean"),
                       node.optional_tensor(4, "running_var"), node.arg(5, "training"),
                       node.arg(7, "eps"))


def _aten_batch_norm_no_training(node: Node) -> list:
    # _native_batch_norm_legit_no_training(input, weight, bias, running_mean, running_var,
    # momentum, eps) -> (output, save_mean, save_rstd): the statistics are empty at inference.
    y = _batch_norm(node, node.tensor(0, "input"), node.optional_tensor(1, "weight"),
                    node.optional_tensor(2, "bias"), node.optional_tensor(3, "running_mean"),
                    node.optional_tensor(4, "running_var"), False, node.arg(6, "eps"))
    return [y]


def _f_layer_norm(node: Node) -> Value:
    return _layer_norm(node, node.tensor(0, "input"), node.arg(1, "normalized_shape"),
                       node.optional_tensor(2, "weight"), node.optional_tensor(3, "bias"),
                       node.arg(4, "eps", 1e-5))


def _f_adaptive_avg_pool2d(node: Node) -> Value:
    return _adaptive_avg_pool2d(node, node.tensor(0, "input"), node.arg(1, "output_size"))


def _f_flatten(node: Node) -> Value:
    return _flatten(node, node.tensor(0, "input"), node.arg(1, "start_dim", 0),
                    node.arg(2, "end_dim", -1))


def _matmul(node: Node) -> Value:
    return node.b.matmul(node.tensor(0, "input"), node.tensor(1, "other"))


def _bmm(node: Node) -> Value:
    return node.b.batch_matmul(node.tensor(0, "input"), node.tensor(1, "mat2"))


# -- modules: their settings and tensors


def _module_linear(node: Node) -> Value:
    return _linear(node, node.tensor(0, "input"), node.param("weight"), node.param("bias"))


def _module_conv2d(node: Node) -> Value:
    m: nn.Conv2d = node.module
    node.check(m.padding_mode == "zeros", f"padding_mode={m.padding_mode!r} is not supported")
    return _conv2d(node, node.tensor(0, "input"), node.param("weight"), node.param("bias"),
                   m.stride, m.padding, m.dilation, m.groups)


def _module_batch_norm(node: Node) -> Value:
    m: nn.BatchNorm2d = node.module
    training = m.training or not m.track_running_stats
    return _batch_norm(node, node.tensor(0, "input"), node.param("weight"), node.param("bias"),
                       node.param("running_mean"), node.param("running_var"), training, m.eps)


def _module_layer_norm(node: Node) -> Value:
    m: nn.LayerNorm = node.module
    return _layer_norm(node, node.tensor(0, "input"), m.normalized_shape, node.param("weight"),
                       node.param("bias"), m.eps)


def _module_gelu(node: Node) -> Value:
    node.check(node.module.approximate in ("none", "tanh"),
               f"approximate={node.module.approximate!r} is not supported")
    return node.b.gelu(node.tensor(0, "input"), approximate=node.module.approximate)


def _module_softmax(graph_op: str) -> Converter:
    def convert(node: Node) -> Value:
        x = node.tensor(0, "input")
        node.check(node.module.dim is not None, "softmax without dim is not supported")
        return node.b.op(graph_op, x, axis=_axis(node, node.module.dim, _rank(x)))

    return convert


def _module_max_pool2d(node: Node) -> Value:
    m: nn.MaxPool2d = node.module
    node.check(not m.return_indices, "return_indices=True is not supported")
    return _pool2d(node, "max_pool2d", node.tensor(0, "input"), m.kernel_size, m.stride,
                   m.padding, m.dilation, m.ceil_mode)


def _module_avg_pool2d(node: Node) -> Value:
    m: nn.AvgPool2d = node.module
    node.check(m.divisor_override is None, "divisor_override is not supported")
    return _pool2d(node, "avg_pool2d", node.tensor(0, "input"), m.kernel_size, m.stride,
                   m.padding, 1, m.ceil_mode, count_include_pad=bool(m.count_include_pad))


def _module_adaptive_avg_pool2d(node: Node) -> Value:
    return _adaptive_avg_pool2d(node, node.tensor(0, "input"), node.module.output_size)


def _module_flatten(node: Node) -> Value:
    return _flatten(node, node.tensor(0, "input"), node.module.start_dim, node.module.end_dim)


def _module_dropout(node: Node) -> Value:
    node.check(not node.module.training or node.module.p == 0,
               "dropout in training mode is not supported (call .eval())")
    return node.tensor(0, "input")


_ADD = _binary("add", operator.add, scaled=True)
_SUB = _binary("subtract", operator.sub, scaled=True)
_MUL = _binary("multiply", operator.mul)
_UNARY = {"relu": _unary("relu"), "sigmoid": _unary("sigmoid"), "tanh": _unary("tanh"),
          "silu": _silu}
_SOFTMAX, _LOG_SOFTMAX = _softmax("softmax"), _softmax("log_softmax")


def _default_function_map() -> dict[object, Converter]:
    entries: list[tuple[list, Converter]] = [
        ((operator.add, torch.add, "add", aten.add), _ADD),
        ((operator.iadd, "add_"), _ADD),
        ((operator.sub, torch.sub, "sub", aten.sub), _SUB),
        ((operator.mul, torch.mul, "mul", aten.mul), _MUL),
        ((operator.truediv, torch.div, "div", aten.div), _divide),
        ((aten.rsub,), _reversed(_SUB)),
        ((operator.matmul, torch.matmul, "matmul", aten.matmul, torch.mm, "mm", aten.mm),
         _matmul),
        ((torch.bmm, "bmm", aten.bmm), _bmm),
        ((F.linear, aten.linear), _f_linear),
        ((F.conv2d, torch.conv2d, aten.conv2d), _f_conv2d),
        ((F.batch_norm,), _f_batch_norm),
        ((aten.batch_norm,), _aten_batch_norm),
        ((aten._native_batch_norm_legit_no_training,), _aten_batch_norm_no_training),
        ((F.layer_norm, aten.layer_norm), _f_layer_norm),
        ((F.max_pool2d, torch.max_pool2d, aten.max_pool2d), _max_pool2d),
        ((F.avg_pool2d, aten.avg_pool2d), _avg_pool2d),
        ((F.adaptive_avg_pool2d, aten.adaptive_avg_pool2d), _f_adaptive_avg_pool2d),
        ((F.gelu, "gelu", aten.gelu), _gelu),
        ((F.softmax, torch.softmax, "softmax", aten.softmax, aten._softmax), _SOFTMAX),
        ((F.log_softmax, torch.log_softmax, "log_softmax", aten.log_softmax,
               aten._log_softmax), _LOG_SOFTMAX),
        ((torch.flatten, "flatten", aten.flatten), _f_flatten),
        ((torch.reshape, aten.reshape, aten.view, aten._unsafe_view), _reshape_function),
        (("view", "reshape"), _view_method),
        ((torch.permute, aten.permute), _permute_function),
        (("permute",), _permute_method),
        ((torch.transpose, "transpose", aten.transpose, torch.swapaxes, "swapaxes",
          aten.swapaxes), _transpose),
        (("contiguous", aten.contiguous, aten.clone, "clone", "detach", aten.detach,
               aten.alias), _identity),
        ((F.dropout,), _dropout),
        ((aten.dropout,), _aten_dropout),
        ((torch.cat, torch.concat, aten.cat), _cat),
        ((torch.split, "split", aten.split, aten.split_with_sizes), _split),
        ((torch.chunk, "chunk", aten.chunk), _chunk),
        ((operator.getitem,), _getitem),
        ((aten.slice,), _aten_slice),
        ((aten.select,), _aten_select),
        ((getattr,), _getattr),
        (("size", aten.sym_size), _size),
    ]
    for name, convert in _UNARY.items():
        entries.append(((getattr(torch, name, None), getattr(F, name, None), name,
                              getattr(aten, name)), convert))
    entries.append(((F.relu6, aten.relu6, aten.hardtanh), _hardtanh))
    converters: dict[object, Converter] = {}
    for keys, convert in entries:
        for key in keys:
            if key is not None:
                converters[key] = convert
    return converters


def _hardtanh(node: Node) -> Value:
    """ReLU6 (`F.relu6`, exported as `aten.hardtanh(x, 0, 6)`) as graph.clip."""
    relu6 = node.target is F.relu6 or getattr(node.target, "overloadpacket", None) is aten.relu6
    low = 0.0 if relu6 else float(node.arg(1, "min_val", -1.0))
    high = 6.0 if relu6 else float(node.arg(2, "max_val", 1.0))
    return node.b.clip(node.tensor(0, "input"), min=low, max=high)


FUNCTION_MAP: dict[object, Converter] = {**_default_function_map(),
                                          **aten_converters.function_map()}
"""The default converters of call_function targets and call_method names."""

MODULE_MAP: dict[type, Converter] = {
    nn.Linear: _module_linear,
    nn.Conv2d: _module_conv2d,
    nn.BatchNorm1d: _module_batch_norm,
    nn.BatchNorm2d: _module_batch_norm,
    nn.LayerNorm: _module_layer_norm,
    nn.ReLU: _UNARY["relu"],
    nn.Sigmoid: _UNARY["sigmoid"],
    nn.Tanh: _UNARY["tanh"],
    nn.SiLU: _silu,
    nn.GELU: _module_gelu,
    nn.Softmax: _module_softmax("softmax"),
    nn.LogSoftmax: _module_softmax("log_softmax"),
    nn.MaxPool2d: _module_max_pool2d,
    nn.AvgPool2d: _module_avg_pool2d,
    nn.AdaptiveAvgPool2d: _module_adaptive_avg_pool2d,
    nn.Flatten: _module_flatten,
    nn.Dropout: _module_dropout,
    nn.Identity: _identity,
    **aten_converters.module_map(),
}
"""The default converters of call_module nodes, by the called module's class."""
