"""Resolve what the user names on the command line to a code object or function."""

from __future__ import annotations

import importlib
import importlib.util
import marshal
import types
from pathlib import Path

from .errors import UserError

# 16-byte header of a .pyc since Python 3.7 (PEP 552): magic, flags, then
# either mtime+size or a source hash.
_PYC_HEADER = 16


def load_target(target: str) -> types.CodeType | object:
    """Return the code object or object that ``TARGET`` names.

    ``TARGET`` is a ``.py`` file (compiled here), a ``.pyc`` written by this
    Python, or ``module:qualname`` (``module`` alone gives its whole source).
    """
    path = Path(target)
    if path.suffix == ".py":
        return _compile_file(path)
    if path.suffix == ".pyc":
        return _load_pyc(path)
    if ":" in target or not path.suffix:
        return _import_object(target)
    raise UserError(f"{target}: expected a .py file, a .pyc file or module:qualname")


def _compile_file(path: Path) -> types.CodeType:
    try:
        source = path.read_bytes()
    except OSError as error:
        raise UserError(f"{path}: cannot read: {error.strerror}") from None
    try:
        return compile(source, str(path), "exec", dont_inherit=True)
    except SyntaxError as error:
        raise UserError(f"{path}:{error.lineno}: not valid Python: {error.msg}") from None


def _load_pyc(path: Path) -> types.CodeType:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise UserError(f"{path}: cannot read: {error.strerror}") from None
    if data[:4] != importlib.util.MAGIC_NUMBER:
        raise UserError(
            f"{path}: written by another Python version; decompile it with the Python that wrote it"
        )
    try:
        code = marshal.loads(data[_PYC_HEADER:])
    except (EOFError, ValueError, TypeError):
        raise UserError(f"{path}: damaged .pyc file") from None
    if not isinstance(code, types.CodeType):
        raise UserError(f"{path}: holds no code object")
    return code


def _import_object(target: str) -> object:
    module_name, _, qualname = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise UserError(f"{target}: cannot import {module_name!r}: {error}") from None
    if not qualname:
        return _module_code(module, target)
    obj: object = module
    for part in qualname.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise UserError(f"{target}: {module_name} has no {qualname!r}") from None
    return obj


def _module_code(module: types.ModuleType, target: str) -> types.CodeType:
    spec = module.__spec__
    loader = getattr(spec, "loader", None)
    code = loader.get_code(module.__name__) if hasattr(loader, "get_code") else None
    if code is None:
        raise UserError(f"{target}: no Python code for this module (built in or extension)")
    return code
