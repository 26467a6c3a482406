"""A module body the state machine writes, run decompiled: the names it binds. Not a
behaviour snippet, which compares the whole namespace: 3.10 writes this module
structured, leaving a temporary (_t2) in the globals, a known wrong result."""

from depyf_report import decompile

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
