"""Run a random module and its decompiled self, and say how they differ.

A run records the module's own outcome and log, then each entry point (``f`` and the
coroutine ``h``) on every tape: its log and its result or exception; last, the module's
namespace. Values are pictured by content (``behaviour.describe``), functions,
classes and generators by ``__name__`` and ``__qualname__`` (and a class by the keys
of its ``__dict__``), so that two separately executed modules compare equal exactly
when they behave the same.
"""

from __future__ import annotations

import contextlib
import inspect
import re
import signal
import types
from dataclasses import dataclass, field

from ..behaviour import MAX_DEPTH, describe

TAPES = [
    [1, 2, 3],
    [0, 5, 1, 1, 7],
    [2, 2, 0, 4],
    [3, 1, 4, 1, 5, 9, 2, 6],
    [7],
    [0],
    [5, 0, 0, 2, 8],
    [1, 1, 1, 0, 2, 0, 1],
]

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
# What an address becomes in a picture: two runs put the same object elsewhere, and
# a program may write an object's repr into a string (an f-string of a generator,
# seed 6660).
SOMEWHERE = " at 0x..."
# The decompiler's temporaries (_t1, mangled _C__t1) and hidden names (__0, _C__0).
TEMPORARY = re.compile(r"\b_(?:[A-Za-z0-9]+__)?t\d+\b|\b(?:_[A-Za-z0-9]+)?__\d+\b")
# A temporary alone: a hidden name among locals is the parameter of a helper function
# that stands for a comprehension's own ``.0``.
LOCAL_TEMPORARY = re.compile(r"_(?:[A-Za-z0-9]+__)?t\d+")
# Keys of a class's __dict__ whose values say where it was written, not what it is.
PLACE = {"__firstlineno__", "__static_attributes__"}


# A list or tuple longer than this, of plain values only, is pictured by its repr,
# which tells them apart as ``describe`` does (1 from True and 1.0, 0.0 from -0.0).
LONG = 64
PLAIN = frozenset({type(None), bool, int, float, complex, str, bytes})


def _plain_repr(items) -> str | None:
    if not PLAIN.issuperset(map(type, items)):
        return None
    try:
        return ADDRESS.sub(SOMEWHERE, repr(items))
    except ValueError:  # (an int too long for repr: item by item, as describe does)
        return None


def exception_context(error: BaseException, levels: int = 3):
    """The exceptions being handled where ``error`` was raised (``__context__``), by
    type and message, a few levels down, or None: code moved into or out of an except
    clause changes them, and nothing else may show it."""
    context = error.__context__
    if context is None or levels == 0:
        return None
    message = ADDRESS.sub("", str(context))
    return (type(context).__qualname__, message, exception_context(context, levels - 1))


def picture(value, depth: int = 0):
    """``describe``, but with the names of functions, classes and generators."""
    if depth > MAX_DEPTH:
        return ("...",)
    deeper = depth + 1
    if isinstance(value, types.FunctionType):
        return (
            "function",
            value.__name__,
            value.__qualname__,
            picture(value.__defaults__, deeper),
            picture(value.__kwdefaults__, deeper),
        )
    if isinstance(value, types.MethodType):
        return ("method", picture(value.__func__, deeper))
    if isinstance(value, type):
        members = {
            key: (picture(item, deeper) if key not in PLACE and not key.startswith("__") else key)
            for key, item in vars(value).items()
        }
        return ("class", value.__name__, value.__qualname__, sorted(members.items(), key=repr))
    if inspect.isgenerator(value) or inspect.iscoroutine(value) or inspect.isasyncgen(value):
        return (type(value).__name__, value.__name__, value.__qualname__)
    if isinstance(value, BaseException):
        return (
            "exception",
            type(value).__qualname__,
            ADDRESS.sub("", str(value)),
            [picture(sub, deeper) for sub in getattr(value, "exceptions", ())],
            picture(value.__cause__, deeper),
            value.__suppress_context__,
            exception_context(value),
        )
    if isinstance(value, (list, tuple)) and len(value) > LONG:
        # (``x *= 5`` on a list that each call reaches grows it fivefold a call: item
        # by item, picturing it came to cost more than everything else, seed 421)
        text = _plain_repr(value)
        if text is not None:
            return (type(value).__name__, "plain", text)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [picture(item, deeper) for item in value])
    if isinstance(value, (set, frozenset)):
        return (type(value).__name__, sorted(repr(picture(item, deeper)) for item in value))
    if isinstance(value, dict):
        return ("dict", [(picture(k, deeper), picture(v, deeper)) for k, v in value.items()])
    if isinstance(value, str):
        return describe(ADDRESS.sub(SOMEWHERE, value))
    if isinstance(value, (int, float, complex, bytes, type(None), type(...))):
        return describe(value)
    state = getattr(value, "__dict__", None)
    if state is not None:
        return ("object", type(value).__qualname__, picture(state, deeper))
    return ("object", type(value).__qualname__, ADDRESS.sub("", repr(value)))


# CPU seconds one call may take: every loop reads the tape, which runs out long
# before, so a call still running then loops where the original did not.
SECONDS_PER_CALL = 2


class Hung(BaseException):
    """A call went on past SECONDS_PER_CALL."""


def _hung(signum, frame):
    raise Hung(f"still running after {SECONDS_PER_CALL} s of CPU time")


