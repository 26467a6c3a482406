"""Recompiles and dynamic-shape symbols, from examples/dynamic_shapes.py."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.torch, pytest.mark.slow]


def test_recompile_with_a_symbolic_size(example_dump):
    process = example_dump("dynamic_shapes", "eager").processes[0]
    assert sorted(process.compiles) == ["0/0", "0/1"]
    static, dynamic = process.compiles["0/0"], process.compiles["0/1"]
    assert static.dynamic_symbols == [] and static.recompile_reasons == []
    (reason,) = dynamic.recompile_reasons
    assert reason == "0/0: tensor 'x' size mismatch at index 0. expected 8, actual 12"
    (symbol,) = dynamic.dynamic_symbols
    assert symbol.source == "L['x'].size()[0]"
    assert (symbol.lower, symbol.upper, symbol.hint) == ("2", "int_oo", "12")

    (function,) = process.functions.values()
    assert [e.compile_id for e in function.entries] == ["0/0", "0/1"]
    dynamic_entry = function.entries[1]
    assert dynamic_entry.guards.shape_guards == ["2 <= L['x'].size()[0]"]
    shape = [g for g in dynamic_entry.guards.guards if g.kind == "SHAPE"]
    assert [g.expression for g in shape] == ["2 <= L['x'].size()[0]"]
    (graph_id,) = dynamic.graphs
    assert symbol.name in process.graphs[graph_id].stages[0].text
