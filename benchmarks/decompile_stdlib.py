"""The standard library modules the decompiler benchmarks run over.

Every top-level module of the running Python: each ``Lib/*.py`` and each package's
``__init__.py``. The test suite, IDLE and site-packages are left out.
"""

import sysconfig
import tokenize
import types
from dataclasses import dataclass
from pathlib import Path

SKIPPED_DIRS = {"test", "idlelib", "site-packages"}


@dataclass(frozen=True)
class StdlibModule:
    name: str
    path: str

    def source(self) -> str:
        with tokenize.open(self.path) as file:  # honours a coding cookie
            return file.read()

    def code(self) -> types.CodeType:
        return compile(self.source(), self.path, "exec", dont_inherit=True)


def stdlib_dir() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


def stdlib_modules(only: set[str] | None = None) -> list[StdlibModule]:
    """Top-level modules, sorted by name; ``only`` keeps just the named ones."""
    root = stdlib_dir()
    found = [StdlibModule(path.stem, str(path)) for path in root.glob("*.py")]
    for init in root.glob("*/__init__.py"):
        if init.parent.name not in SKIPPED_DIRS:
            found.append(StdlibModule(init.parent.name, str(init)))
    if only is not None:
        missing = only - {module.name for module in found}
        if missing:
            raise SystemExit(f"not top-level stdlib modules here: {', '.join(sorted(missing))}")
        found = [module for module in found if module.name in only]
    return sorted(found, key=lambda module: module.name)


def one_line(error: BaseException) -> str:
    """An exception as a single line: type and the first line of its message."""
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"[:300]
