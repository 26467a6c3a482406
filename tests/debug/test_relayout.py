"""relayout: recompiled code takes the slot layout of the code it replaces."""

import dis
import textwrap
import types

import pytest

from depyf_report.debug.relayout import Unfaithful, relayout, slot_names


def _function_code(source: str, name: str = "f") -> types.CodeType:
    """The code of ``name`` defined at the top of ``source`` or one level in."""
    module = compile(textwrap.dedent(source), "<test>", "exec")
    stack = [module]
    while stack:
        code = stack.pop()
        if code.co_name == name:
            return code
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    raise LookupError(name)


def _call(code: types.CodeType, *args, closure=None):
    return types.FunctionType(code, {"__builtins__": __builtins__}, closure=closure)(*args)


TARGET = """
def f(a, b):
    y = 0
    x = a
    unused = None
    return x + y
"""
OURS = """
def f(a, b):
    x = a
    t = 5
    y = b
    return x + y + t - 5
"""


def test_locals_take_the_target_order_and_temporaries_come_after():
    target, ours = _function_code(TARGET), _function_code(OURS)
    assert ours.co_varnames == ("a", "b", "x", "t", "y")
    result = relayout(ours, target)
    assert result.co_varnames == ("a", "b", "y", "x", "unused", "t")
    assert _call(result, 3, 4) == _call(ours, 3, 4) == 7


def test_every_instruction_still_names_the_same_variable():
    ours = _function_code(OURS)
    result = relayout(ours, _function_code(TARGET))
    before = [(i.opname, i.argval) for i in dis.get_instructions(ours)]
    after = [(i.opname, i.argval) for i in dis.get_instructions(result)]
    assert before == after
    assert result.co_code != ours.co_code  # the slot numbers did move


CLOSURES = """
def outer(p, q):
    def f(a):
        def g():
            return a * 100 + c * 10 + b
        b = 1
        c = 2
        return g() + p - q
    return f
"""


def test_cells_and_free_variables_follow_the_target_order():
    ours = _function_code(CLOSURES)
    # Dynamo keeps the original function's order, which need not be the compiler's.
    target = ours.replace(
        co_cellvars=tuple(reversed(ours.co_cellvars)),
        co_freevars=tuple(reversed(ours.co_freevars)),
    )
    result = relayout(ours, target)
    assert result.co_cellvars == target.co_cellvars != ours.co_cellvars
    assert result.co_freevars == target.co_freevars != ours.co_freevars
    cells = {"p": types.CellType(1000), "q": types.CellType(7)}
    expected = _call(ours, 3, closure=tuple(cells[n] for n in ours.co_freevars))
    got = _call(result, 3, closure=tuple(cells[n] for n in result.co_freevars))
    assert got == expected == 1000 + 321 - 7


def test_a_parameter_that_is_also_a_cell_keeps_its_place():
    source = """
    def f(a, b):
        k = 2
        return (lambda: a + b * k)()
    """
    ours = _function_code(source)
    varnames = (*ours.co_varnames, "extra")
    target = ours.replace(co_varnames=varnames, co_nlocals=len(varnames))
    result = relayout(ours, target)
    assert result.co_varnames[:3] == ("a", "b", "extra")
    assert set(result.co_cellvars) == {"a", "b", "k"}
    assert _call(result, 1, 10) == 21


def test_renamed_names_map_back_to_the_target_names():
    ours = _function_code("def f(a):\n    _0 = a + 1\n    return _0 * 2\n")
    target = ours.replace(co_varnames=("a", ".0"))
    result = relayout(ours, target, renames={"_0": ".0"})
    assert result.co_varnames == ("a", ".0")
    assert _call(result, 4) == 10


def test_different_parameters_are_refused():
    with pytest.raises(Unfaithful, match="parameters differ"):
        relayout(_function_code("def f(a, c):\n    return a\n"), _function_code(TARGET))
    with pytest.raises(Unfaithful, match="co_argcount"):
        relayout(_function_code("def f(a):\n    return a\n"), _function_code(TARGET))
    with pytest.raises(Unfaithful, match="flags differ"):
        relayout(_function_code("def f(a, b, *c):\n    return a\n"), _function_code(TARGET))


def test_a_missing_cell_is_refused():
    target = _function_code("def f(a):\n    return (lambda: a)()\n")
    with pytest.raises(Unfaithful, match="cell variables differ"):
        relayout(_function_code("def f(a):\n    return a\n"), target)


def _many_locals(order: list[int]) -> types.CodeType:
    body = "".join(f"    v{i} = {i}\n" for i in order)
    return _function_code(f"def f():\n{body}    return v0 - v299 + v255 * v256\n")


def test_long_arguments_are_renumbered_in_place():
    # Past 256 slots an argument needs EXTENDED_ARG; slots that stay past 255 still fit.
    target = _many_locals(list(range(300)))
    ours = _many_locals(list(range(256)) + list(range(299, 255, -1)))
    result = relayout(ours, target)
    assert result.co_varnames == target.co_varnames
    assert _call(result) == _call(ours) == 0 - 299 + 255 * 256


def test_a_slot_that_would_need_a_longer_instruction_is_refused():
    target = _many_locals(list(range(300)))
    ours = _many_locals(list(range(299, -1, -1)))
    with pytest.raises(Unfaithful, match="longer instruction"):
        relayout(ours, target)


def test_slot_names_cover_locals_cells_and_free_variables():
    code = _function_code(CLOSURES)
    names = slot_names(code)
    assert set(names["fast"]) >= set(code.co_varnames)
    assert set(names["cell"]) >= set(code.co_cellvars + code.co_freevars)
