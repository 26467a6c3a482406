"""The public entry point: ``decompile(fn_or_code) -> str``."""

import inspect
import types


def code_of(obj) -> types.CodeType:
    """The code object behind a function, method, generator function or code."""
    obj = inspect.unwrap(obj) if callable(obj) else obj
    obj = getattr(obj, "__func__", obj)
    code = getattr(obj, "__code__", obj)
    if not isinstance(code, types.CodeType):
        raise TypeError(f"cannot decompile {type(obj).__name__!r}: not a function or code object")
    return code


def decompile(obj) -> str:
    """Return Python source that recompiles to code meaning the same as ``obj``."""
    raise NotImplementedError("the decompiler is being written")
