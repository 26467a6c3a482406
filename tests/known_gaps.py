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
        structure("with_exits.with_ends_a_named_clause_before_code_after"),
        (PY310,),
        "3.10: a with ending a named clause, its body raising where __exit__ suppresses: "
        "the clause's walk through the with's handler finds 3.10's second copy of the "
        "code after the try as another way on, and falls back (right, not as written)",
    ),
    (
        structure("try_else_ends.break_out_of_a_try_before_a_raising_return"),
        (PY310,),
        "3.10 leaves a POP_BLOCK, not the break's NOP, before the copy of the return "
        "after a while True loop at a break out of a try body: not found as the code "
        "after the loop, it is read into the try body and falls back",
    ),
]


def gaps_for(version: tuple[int, int]) -> dict[str, str]:
    """Test id -> why it fails, for one Python version."""
    return {test: reason for test, versions, reason in GAPS if version in versions}
