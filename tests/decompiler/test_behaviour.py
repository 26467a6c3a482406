"""Decompiled code behaves like the original, construct by construct.

For every snippet function, the calls listed in the snippet's CASES run against
the original and against the decompiled-then-recompiled code; every record
(result, yields, exception, argument and global side effects) must be equal.
"""

import pytest

from depyf_report import decompile
from depyf_report.decompiler.pipeline import definitions

from .behaviour import first_difference, globals_snapshot, record_call
from .corpus import grouped_cases, plain_functions, resolve, snippets

SHOWN_SOURCE = 4000


def _module_cases():
    for snippet in snippets():
        yield pytest.param(snippet, None, id=f"{snippet.name}-module")
        for name in snippet.cases():
            yield pytest.param(snippet, name, id=f"{snippet.name}-{name}")


def _function_cases():
    for snippet in snippets():
        for name in plain_functions(snippet):
            yield pytest.param(snippet, name, id=f"{snippet.name}-{name}")


def _assert_same_calls(name, original, decompiled, source):
    calls = grouped_cases(original)[name]
    assert len(grouped_cases(decompiled)[name]) == len(calls), "CASES differ"
    for (args, kwargs), (own_args, own_kwargs) in zip(calls, grouped_cases(decompiled)[name]):
        expected = record_call(resolve(original, name), args, kwargs, original.__dict__)
        actual = record_call(resolve(decompiled, name), own_args, own_kwargs, decompiled.__dict__)
        assert actual == expected, (
            f"{name}(*{args!r}, **{kwargs!r}) behaves differently "
            f"{first_difference(expected, actual)}\n"
            f"decompiled source:\n{source[:SHOWN_SOURCE]}"
        )


@pytest.mark.parametrize(("snippet", "name"), list(_module_cases()))
def test_decompiled_module_behaves_the_same(snippet, name):
    decompiled, source = snippet.decompiled_module()
    original = snippet.original()
    if name is None:  # the module itself: every name it defines, described
        expected = globals_snapshot(original.__dict__, everything=True)
        actual = globals_snapshot(decompiled.__dict__, everything=True)
        assert actual == expected, (
            f"module namespace differs {first_difference(expected, actual)}\n"
            f"{source[:SHOWN_SOURCE]}"
        )
    else:
        _assert_same_calls(name, original, decompiled, source)


@pytest.mark.parametrize(("snippet", "name"), list(_function_cases()))
def test_decompiled_function_behaves_the_same(snippet, name):
    _, decompiled, source = snippet.decompiled_function(name)
    _assert_same_calls(name, snippet.original(), decompiled, source)


@pytest.mark.parametrize(("snippet", "name"), list(_function_cases()))
def test_state_machine_behaves_the_same(snippet, name, monkeypatch):
    """The fallback, forced on each plain function, means the same as well."""
    monkeypatch.setattr(definitions, "FORCE_FALLBACK", True)
    _, decompiled, source = snippet.decompiled_function(name)
    _assert_same_calls(name, snippet.original(), decompiled, source)


MODULE_RAISING_MIDWAY = """
total = 0
for i in range(3):
    try:
        total += 10 // (2 - i)
    except ZeroDivisionError:
        raise LookupError(total)
"""


def _names_left(source: str) -> set[str]:
    namespace: dict = {}
    with pytest.raises(LookupError):
        exec(source, namespace)
    return set(namespace) - {"__builtins__"}


def test_a_module_state_machine_leaves_no_name_when_it_raises(monkeypatch):
    """The machine's state, slots and handled exception leave the module's namespace
    however the module ends."""
    monkeypatch.setattr(definitions, "FORCE_FALLBACK", True)
    source = decompile(compile(MODULE_RAISING_MIDWAY, "<module>", "exec"))
    assert "control flow not structured" in source, source
    assert _names_left(source) == _names_left(MODULE_RAISING_MIDWAY), source
