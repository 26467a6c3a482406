"""A module body keeps its temporaries out of its globals even when it raises: a module
that raises leaves its namespace behind (a failed import, ``exec``), so the names it
invented are removed on the way out too, not only at its end."""

import pytest

from depyf_report import decompile

# A guarded capture after another case: the subject is kept in temporaries.
RAISES_IN_A_MATCH = '''
"""The docstring stays the module's."""
from __future__ import annotations
LOG = []
x = 5
match x:
    case [a]:
        LOG.append(a)
    case a if len(LOG) == 0:
        if x > 3:
            raise ValueError(x)
        if x > 1:
            LOG.append(2)
    case []:
        raise KeyError(28)
AFTER = True
'''


def _run(source: str) -> tuple[dict, str]:
    namespace: dict = {}
    try:
        exec(source, namespace)
    except Exception as error:
        raised = f"{type(error).__name__}: {error}"
    else:
        raised = ""
    namespace.pop("__builtins__", None)
    return namespace, raised


def test_a_module_that_raises_leaves_no_invented_name():
    decompiled = decompile(compile(RAISES_IN_A_MATCH, "<module>", "exec"))
    (expected, expected_raised), (actual, actual_raised) = (
        _run(RAISES_IN_A_MATCH),
        _run(decompiled),
    )
    assert expected_raised == actual_raised == "ValueError: 5"
    assert sorted(actual) == sorted(expected), decompiled
    assert actual["__doc__"] == "The docstring stays the module's."


@pytest.mark.parametrize("x", [0, [], [7]])
def test_the_module_still_runs_the_same_where_it_does_not_raise(x):
    source = RAISES_IN_A_MATCH.replace("x = 5", f"x = {x!r}")
    decompiled = decompile(compile(source, "<module>", "exec"))
    assert _run(decompiled) == _run(source), decompiled