@contextlib.contextmanager
def _limited():
    previous = signal.signal(signal.SIGVTALRM, _hung)
    signal.setitimer(signal.ITIMER_VIRTUAL, SECONDS_PER_CALL)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)


def _namespace(namespace: dict) -> dict:
    return {name: picture(value) for name, value in namespace.items() if name != "__builtins__"}


def run(source: str) -> dict:
    """Everything observable about running the module ``source``."""
    code = compile(source, "<random program>", "exec")
    namespace: dict = {"__name__": "random_program"}
    record: dict = {}
    try:
        with _limited():
            exec(code, namespace)
        record["module"] = ("ran",)
    except BaseException as error:  # the outcome under comparison
        record["module"] = ("raised", picture(error))
    log = namespace["LOG"]
    record["module log"] = picture(log)
    record["module namespace"] = _namespace(namespace)
    for entry in ("f", "h"):
        for number, numbers in enumerate(TAPES):
            log.clear()
            try:
                with _limited():
                    result = namespace[entry](namespace["Tape"](numbers))
                    if entry == "h":
                        result = namespace["drive"](result)
                outcome = ("returned", picture(result))
            except BaseException as error:  # the outcome under comparison
                outcome = ("raised", picture(error))
            # (a hung call's log item by item, so that two cuts compare by prefix)
            pictured = [picture(item) for item in log] if _is_hung(outcome) else picture(log)
            record[f"{entry} tape {number}"] = {"log": pictured, "outcome": outcome}
            if _is_hung(outcome):  # (once is enough, and each costs seconds)
                break
    record["namespace after"] = _namespace(namespace)
    return record


@dataclass
class Verdict:
    """How one seed's decompiled module compares with the original."""

    seed: int
    kind: str  # same, differs, does not recompile, decompile raised, bad program
    aspects: list = field(default_factory=list)  # for differs: log, result, exception, ...
    detail: str = ""
    state_machine: bool = False
    # temporaries a structured function of the decompiled module keeps as locals
    local_temporaries: list = field(default_factory=list)
    source: str = ""
    decompiled: str = ""

    def __str__(self) -> str:
        what = f" ({', '.join(self.aspects)})" if self.aspects else ""
        return f"{self.kind}{what}: {self.detail}" if self.detail else self.kind + what


def compare(expected: dict, actual: dict) -> list[str]:
    """The aspects in which two runs differ: log, result, exception, namespace."""
    aspects = []
    for key, want in expected.items():
        got = actual.get(key)
        if want == got or got is None:  # (None: not run, after a call that hung)
            continue
        if "tape" in key and _cut_alike(want, got):
            continue
        if "namespace" in key:
            aspects.append("namespace")
        elif key == "module log" or ("tape" in key and want["log"] != got["log"]):
            aspects.append("log")
        if key == "module" or ("tape" in key and want["outcome"] != got["outcome"]):
            a, b = (want, got) if key == "module" else (want["outcome"], got["outcome"])
            aspects.append("exception" if "raised" in (a[0], b[0]) else "result")
    # (the records can be hundreds of megabytes printed, seed 5965's strings doubling
    # in a loop: only the parts that differ are printed and searched)
    got, want = _differing(expected, actual)
    if "'Hung'" in repr(got) and "'Hung'" not in repr(want):
        aspects.append("hang")
    if leaked_names(expected, actual):
        aspects.append("leaked name")
    return sorted(set(aspects))


def _is_hung(outcome: tuple) -> bool:
    return outcome[0] == "raised" and outcome[1][:2] == ("exception", "Hung")


def _cut_alike(want, got) -> bool:
    """Both runs of a call hung, the same way, and one's log begins the other's. The
    CPU limit cuts a hung call wherever it falls, which moves from run to run: seed
    4600 doubles a string on each pass and was cut after one pass more or less."""
    if not (_is_hung(want["outcome"]) and _is_hung(got["outcome"])):
        return False
    shorter, longer = sorted((want["log"], got["log"]), key=len)
    return want["outcome"] == got["outcome"] and longer[: len(shorter)] == shorter


def local_temporaries(code: types.CodeType) -> list[str]:
    """The decompiler's temporaries that the functions in ``code`` bind as locals
    (``locals()`` shows them), apart from functions written as a state machine, which
    keep their state and stack slots in locals by design."""
    found = []
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found += local_temporaries(const)
    names = (*code.co_varnames, *code.co_cellvars)
    if code.co_flags & inspect.CO_NEWLOCALS and "_state" not in names:
        where = getattr(code, "co_qualname", code.co_name)  # (3.10: no co_qualname)
        found += [f"{where}: {name}" for name in names if LOCAL_TEMPORARY.fullmatch(name)]
    return found


def leaked_names(expected: dict, actual: dict) -> list[str]:
    """The decompiler's temporaries that the decompiled run shows and the original not,
    in the parts of the records that differ (a part alike on both sides leaks none)."""
    got, want = _differing(expected, actual)
    return sorted(set(TEMPORARY.findall(repr(got))) - set(TEMPORARY.findall(repr(want))))


def _differing(expected: dict, actual: dict) -> tuple[dict, dict]:
    """The parts of ``actual`` and of ``expected`` that are not equal to each other."""
    keys = [key for key in {**expected, **actual} if expected.get(key) != actual.get(key)]
    return {k: actual.get(k) for k in keys}, {k: expected.get(k) for k in keys}
