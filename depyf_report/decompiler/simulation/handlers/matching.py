"""The MATCH_CASE test that ``rewrites.patterns.collapse`` writes for each case of a
``match`` statement.

Structured, a case is an ``if`` whose test is a ``Matches`` marker (and the guard,
``and``-ed to it: both jump to the next case); ``tidy.matches`` turns those ``if``
chains back into one ``match``. In the state machine each test is a ``match`` of its
own that sets a flag.
"""

from __future__ import annotations

import ast
import copy

from ...bytecode.opcodes import MATCH_CASE
from ...rewrites.patterns import wildcard
from .. import markers as m
from ..registry import handles
from .expressions import value_of
from .statements import declare


@handles(MATCH_CASE)
def match_case(sim, ins):
    case = ins.argval
    subject = value_of(sim, sim.pop())
    sim.spill(targets=case.names)  # values reading a captured name are read first
    for store in case.stores:
        declare(sim, store)
    pattern = copy.deepcopy(case.pattern)  # a block may be simulated more than once
    if sim.ctx.structured:
        sim.push(m.Matches(subject, pattern))
        return
    flag = sim.ctx.temp()
    cases = [
        ast.match_case(pattern=pattern, guard=None, body=[_set(flag, True)]),
        ast.match_case(pattern=wildcard(), guard=None, body=[_set(flag, False)]),
    ]
    sim.emit(ast.Match(subject=subject, cases=cases))
    sim.push(m.name(flag))


def _set(ident: str, value: bool) -> ast.stmt:
    return ast.Assign(targets=[m.name(ident, True)], value=m.const(value))
