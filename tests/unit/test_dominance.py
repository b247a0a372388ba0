"""Dominator and post-dominator trees, checked against the definitions on random
graphs: `a` dominates `b` iff every path from the entry to `b` passes through `a`;
`a` post-dominates `b` iff every path from `b` to an exit passes through `a`."""

import random

from hypothesis import given
from hypothesis import strategies as st

from mlc.ir import Block, Context, Operation, Region, parse_module, verify
from mlc.ir.analysis.dominance import compute_idoms, dominator_tree, post_dominator_tree
from mlc.ir.passes.analysis_manager import DominanceInfo, PostDominanceInfo

# ---------------------------------------------------------------------- brute force


def _reachable(start, successors, removed=None) -> set:
    if start == removed:
        return set()
    seen = {start}
    stack = [start]
    while stack:
        for succ in successors(stack.pop()):
            if succ != removed and succ not in seen:
                seen.add(succ)
                stack.append(succ)
    return seen


def _dominates(a, b, entry, successors) -> bool:
    """Every path from `entry` to `b` passes through `a` (b reachable)."""
    return a == b or b not in _reachable(entry, successors, removed=a)


def _post_dominates(a, b, exits, successors) -> bool:
    """Every path from `b` to an exit passes through `a` (some exit reachable from b)."""
    return a == b or not (_reachable(b, successors, removed=a) & exits)


def _brute_idom(b, candidates, dominates):
    """The strict dominator of `b` that every other strict dominator dominates."""
    strict = [a for a in candidates if a != b and dominates(a, b)]
    closest = [a for a in strict if all(dominates(o, a) for o in strict)]
    assert len(closest) <= 1
    return closest[0] if closest else None


# ---------------------------------------------------------------------- graphs


@st.composite
def graphs(draw, max_nodes=10):
    n = draw(st.integers(1, max_nodes))
    edges = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)),
                          max_size=3 * n))
    succ = {i: [] for i in range(n)}
    for a, b in edges:
        if b not in succ[a]:
            succ[a].append(b)
    return n, succ


def _region(n: int, succ: dict) -> tuple[Region, list[Block]]:
    """A region of `n` blocks, each ending in an unregistered branch to its successors."""
    blocks = [Block() for _ in range(n)]
    for i, block in enumerate(blocks):
        block.append(Operation("test.br", [], [], {}, [], [blocks[j] for j in succ[i]]))
    return Region(blocks), blocks


def _random_graph(rng: random.Random, n: int, density: float):
    succ = {i: [] for i in range(n)}
    for a in range(n):
        for b in range(n):
            if rng.random() < density:
                succ[a].append(b)
    return succ


# ---------------------------------------------------------------------- dominance


@given(graphs())
def test_dominator_tree_matches_the_definition(graph):
    n, succ = graph
    region, blocks = _region(n, succ)
    tree = dominator_tree(region)
    index = {b: i for i, b in enumerate(blocks)}
    reachable = _reachable(0, lambda i: succ[i])

    def dom(a, b):
        return _dominates(a, b, 0, lambda i: succ[i])

    assert set(tree.idom) == set(blocks)
    for b in range(n):
        if b not in reachable:
            assert tree.idom[blocks[b]] is None  # unreachable blocks are roots
            continue
        for a in range(n):
            assert tree.dominates(blocks[a], blocks[b]) == dom(a, b), (a, b, succ)
        expected = _brute_idom(b, sorted(reachable), dom)
        got = tree.idom[blocks[b]]
        assert (None if got is None else index[got]) == expected, (b, succ)


@given(graphs())
def test_dominator_tree_children_and_preorder(graph):
    n, succ = graph
    region, blocks = _region(n, succ)
    tree = dominator_tree(region)
    order = tree.preorder()
    assert sorted(id(b) for b, _ in order) == sorted(id(b) for b in blocks)
    position = {b: i for i, (b, _) in enumerate(order)}
    for block, parent in order:
        assert parent is tree.idom[block]
        if parent is not None:
            assert position[parent] < position[block]
            assert block in tree.children[parent]
    assert sum(len(c) for c in tree.children.values()) == sum(
        1 for b in blocks if tree.idom[b] is not None)


def _check_compute_idoms(n: int, succ: dict) -> None:
    preds = {i: [a for a in range(n) if i in succ[a]] for i in range(n)}
    idom = compute_idoms(0, succ.__getitem__, preds.__getitem__)
    reachable = _reachable(0, succ.__getitem__)
    assert set(idom) == reachable
    assert idom[0] is None

    def dom(a, b):
        return _dominates(a, b, 0, succ.__getitem__)

    for b in reachable - {0}:
        assert idom[b] == _brute_idom(b, sorted(reachable), dom), (b, succ)


