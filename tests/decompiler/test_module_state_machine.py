"""A module body the state machine writes, run decompiled: the names it binds. Not a
behaviour snippet, which compares the whole namespace: 3.10 writes this module
structured, leaving a temporary (_t2) in the globals, a known wrong result."""

from depyf_report import decompile
from depyf_report.decompiler.pipeline import definitions

# A break out of a with in a module's for loop: 3.10, 3.12 and 3.13 leave the loop to
# the state machine (tests/known_gaps.py).
WALRUS_IN_COMPREHENSION = """
import contextlib
LOG = []
ITEMS = [1, 2]
n = "outer"
for k in range(2):
    with contextlib.nullcontext():
        LOG.append([(last := n) for n in ITEMS])
        if k:
            break
    LOG.append(k)
"""


def _run(source: str) -> dict:
    namespace: dict = {}
    exec(source, namespace)
    return namespace


def test_a_walrus_target_in_an_inlined_comprehension_keeps_its_value():
    # 3.12+ save and restore a fast slot for the walrus target too, though the
    # comprehension stores it as a global: restored by name, ``last`` would be None
    decompiled = decompile(compile(WALRUS_IN_COMPREHENSION, "<module>", "exec"))
    expected, actual = _run(WALRUS_IN_COMPREHENSION), _run(decompiled)
    names = ("last", "n", "k", "LOG")
    assert [actual[x] for x in names] == [expected[x] for x in names], decompiled


# 3.12+ inline these comprehensions in the module and class bodies and give each run a
# fresh cell for the variable the lambdas close over.
CELLS_IN_COMPREHENSIONS = """
i = "module"
RUNS = [[lambda: i for i in range(k)] for k in range(3)]
VALUES = [[f() for f in run] for run in RUNS]
KEPT = i
for k in range(2):
    LATE = [lambda: (i, k) for i in range(k + 2)]
    if k:
        break
LATE_VALUES = [f() for f in LATE]


class Table:
    i = "class"
    funcs = [lambda: i for i in range(3)]
    values = [f() for f in funcs]
    kept = i
TABLE = (Table.values, Table.kept, sorted(vars(Table).keys() - {"__firstlineno__"}))
"""


def test_a_module_state_machine_gives_each_comprehension_run_its_own_cell(monkeypatch):
    monkeypatch.setattr(definitions, "FORCE_FALLBACK", True)
    decompiled = decompile(compile(CELLS_IN_COMPREHENSIONS, "<module>", "exec"))
    assert "control flow not structured" in decompiled
    expected, actual = _run(CELLS_IN_COMPREHENSIONS), _run(decompiled)
    names = ("i", "VALUES", "KEPT", "LATE_VALUES", "k", "TABLE")
    assert [actual[x] for x in names] == [expected[x] for x in names], decompiled
    assert sorted(actual) == sorted(expected), decompiled
