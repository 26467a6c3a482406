"""Random modules of every statement and expression form mean the same decompiled:
the whole module is decompiled, recompiled and both run; they log the same, return
or raise the same, and make the same names (see ``random_programs/``). More seeds:
``python benchmarks/decompile_fuzz.py``."""

import functools
import sys

import pytest

from .random_programs import check as _check
from .random_programs import control_flow, local_temporaries

check = functools.lru_cache(maxsize=None)(_check)

SEEDS = range(60)

# Wrong results the generator found that are not fixed yet, with the Pythons they are
# wrong on and the cause: each fails here once fixed (strict), so the list only shrinks.
PY310, PY311, PY312, PY313 = (3, 10), (3, 11), (3, 12), (3, 13)
ALL = (PY310, PY311, PY312, PY313)
KNOWN_WRONG: dict[int, tuple[tuple[tuple[int, int], ...], str]] = {}


def _marks(seed):
    versions, cause = KNOWN_WRONG.get(seed, ((), ""))
    if sys.version_info[:2] in versions:
        return [pytest.mark.xfail(strict=True, reason=cause)]
    return []


@pytest.mark.parametrize("seed", [pytest.param(s, marks=_marks(s)) for s in SEEDS])
def test_random_program_behaves_the_same(seed):
    verdict = check(seed)
    assert verdict.kind == "same", (
        f"{verdict}\n{verdict.source}\n--- decompiled:\n{verdict.decompiled}"
    )


# Seeds whose decompiled module keeps a temporary among a structured function's
# locals (seen by ``locals()`` and debuggers), with the Pythons and the cause.
KNOWN_LOCAL_TEMPORARIES: dict[int, tuple[tuple[tuple[int, int], ...], str]] = {}


def _local_marks(seed):
    versions, cause = KNOWN_LOCAL_TEMPORARIES.get(seed, ((), ""))
    if sys.version_info[:2] in versions:
        return [pytest.mark.xfail(strict=True, reason=cause)]
    return []


@pytest.mark.parametrize("seed", [pytest.param(s, marks=_local_marks(s)) for s in SEEDS])
def test_structured_functions_keep_no_temporary(seed):
    verdict = check(seed)
    assert not verdict.local_temporaries, f"{verdict.local_temporaries}\n{verdict.decompiled}"


def test_a_temporary_among_locals_is_found_outside_state_machines():
    source = "def f():\n    _t1 = 1\n    return _t1\n\ndef g():\n    _state = _t2 = 0\n"
    assert local_temporaries(compile(source, "<m>", "exec")) == ["f: _t1"]


# The share of random modules written (in part) as state machines: issue 25 asks for
# under 10% (held here on SEEDS; ``benchmarks/decompile_fuzz.py`` measures thousands).
STATE_MACHINE_SHARE = 0.10
STATE_MACHINE_CEILING = 0.7  # (a looser bound, so a large regression reads as one)


def _state_machine_share() -> float:
    return sum(check(s).state_machine for s in SEEDS) / len(SEEDS)


def test_state_machines_stay_under_the_ceiling():
    """The state machine is correct but unreadable: it must stay the exception."""
    assert _state_machine_share() < STATE_MACHINE_CEILING


def test_state_machines_under_a_tenth():
    assert _state_machine_share() < STATE_MACHINE_SHARE


# The first generator's programs (control flow only, ``control_flow.py``) that it
# found wrong or that did not decompile (799-1495: a jump to an EXTENDED_ARG on 3.10;
# 444: a finally body's copy in an inner clause, left under the bare except its
# second reading made of the finally, 3.10).
CONTROL_FLOW_SEEDS = [7, 202, 302, 361, 444, 799, 909, 1371, 1495]
CONTROL_FLOW_WRONG = {}


def _control_flow_marks(seed):
    if sys.version_info[:2] in CONTROL_FLOW_WRONG.get(seed, ()):
        return [pytest.mark.xfail(strict=True, reason="known wrong result")]
    return []


@pytest.mark.parametrize(
    "seed", [pytest.param(s, marks=_control_flow_marks(s)) for s in CONTROL_FLOW_SEEDS]
)
def test_control_flow_program_behaves_the_same(seed):
    source = control_flow.program(seed)
    decompiled = control_flow.decompiled_program(source)
    assert control_flow.run(decompiled) == control_flow.run(source), decompiled
