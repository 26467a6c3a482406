"""No name the decompiler invents (a temporary ``_t1``, a hidden ``__0``, the state
machine's slots) is ever visible in a namespace: the random programs' comparison
catches one planted in each place it could show, and the state machine, forced,
leaves none in a module, a class body or a generator's name."""

import pytest

from depyf_report import decompile
from depyf_report.decompiler.pipeline import definitions

from .random_programs import check, program, run
from .random_programs.compare import TEMPORARY, compare, leaked_names, picture

# Each plant adds one invented name where a decompiled module could show it.
PLANTS = {
    "module global": ("_t1 = 1", "_t1"),
    "class attribute": ("class Planted:\n    _t2 = 1", "_t2"),
    "mangled class attribute": ("class Planted:\n    __t3 = 1", "_Planted__t3"),
    "function name": ("f.__name__ = '_t4'", "_t4"),
    "generator name": ("def _t5():\n    yield\nplanted = _t5()", "_t5"),
    "hidden local": ("__0 = None", "__0"),
}


@pytest.fixture(scope="module")
def original():
    source = program(0)
    return source, run(source)


@pytest.mark.parametrize("plant", PLANTS, ids=list(PLANTS))
def test_a_planted_invented_name_is_caught(original, plant):
    source, expected = original
    code, name = PLANTS[plant]
    actual = run(source + "\n" + code + "\n")
    assert name in leaked_names(expected, actual)
    assert "leaked name" in compare(expected, actual)


def test_the_same_module_leaks_nothing(original):
    source, expected = original
    assert compare(expected, run(source)) == []


def test_an_address_written_into_a_string_is_no_difference(original):
    """Two runs put an object at different addresses; a program that writes its repr
    into a value (seed 6660: an f-string of a generator) is still the same program.
    Anything else in that text still counts."""
    source, _ = original
    written = "\nLOG.append(f'{(n for n in [])!r}' * 2)\nLOG.append([repr(object())] * 70)\n"
    assert compare(run(source + written), run(source + written)) == []
    other = written.replace("* 2", "* 3")
    assert compare(run(source + written), run(source + other)) != []


MODULE = """
LOG = []


def numbers():
    yield 1


for i in range(3):
    LOG.append((i, [x * i for x in range(i)]))
    try:
        LOG.append(1 // (i - 1) + len(LOG))
    except ZeroDivisionError:
        LOG.append("zero")


class Box:
    items = [k * 2 for k in range(3)]
    for j in items:
        if j:
            last = j
    total = sum(items) + (last if items else 0)


gen = numbers()
"""


def _names(namespace: dict) -> str:
    return repr({k: picture(v) for k, v in namespace.items() if k != "__builtins__"})


def test_the_state_machine_leaves_no_invented_name(monkeypatch):
    """Module level, a class body and a generator, each written as a state machine."""
    monkeypatch.setattr(definitions, "FORCE_FALLBACK", True)
    decompiled = decompile(compile(MODULE, "<module>", "exec"))
    assert decompiled.count("control flow not structured") >= 3, decompiled
    expected, actual = {}, {}
    exec(MODULE, expected)
    exec(decompiled, actual)
    assert TEMPORARY.findall(_names(actual)) == [], decompiled
    assert _names(actual) == _names(expected), decompiled


@pytest.mark.parametrize("seed", range(20))
def test_random_programs_as_state_machines_behave_the_same(seed, monkeypatch):
    """The wide generator's modules, every body forced into the state machine: the
    comparison includes every name each one makes."""
    monkeypatch.setattr(definitions, "FORCE_FALLBACK", True)
    verdict = check(seed)
    assert verdict.kind == "same", f"{verdict}\n--- decompiled:\n{verdict.decompiled}"
