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


COPIED_RETURN = (
    "issue 3: the compiler copies the return into the branch, so the written "
    "break / if-expression is not in the bytecode; the output is correct but shaped otherwise"
)

# (test id, Pythons, why it fails)
GAPS: list[tuple[str, tuple[tuple[int, int], ...], str]] = [
    (structure("loops.while_else"), (PY310, PY312, PY313), COPIED_RETURN),
    (structure("loops.while_true_break"), (PY310, PY312, PY313), COPIED_RETURN),
    (structure("loops.for_else"), (PY310,), COPIED_RETURN),
    (structure("branches.conditional_expression"), (PY310, PY312, PY313), COPIED_RETURN),
    (structure("exceptions.parse"), ALL, "issue 3: a try/except/else comes out as two trys"),
    (structure("exceptions.try_in_loop"), (PY310,), COPIED_RETURN),
    (
        structure("exceptions.try_in_loop"),
        (PY311, PY312, PY313),
        "issue 3: a try/except/finally comes out as two trys, the inner one ending in "
        "a continue that the end of the loop's body makes redundant",
    ),
    (
        state_machine("comprehensions-closure_in_comprehension"),
        (PY312, PY313),
        "the state machine keeps an inlined comprehension's cell variable in the "
        "function's own cell, so lambdas made in it share one",
    ),
]


def gaps_for(version: tuple[int, int]) -> dict[str, str]:
    """Test id -> why it fails, for one Python version."""
    return {test: reason for test, versions, reason in GAPS if version in versions}
