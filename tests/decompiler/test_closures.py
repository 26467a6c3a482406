"""A closure decompiled on its own gives source that recompiles by itself.

The free names must stay free names of the same function (bound by whatever
enclosing code the decompiler writes), and the recompiled function, given the
original's cells, behaves like the original.
"""

import types

import pytest

from depyf_report import decompile

from .behaviour import record_call
from .code_tree import code_tree
from .corpus import resolve, snippets


def _standalone_cases():
    for snippet in snippets():
        for factory, args, calls in getattr(snippet.original(), "STANDALONE", ()):
            yield pytest.param(snippet, factory, args, calls, id=f"{snippet.name}-{factory}")


def _rebuild(closure, code: types.CodeType) -> types.FunctionType:
    """``code`` as a function with ``closure``'s globals, defaults and cells, matched by name."""
    cells = dict(zip(closure.__code__.co_freevars, closure.__closure__))
    rebuilt = types.FunctionType(
        code,
        closure.__globals__,
        closure.__name__,
        closure.__defaults__,
        tuple(cells[name] for name in code.co_freevars),
    )
    rebuilt.__kwdefaults__ = closure.__kwdefaults__
    return rebuilt


@pytest.mark.parametrize(("snippet", "factory", "args", "calls"), list(_standalone_cases()))
def test_closure_recompiles_on_its_own(snippet, factory, args, calls):
    original_module, other_module = snippet.original(), snippet.original()
    closure = resolve(original_module, factory)(*args)
    source = decompile(closure)
    compiled = compile(source, "<decompiled closure>", "exec")
    exec(compiled, {"__name__": "standalone"})  # defining it needs nothing from outside
    wanted = closure.__code__
    matches = [
        code
        for code in code_tree(compiled)
        if code.co_name == wanted.co_name and set(code.co_freevars) == set(wanted.co_freevars)
    ]
    assert matches, f"no {wanted.co_name!r} with free names {wanted.co_freevars}:\n{source}"
    twin = _rebuild(resolve(other_module, factory)(*args), matches[0])
    for call_args in calls:
        expected = record_call(closure, call_args, {}, original_module.__dict__)
        actual = record_call(twin, call_args, {}, other_module.__dict__)
        assert actual == expected, f"{factory} closure called with {call_args}:\n{source}"