def test_compute_idoms_on_integer_graphs():
    rng = random.Random(1234)
    for _ in range(150):
        n = rng.randint(1, 14)
        _check_compute_idoms(n, _random_graph(rng, n, rng.choice([0.1, 0.2, 0.35])))


def test_single_block_and_empty_regions():
    region, (block,) = _region(1, {0: []})
    tree = dominator_tree(region)
    assert tree.idom == {block: None}
    assert tree.dominates(block, block)
    empty = dominator_tree(Region())
    assert empty.idom == {} and empty.preorder() == []


def test_diamond():
    # 0 -> 1, 2 -> 3
    region, blocks = _region(4, {0: [1, 2], 1: [3], 2: [3], 3: []})
    tree = dominator_tree(region)
    b0, b1, b2, b3 = blocks
    assert tree.idom == {b0: None, b1: b0, b2: b0, b3: b0}
    assert not tree.dominates(b1, b3) and not tree.dominates(b2, b3)
    assert tree.dominates(b0, b3)
    assert tree.children[b0] == [b1, b2, b3]


def test_every_block_dominates_an_unreachable_block():
    region, blocks = _region(3, {0: [1], 1: [], 2: [1]})
    tree = dominator_tree(region)
    assert tree.dominates(blocks[0], blocks[2])


def test_uses_in_unreachable_blocks_verify():
    module = parse_module("""
    func.func @f(%x: i32) -> i32 {
      return %x : i32
    ^bb1:
      %dead = arith.addi %x, %x : i32
      return %dead : i32
    }""", Context())
    verify(module)


# ---------------------------------------------------------------------- post-dominance


@given(graphs())
def test_post_dominator_tree_matches_the_definition(graph):
    n, succ = graph
    tree = post_dominator_tree(range(n), lambda i: succ[i])
    exits = {i for i in range(n) if not succ[i]}

    def pdom(a, b):
        return _post_dominates(a, b, exits, lambda i: succ[i])

    reaches_exit = [b for b in range(n) if _reachable(b, lambda i: succ[i]) & exits]
    assert set(tree.idom) == set(range(n))
    for b in reaches_exit:
        for a in range(n):
            assert tree.dominates(a, b) == pdom(a, b), (a, b, succ)
        assert tree.idom[b] == _brute_idom(b, reaches_exit, pdom), (b, succ)
    for b in exits:
        assert tree.idom[b] is None  # only the virtual exit post-dominates an exit


def test_post_dominator_tree_of_blocks():
    # 0 -> 1, 2; 1 -> 3; 2 -> 3, 4 (two exits: 3 and 4)
    region, blocks = _region(5, {0: [1, 2], 1: [3], 2: [3, 4], 3: [], 4: []})
    tree = post_dominator_tree(region.blocks, lambda b: b.successors)
    b0, b1, b2, b3, b4 = blocks
    assert tree.idom[b1] is b3
    assert tree.idom[b2] is None  # 3 or 4: only the virtual exit
    assert tree.idom[b0] is None
    assert tree.dominates(b3, b1) and not tree.dominates(b3, b0)


def test_post_dominator_tree_ignores_successors_outside_the_node_set():
    tree = post_dominator_tree([0, 1], lambda i: {0: [1, 7], 1: [9]}[i])
    assert tree.idom == {0: 1, 1: None}


def test_post_dominator_tree_of_an_infinite_loop_has_only_roots():
    tree = post_dominator_tree([0, 1], lambda i: {0: [1], 1: [0]}[i])
    assert tree.idom == {0: None, 1: None}


# ---------------------------------------------------------------------- on parsed IR


_CFG = """
func.func @f(%c: i1) {
  "test.cond_br"(%c) [^bb1, ^bb2] : (i1) -> ()
^bb1:
  "test.region"() ({
    "test.inner"() : () -> ()
  }) : () -> ()
  "test.br"() [^bb3] : () -> ()
^bb2:
  "test.br"() [^bb3] : () -> ()
^bb3:
  return
}
"""


def test_dominance_info_on_parsed_ir():
    module = parse_module(_CFG, Context(allow_unregistered=True))
    func = module.regions[0].blocks[0].first_op
    entry, bb1, bb2, bb3 = func.regions[0].blocks
    info = DominanceInfo(func)
    assert info.block_dominates(entry, bb3)
    assert not info.block_dominates(bb1, bb3)
    assert not info.block_dominates(bb2, bb1)
    nested = bb1.first_op.regions[0].blocks[0]
    assert info.block_dominates(bb1, nested)
    assert info.block_dominates(entry, nested)
    assert not info.block_dominates(bb2, nested)
    assert info.tree(func.regions[0]) is info.tree(func.regions[0])  # cached per region

    post = PostDominanceInfo(func)
    assert post.block_post_dominates(bb3, bb1)
    assert post.block_post_dominates(bb3, entry)
    assert not post.block_post_dominates(bb1, entry)
    assert not post.block_post_dominates(bb3, nested)  # different regions
