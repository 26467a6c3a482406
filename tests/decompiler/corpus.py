"""The snippet corpus: small modules, one per construct, with the calls to make.

Each file in ``snippets/`` is plain Python that defines functions (and classes)
and a ``CASES`` list of ``(function_name, args)`` or ``(function_name, args,
kwargs)``. A first line ``# requires: 3.11`` keeps a file to newer Pythons.

A snippet runs in two ways, always from a freshly executed module so no state
leaks between tests:
- module: the whole module's code object is decompiled and the result executed;
- function: one function is decompiled and executed into a fresh copy of the
  original module, replacing the original definition.
"""

import functools
import re
import sys
import types
from dataclasses import dataclass
from pathlib import Path

from depyf_report import decompile

SNIPPETS = Path(__file__).parent / "snippets"
REQUIRES = re.compile(r"#\s*requires:\s*(\d+)\.(\d+)")
MODULE_NAME = "snippet"  # one name for both sides, so __module__ and reprs agree


@dataclass(frozen=True)
class Snippet:
    name: str
    path: Path

    @property
    def source(self) -> str:
        return self.path.read_text()

    def cases(self) -> dict[str, list[tuple[tuple, dict]]]:
        return grouped_cases(self.original())

    def original(self) -> types.ModuleType:
        return run_module(compile(self.source, str(self.path), "exec", dont_inherit=True))

    def decompiled_module(self) -> tuple[types.ModuleType, str]:
        source = decompiled_module_source(self)
        return run_module(compile(source, f"<decompiled {self.name}>", "exec")), source

    def decompiled_function(self, name: str) -> tuple[types.FunctionType, types.ModuleType, str]:
        """``name`` decompiled on its own, living in a fresh copy of the module."""
        source = decompile(resolve(self.original(), name))
        module = self.original()
        del module.__dict__[name]  # so an output lacking the definition cannot pass
        exec(compile(source, f"<decompiled {self.name}.{name}>", "exec"), module.__dict__)
        assert name in module.__dict__, f"the decompiled source defines no {name!r}:\n{source}"
        return module.__dict__[name], module, source


def grouped_cases(module: types.ModuleType) -> dict[str, list[tuple[tuple, dict]]]:
    """The module's calls to make, by function name, in file order.

    Arguments are taken from the module that runs them, so an argument that is an
    instance of a snippet class belongs to that module's class.
    """
    grouped: dict[str, list] = {}
    for case in module.CASES:
        name, args, kwargs = (*case, {}) if len(case) == 2 else case
        grouped.setdefault(name, []).append((args, kwargs))
    return grouped


def applies_here(path: Path) -> bool:
    match = REQUIRES.match(path.read_text().partition("\n")[0])
    return match is None or sys.version_info[:2] >= (int(match[1]), int(match[2]))


def snippets() -> list[Snippet]:
    """The snippets the running Python can compile, by name."""
    paths = sorted(SNIPPETS.glob("*.py"))
    return [Snippet(path.stem, path) for path in paths if applies_here(path)]


@functools.cache
def decompiled_module_source(snippet: Snippet) -> str:
    module_code = compile(snippet.source, str(snippet.path), "exec", dont_inherit=True)
    return decompile(module_code)


def run_module(code: types.CodeType) -> types.ModuleType:
    module = types.ModuleType(MODULE_NAME)
    exec(code, module.__dict__)
    return module


def resolve(module: types.ModuleType, dotted: str):
    value = module
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


def plain_functions(snippet: Snippet) -> list[str]:
    """Case functions that stand alone: top-level, undecorated, without free variables."""
    module = snippet.original()
    names = []
    for name in snippet.cases():
        value = module.__dict__.get(name)
        standalone = isinstance(value, types.FunctionType) and not value.__code__.co_freevars
        if standalone and value.__code__.co_name == name and not hasattr(value, "__wrapped__"):
            names.append(name)
    return names
