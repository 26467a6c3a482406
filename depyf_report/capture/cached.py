"""What torch's cache holds for one function now, as dump records, without a capture.

``depyf_report.show(fn)`` reads this after the compiled function has run: each
cache entry's guards and transformed code (decompiled), for the function and for
the resume functions its entries call. Nothing is recorded while torch compiles,
so what only the structured trace tells (graph stages, kernels, break reasons,
compile times) is not here; a capture has it.
"""

from __future__ import annotations

import types

from ..dump import CacheEntry, CodeView, Function
from ..errors import UserError
from ..notebook import CachedCode
from . import adapter
from .decompile_worker import views
from .functions import FunctionIds, function_at, new_function, resume_point
from .guards import parse_guard_tree, strip_comment

# torch.compile's wrapper, an OptimizedModule, a bound method, a module compiled
# with ``module.compile()``: each holds the callable whose code Dynamo compiled.
_WRAPPED_BY = ("_torchdynamo_orig_callable", "_orig_mod", "_compiled_call_impl", "__func__")
_UNWRAP_LIMIT = 20


def show(target) -> CachedCode:
    """``depyf_report.show(fn)``: ``fn``'s cache entries, guards and decompiled code,
    read from torch's cache, to display in a notebook (or print).

    Captures nothing: call the compiled function first. Raises ``UserError`` when
    ``fn`` is not a function or was never compiled.
    """
    return CachedCode(cached_functions(target))


def cached_functions(target) -> list[Function]:
    """``target``'s function and the resume functions its entries call, each with
    the cache entries torch holds for it, in the order Dynamo checks them.

    Raises ``UserError`` when ``target`` is no function, or has nothing in the cache.
    """
    code = code_of(target)
    if code is None:
        raise UserError(
            f"show() takes a function, a method, an nn.Module or what torch.compile "
            f"returned; got {_described(target)}"
        )
    name = getattr(code, "co_qualname", code.co_name)
    try:
        if not adapter.cache_entries(code):
            raise UserError(
                f"{name} ({code.co_filename}:{code.co_firstlineno}) has nothing in torch's "
                "cache: it was never compiled, or torch._dynamo.reset() cleared it. "
                "Call the torch.compile'd function first, then show it."
            )
        return _CacheReader(_globals_of(target)).read(code)
    except adapter.Unavailable as missing:
        raise UserError(f"cannot read torch's cache for {name}: {missing}") from None


def code_of(target) -> types.CodeType | None:
    """The code object Dynamo keys its cache on for ``target``, or None."""
    for _ in range(_UNWRAP_LIMIT):
        if isinstance(target, types.CodeType):
            return target
        inner = next(
            (
                value
                for attribute in _WRAPPED_BY
                if (value := _attribute(target, attribute)) is not None
            ),
            None,
        )
        if inner is not None:
            target = inner
        elif isinstance(target, types.FunctionType):
            return target.__code__
        elif callable(_attribute(target, "forward")):  # an nn.Module called directly
            target = target.forward
        else:
            return None
    return None


def _attribute(target, name: str):
    try:
        return getattr(target, name, None)
    except Exception:  # a property or __getattr__ that raises: not a wrapper
        return None


def _globals_of(target) -> dict:
    """Where Dynamo installed the resume functions: the compiled function's globals."""
    for _ in range(_UNWRAP_LIMIT):
        if isinstance(target, types.FunctionType) and not _attribute(
            target, "_torchdynamo_orig_callable"
        ):
            return target.__globals__
        inner = next(
            (v for a in (*_WRAPPED_BY, "forward") if (v := _attribute(target, a)) is not None),
            None,
        )
        if inner is None:
            return {}
        target = inner
    return {}


def _described(target) -> str:
    text = repr(target)
    return f"{type(target).__name__} {text[:60]}{'...' if len(text) > 60 else ''}"


class _CacheReader:
    """Reads one function's entries and, through their resume calls, the rest."""

    def __init__(self, scope: dict) -> None:
        self.scope = scope
        self.ids = FunctionIds()
        self.functions: dict[str, Function] = {}
        self.codes: dict[str, types.CodeType] = {}
        self.parents: dict[types.CodeType, str] = {}

    def read(self, code: types.CodeType) -> list[Function]:
        pending, done = [code], set()
        while pending:
            code = pending.pop(0)
            if code not in done:
                done.add(code)
                pending += self._function(code)
        return list(self.functions.values())

    def _function(self, code: types.CodeType) -> list[types.CodeType]:
        """Records ``code``'s function; returns the resume functions its entries call."""
        function = new_function(self.ids.assign(code), code)
        function.original.fill(views(code))
        function.resume = resume_point(code, self._find_parent(code))
        self.functions[function.id], self.codes[function.id] = function, code
        called = []
        for live in adapter.cache_entries(code):
            entry, resumes = self._entry(live, function.id)
            function.entries.append(entry)
            called += resumes
        return called

    def _entry(self, live, function_id: str) -> tuple[CacheEntry, list[types.CodeType]]:
        new_code = getattr(live, "code", None)
        guards = parse_guard_tree(adapter.entry_guard_tree(live) or "")
        shape = adapter.entry_shape_guards(live)
        if shape is not None:
            guards.shape_guards = [strip_comment(s) for s in shape]
        entry = CacheEntry(
            compile_id=adapter.entry_compile_id(live) or "?",
            guards=guards,
            code=CodeView(name=getattr(new_code, "co_name", "?")),
        )
        resumes = []
        if isinstance(new_code, types.CodeType):
            entry.code.fill(views(new_code, dynamo=True))
            resumes = self._resume_codes(new_code, function_id)
            entry.resume_functions = [self.ids.assign(c) for c in resumes]
        return entry, resumes

    def _resume_codes(self, new_code: types.CodeType, parent: str) -> list[types.CodeType]:
        found = []
        for name in new_code.co_names:
            value = self.scope.get(name) if name.startswith("__resume_at_") else None
            code = getattr(value, "__code__", value)
            if isinstance(code, types.CodeType):
                self.parents.setdefault(code, parent)
                found.append(code)
        return found

    def _find_parent(self, code: types.CodeType):
        def find(name: str, filename: str, line: int):
            original = function_at(self.functions.values(), name, filename, line)
            parent = self.parents.get(code, original)
            return parent, (original, self.codes[original]) if original else None

        return find
