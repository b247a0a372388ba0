"""The `graph` dialect object: its namespace, and how it materialises constants for
folding. The op base class is in :mod:`mlc.graph.op_base`, attribute kinds in
:mod:`mlc.graph.attributes`, tensor constraints in :mod:`mlc.graph.types`."""

from __future__ import annotations

from mlc.ir import (
    Attribute,
    DenseElementsAttr,
    DenseResourceElementsAttr,
    Dialect,
    Location,
    Operation,
    Type,
)


class GraphDialect(Dialect):
    def materialize_constant(self, value: Attribute, type_: Type, loc: Location) -> Operation | None:
        if isinstance(value, (DenseElementsAttr, DenseResourceElementsAttr)) and value.type == type_:
            from mlc.graph.ops.constant import ConstantOp

            return ConstantOp.build(value=value, loc=loc)
        return None


graph = GraphDialect("graph", "Tensor-level ops (mlc's Relay): what models arrive in, where "
                              "graph optimisations and operator fusion run.")


