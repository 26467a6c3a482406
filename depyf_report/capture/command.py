"""The words after ``depyf-report run -o DUMP --``: python's own command line.

    [python] [interpreter options] (SCRIPT | -m MODULE | -c CODE | -) ARGS...

read as the interpreter reads it, into the options and the program they run.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from ..errors import UserError

# One-letter options that take no value; -P came with Python 3.11.
_FLAGS = set("bBdEIOqRsuv") | ({"P"} if sys.version_info >= (3, 11) else set())
_WITH_VALUE = {"W", "X"}
_LONG_WITH_VALUE = {"--check-hash-based-pycs"}
_NOT_UNDER_CAPTURE = {
    "i": "-i (a prompt after the program ends) cannot run under capture",
    "x": "-x (skip the script's first line) is not supported under capture",
    "h": "-h prints python's help and runs nothing; there is nothing to capture",
    "?": "-? prints python's help and runs nothing; there is nothing to capture",
    "V": "-V prints python's version and runs nothing; there is nothing to capture",
    "S": "-S (no site-packages) hides torch and depyf-report themselves from capture",
}
# python, python3, python3.11, python3.13t, python3.11-dbg, python.exe, ...
_INTERPRETER = re.compile(r"python(\d+(\.\d+)*)?[dmtw]?(-dbg)?(\.exe)?", re.IGNORECASE)


@dataclass(frozen=True)
class Program:
    """What the interpreter runs: a script, a module (-m), code (-c) or stdin (-)."""

    kind: str  # "script", "module", "code" or "stdin"
    target: str  # the script's path, the module's name, the code; "-" for stdin
    args: tuple[str, ...] = ()

    def words(self) -> list[str]:
        """The program as python's command line spells it."""
        flag = {"module": ["-m"], "code": ["-c"], "stdin": []}.get(self.kind, ["--"])
        return [*flag, self.target, *self.args]


@dataclass(frozen=True)
class PythonCommand:
    options: tuple[str, ...]  # for the interpreter, each value a word of its own
    program: Program


def is_interpreter(word: str) -> bool:
    """Whether the command's first word names a Python rather than the script:
    ``python3.11`` is, ``python_job.py`` is not."""
    path = Path(word)
    if path.suffix == ".py":
        return False
    if _INTERPRETER.fullmatch(path.name):
        return True
    try:
        return os.path.samefile(word, sys.executable)
    except (OSError, ValueError):
        return False


def python_command(words: list[str]) -> PythonCommand:
    """Read ``words`` as ``python`` would; UserError for what it cannot run."""
    if words and is_interpreter(words[0]):
        words = words[1:]
    options: list[str] = []
    at = 0
    while at < len(words):
        word = words[at]
        if word == "--":  # the end of the options: the script comes next
            at += 1
            break
        if not word.startswith("-") or word == "-":
            break
        if word.startswith("--"):
            at = _long_option(words, at, options)
            continue
        program, at = _short_options(words, at, options)
        if program is not None:
            return PythonCommand(tuple(options), program)
    rest = words[at:]
    if not rest:
        raise UserError("nothing to run: give the script after --, e.g. -- python train.py")
    kind = "stdin" if rest[0] == "-" and words[at - 1 : at] != ["--"] else "script"
    return PythonCommand(tuple(options), Program(kind, rest[0], tuple(rest[1:])))


def _long_option(words: list[str], at: int, options: list[str]) -> int:
    word = words[at]
    if word in _LONG_WITH_VALUE:
        if at + 1 >= len(words):
            raise UserError(f"{word} needs a value")
        options += [word, words[at + 1]]
        return at + 2
    if word in ("--help", "--version") or word.startswith("--help-"):
        raise UserError(f"{word} prints python's help or version and runs nothing")
    raise UserError(f"{word}: not an option python knows")


def _short_options(words: list[str], at: int, options: list[str]) -> tuple[Program | None, int]:
    """Read one word of one-letter options (``-uB``, ``-Wignore``, ``-c CODE``)."""
    word = words[at]
    for index, letter in enumerate(word[1:], start=2):
        rest = word[index:]
        if letter in "cm":  # the program, and all after it is its arguments
            value, after = _value(words, at, rest, letter)
            kind = "code" if letter == "c" else "module"
            return Program(kind, value, tuple(words[after:])), after
        if letter in _WITH_VALUE:
            value, after = _value(words, at, rest, letter)
            options += [f"-{letter}", value]
            return None, after
        if letter in _NOT_UNDER_CAPTURE:
            raise UserError(_NOT_UNDER_CAPTURE[letter])
        if letter not in _FLAGS:
            raise UserError(f"-{letter}: not an option python {sys.version.split()[0]} knows")
        options.append(f"-{letter}")
    return None, at + 1


def _value(words: list[str], at: int, rest: str, letter: str) -> tuple[str, int]:
    """An option's value: the rest of its word, else the next word."""
    if rest:
        return rest, at + 1
    if at + 1 < len(words):
        return words[at + 1], at + 2
    what = {"c": "code", "m": "a module name", "W": "a value", "X": "a value"}[letter]
    raise UserError(f"-{letter} needs {what}")
