"""Lookups across one process's records, computed once before any page is built."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import PurePath

from ..dump import ProcessDump
from ..model import Compile, CompiledGraph, DebugSource, Function
from . import urls


@dataclass
class ProcessContext:
    """One process's records with the cross references render needs."""

    dump: ProcessDump
    label: str  # how pages name the process: "rank 1", "worker-3", or ""
    compiles_of: dict[str, list[Compile]] = field(default_factory=dict)
    resumes_of: dict[str, list[Function]] = field(default_factory=dict)
    function_of: dict[str, str] = field(default_factory=dict)  # compile id -> Function id
    debug_of: dict[str, DebugSource] = field(default_factory=dict)  # compile id -> file

    @classmethod
    def build(cls, dump: ProcessDump, label: str) -> ProcessContext:
        # A restarted attempt may not name its function; another attempt of the
        # same frame does.
        frames = {c.frame_id: c.function for c in dump.compiles.values() if c.function}
        compiles_of: dict[str, list[Compile]] = defaultdict(list)
        for record in sorted(dump.compiles.values(), key=compile_order):
            function = record.function or frames.get(record.frame_id)
            if function:
                compiles_of[function].append(record)
        resumes_of: dict[str, list[Function]] = defaultdict(list)
        for fn in dump.functions.values():
            if fn.resume and fn.resume.parent:
                resumes_of[fn.resume.parent].append(fn)
        for children in resumes_of.values():
            children.sort(key=lambda fn: (fn.resume.resume_line or 0, fn.id))
        function_of = {c.id: fn for fn, cs in compiles_of.items() for c in cs}
        debug_of = {
            s.compile_id: s for s in dump.debug.sources if s.kind == "function" and s.compile_id
        }
        return cls(dump, label, dict(compiles_of), dict(resumes_of), function_of, debug_of)

    @property
    def name(self) -> str:
        return self.dump.name

    def functions(self) -> list[Function]:
        """User functions first, each followed by the resume functions it led to."""
        ordered: list[Function] = []
        seen: set[str] = set()

        def visit(fn: Function) -> None:
            if fn.id in seen:
                return
            seen.add(fn.id)
            ordered.append(fn)
            for child in self.resumes_of.get(fn.id, []):
                visit(child)

        for fn in sorted(self.dump.functions.values(), key=function_order):
            if not (fn.resume and fn.resume.parent in self.dump.functions):
                visit(fn)
        for fn in sorted(self.dump.functions.values(), key=function_order):
            visit(fn)  # resume functions caught in a cycle of parents
        return ordered

    def roots(self) -> list[Function]:
        """Functions that no other function in the dump led to."""
        return [
            fn
            for fn in self.functions()
            if not (fn.resume and fn.resume.parent in self.dump.functions)
        ]

    def graph(self, graph_id: str) -> CompiledGraph | None:
        return self.dump.graphs.get(graph_id)

    def compiles(self) -> list[Compile]:
        return sorted(self.dump.compiles.values(), key=compile_order)

    def function(self, function_id: str | None) -> Function | None:
        return self.dump.functions.get(function_id) if function_id else None

    def compile(self, compile_id: str) -> Compile | None:
        return self.dump.compiles.get(compile_id)

    # --- links -------------------------------------------------------------------

    def function_href(self, function_id: str | None) -> str | None:
        if function_id in self.dump.functions:
            return urls.function_page(self.name, function_id)
        return None

    def graph_href(self, graph_id: str) -> str | None:
        if graph_id in self.dump.graphs:
            return urls.graph_page(self.name, graph_id)
        return None

    def compile_href(self, compile_id: str) -> str | None:
        page = self.function_href(self.function_of.get(compile_id))
        return urls.with_anchor(page, urls.compile_anchor(compile_id)) if page else None

    def entry_href(self, compile_id: str) -> str | None:
        """The cache entry a compile produced, on its function's page."""
        return self._entry_hrefs.get(compile_id)

    @cached_property
    def _entry_hrefs(self) -> dict[str, str]:
        hrefs = {}
        for fn in self.dump.functions.values():
            page = urls.function_page(self.name, fn.id)
            for index, entry in enumerate(fn.entries):
                hrefs[entry.compile_id] = urls.with_anchor(page, urls.entry_anchor(index))
        return hrefs

    def source_linker(self, function_id: str | None):
        """Links "file.py:line" places inside a function's source to its page's lines."""
        fn = self.function(function_id)
        if fn and fn.resume and fn.resume.original:
            fn = self.function(fn.resume.original) or fn
        if not fn or not fn.source:
            return None
        page = urls.function_page(self.name, fn.id)
        last = fn.first_line + len(fn.source.splitlines())

        def href(filename: str, line: int) -> str | None:
            same = filename == fn.filename or PurePath(filename).name == PurePath(fn.filename).name
            if same and fn.first_line <= line < last:
                return urls.with_anchor(page, urls.source_line(line))
            return None

        return href

    def source_href(self, function_id: str | None, filename: str | None, line: int | None):
        """The line of the function's source that ``filename:line`` names, if shown."""
        linker = self.source_linker(function_id)
        if not (linker and line):
            return None
        fn = self.function(function_id)
        return linker(filename or fn.filename, line)

    @cached_property
    def names_digest(self) -> str:
        """A hash of every id and name a page may link to, for incremental builds."""
        names = [
            sorted((f.id, f.name, len(f.entries)) for f in self.dump.functions.values()),
            sorted((g.id, g.name) for g in self.dump.graphs.values()),
            sorted(self.dump.compiles),
        ]
        return digest(names)


def function_title(fn: Function) -> str:
    """How pages name a function; resume functions of one break differ by their line."""
    title = fn.qualname or fn.name
    if fn.resume and fn.resume.resume_line is not None:
        return f"{title} (from line {fn.resume.resume_line})"
    return title


def break_summary(reason: str) -> str:
    """The first line of a graph-break reason or failure: what groups those of one cause."""
    first = reason.strip().splitlines()[0] if reason.strip() else "unknown reason"
    return first.removeprefix("Graph Break Reason: ").strip()


def digest(*records) -> str:
    """A stable hash of records: dataclasses, lists, strings.

    A record's repr lists every field in a fixed order (dicts in the order they
    were read), and is several times faster than converting to JSON.
    """
    return hashlib.sha1(repr(records).encode()).hexdigest()


def compile_order(record: Compile) -> tuple:
    return (record.frame_id, record.frame_compile_id, record.attempt, record.id)


def function_order(fn: Function) -> tuple:
    return (fn.filename, fn.first_line, fn.qualname, fn.id)


def graph_order(graph: CompiledGraph) -> tuple:
    number = graph.name.rsplit("_", 1)[-1]
    numbered = number.isascii() and number.isdigit() and len(number) < 18
    return (int(number) if numbered else 1 << 60, graph.name, graph.id)
