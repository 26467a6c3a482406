"""Tests of targets not reached yet: each fails today, for the reason given.

``conftest.py`` marks them as strict expected failures on the Pythons listed,
so CI stays green while the gap is open and goes red the day a fix makes one
pass: then delete its line. Every entry points at an open issue.
"""

PY310, PY311, PY312, PY313 = (3, 10), (3, 11), (3, 12), (3, 13)
ALL = (PY310, PY311, PY312, PY313)


def structure(case: str) -> str:
    return f"tests/decompiler/test_structure.py::test_structure_is_recovered[{case}]"


def state_machine(case: str) -> str:
    return f"tests/decompiler/test_behaviour.py::test_state_machine_behaves_the_same[{case}]"


def module(case: str) -> str:
    return f"tests/decompiler/test_behaviour.py::test_decompiled_module_behaves_the_same[{case}]"


def function(case: str) -> str:
    return f"tests/decompiler/test_behaviour.py::test_decompiled_function_behaves_the_same[{case}]"


# (test id, Pythons, why it fails)
GAPS: list[tuple[str, tuple[tuple[int, int], ...], str]] = [
    (
        structure("context_managers.with_breaks_a_while"),
        (PY310, PY312, PY313),
        "a break out of a with body that is copied with the with's exit and the code "
        "after the loop (not 3.11, which jumps there) leaves the loop to the state machine",
    ),
    (
        structure("async_shapes.agen_try_finally"),
        (PY310, PY311, PY312, PY313),
        "a return inside an async for inside a try/finally comes out as a break after "
        "``if c: pass else: continue`` (the same meaning, not as written)",
    ),
]


def gaps_for(version: tuple[int, int]) -> dict[str, str]:
    """Test id -> why it fails, for one Python version."""
    return {test: reason for test, versions, reason in GAPS if version in versions}
