"""Graph facts the structurer relies on, checked against their definitions."""

import random

import pytest

from depyf_report.decompiler.graph.analysis import dominators


def reached(roots, succs, removed=None) -> set:
    seen, todo = set(), [r for r in roots if r != removed]
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(s for s in succs[node] if s != removed)
    return seen


def dominators_by_definition(roots, succs) -> dict:
    """``a`` dominates ``b`` when no path from the roots reaches ``b`` without ``a``;
    the immediate dominator is the strict dominator every other one dominates. A root
    reached from an earlier root is reached like any other block."""
    entries = []
    for root in roots:
        if root not in reached(entries, succs):
            entries.append(root)
    nodes = reached(entries, succs)
    strict = {
        b: {a for a in nodes if a != b and b not in reached(entries, succs, a)} for b in nodes
    }
    return {
        b: next((a for a in doms if doms <= strict[a] | {a}), None) for b, doms in strict.items()
    }


@pytest.mark.parametrize("seed", range(40))
def test_dominators_match_their_definition(seed):
    rng = random.Random(seed)
    for _ in range(50):
        n = rng.randint(1, 10)
        succs = [rng.sample(range(n), rng.randint(0, min(3, n))) for _ in range(n)]
        roots = rng.sample(range(n), rng.randint(1, min(3, n)))
        assert dominators(roots, succs) == dominators_by_definition(roots, succs), (succs, roots)


def test_dominators_of_a_long_chain_with_side_exits():
    """A long function's shape: each block goes on, or raises to a common end. The
    end's immediate dominator is the first block; every other block's is the one
    before it."""
    n = 5000
    end = n
    succs = [[i + 1, end] for i in range(n)] + [[]]
    idom = dominators([0], succs)
    assert idom[end] == 0
    assert all(idom[i] == i - 1 for i in range(1, n))
