"""Whose code a file is: the user's, a third-party library's, the standard library's,
or torch's own.

A report leads with the user's code and folds the rest, so every function and
stack frame is classed from its file name alone: render reads dumps made on other
machines, where no import system can be asked.
"""

from __future__ import annotations

import re
from enum import Enum


class Origin(str, Enum):
    USER = "user"
    THIRD_PARTY = "third-party"
    STDLIB = "stdlib"
    TORCH = "torch"

    @property
    def label(self) -> str:
        return _LABELS[self]


_LABELS = {
    Origin.USER: "your code",
    Origin.THIRD_PARTY: "third-party libraries",
    Origin.STDLIB: "the standard library",
    Origin.TORCH: "torch",
}

# Folders of installed packages, on Linux, macOS, Windows and conda alike.
_PACKAGES = re.compile(r"[\\/](?:site|dist)-packages[\\/]", re.IGNORECASE)
# The first folder inside it names the package: torch, functorch and their kin.
_TORCH_PACKAGES = re.compile(
    r"[\\/](?:site|dist)-packages[\\/](?:torch|functorch|torchgen|triton)[\\/]", re.IGNORECASE
)
# A standard library: lib/python3.11/, lib/python311.zip, or \Lib\ on Windows.
_STDLIB = re.compile(r"[\\/]lib(?:64)?[\\/]python3\.?\d+t?(?:\.zip)?[\\/]|\\Lib\\")
# torch from a source checkout (pip install -e, or a build tree).
_TORCH_SOURCE = re.compile(
    r"[\\/]torch[\\/](?:_dynamo|_inductor|_functorch|fx|nn|_subclasses)[\\/]"
)


def origin_of(filename: str | None) -> Origin:
    """The origin of the code in ``filename``, as a traceback or code object names it."""
    if not filename:
        return Origin.USER
    if filename.startswith("<frozen ") or filename in ("<string>", "<stdin>"):
        return Origin.STDLIB if filename.startswith("<frozen ") else Origin.USER
    if _TORCH_PACKAGES.search(filename) or _TORCH_SOURCE.search(filename):
        return Origin.TORCH
    if _PACKAGES.search(filename):
        return Origin.THIRD_PARTY
    if _STDLIB.search(filename):
        return Origin.STDLIB
    return Origin.USER


# Functions Dynamo compiles that it wrote itself, such as the closure that installs
# a resume function: they are torch's, wherever their code says it lives.
_DYNAMO_MADE = ("install_resume_function_global", "<locals>._make_fn")


def function_origin(filename: str | None, qualname: str) -> Origin:
    """A compiled function's origin: its file's, unless Dynamo made it."""
    if any(part in qualname for part in _DYNAMO_MADE):
        return Origin.TORCH
    return origin_of(filename)
