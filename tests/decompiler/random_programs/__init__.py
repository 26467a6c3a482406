"""Random modules of every statement and expression form, run against their
decompiled selves.

``program(seed)`` is the prelude (``prelude.py``: the tape, context managers, an
awaitable, an async iterator, a runner for coroutines) followed by a random module
(``generator.py``): module-level statements, a function ``f(t)`` and a coroutine
``h(t)``, each a nest of control flow and the wider forms. ``check(seed)`` decompiles
the whole module's code object, recompiles it, runs both (``compare.py``) and says
whether they behave the same: logs, results and exceptions, namespaces and the names
of everything the program makes.

Stdlib only: it runs on every Python the decompiler supports.
"""

from __future__ import annotations

import contextlib

from .compare import TAPES, Verdict, compare, leaked_names, local_temporaries, picture, run
from .generator import Generator
from .prelude import PRELUDE

__all__ = [
    "TAPES",
    "Verdict",
    "check",
    "decompiled_program",
    "local_temporaries",
    "picture",
    "program",
    "run",
]


def program(seed: int, size: int = 12) -> str:
    """The module for ``seed``: the prelude, then the random statements."""
    return PRELUDE + "\n\n" + Generator(seed, size).module(size)


def decompiled_program(source: str) -> str:
    """The decompiled source of the whole module's code object."""
    from depyf_report import decompile

    return decompile(compile(source, "<random program>", "exec"))


def check(seed: int, size: int = 12) -> Verdict:
    """Decompile the module for ``seed``, run both, and say how they compare."""
    from depyf_report.decompiler.structuring.fallback import STATE_MACHINE_NOTE

    source = program(seed, size)
    verdict = Verdict(seed, "same", source=source)
    try:
        expected = run(source)
    except SyntaxError as error:
        verdict.kind, verdict.detail = "bad program", str(error)
        return verdict
    try:
        verdict.decompiled = decompiled_program(source)
    except Exception as error:  # a decompile error is a finding, not a crash here
        verdict.kind, verdict.detail = "decompile raised", f"{type(error).__name__}: {error}"
        return verdict
    verdict.state_machine = STATE_MACHINE_NOTE in verdict.decompiled
    with contextlib.suppress(SyntaxError, ValueError, RecursionError, MemoryError):
        code = compile(verdict.decompiled, "<decompiled program>", "exec")
        verdict.local_temporaries = local_temporaries(code)
    try:
        actual = run(verdict.decompiled)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        verdict.kind, verdict.detail = "does not recompile", f"{type(error).__name__}: {error}"
        return verdict
    verdict.aspects = compare(expected, actual)
    if verdict.aspects:
        verdict.kind = "differs"
        from ..behaviour import first_difference

        leaked = leaked_names(expected, actual)
        verdict.detail = (f"leaked {', '.join(leaked)}; " if leaked else "") + first_difference(
            expected, actual
        )
    return verdict
