"""Lookups across one process's records, computed once before any page is built."""

from __future__ import annotations

import functools
import hashlib
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import PurePath
from typing import TypeVar

from ..dump import Compile, CompiledGraph, DebugSource, FrameSummary, Function, ProcessDump
from ..origin import Origin, function_origin
from . import urls
from .names import short_name

DERIVED_KEPT = 32
T = TypeVar("T")


@dataclass
class ProcessContext:
    """One process's records with the cross references render needs."""

    dump: ProcessDump
    label: str  # how pages name the process: "rank 1", "worker-3", or ""
    compiles_of: dict[str, list[Compile]] = field(default_factory=dict)
    resumes_of: dict[str, list[Function]] = field(default_factory=dict)
    function_of: dict[str, str] = field(default_factory=dict)  # compile id -> Function id
    debug_of: dict[str, DebugSource] = field(default_factory=dict)  # compile id -> file
    # A restarted attempt is part of the compile that finished: attempt id -> final id,
    # and final id -> its attempts (itself last).
    final_of: dict[str, str] = field(default_factory=dict)
    attempts_of: dict[str, list[Compile]] = field(default_factory=dict)
    # What several pages derive from one record (a graph's provenance: its function
    # page, its own page and each output code page), made once per process.
    _derived: dict[tuple, object] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def build(cls, dump: ProcessDump, label: str) -> ProcessContext:
        # A restarted attempt may not name its function; another attempt of the
        # same frame does.
        frames = {c.frame_id: c.function for c in dump.compiles.values() if c.function}
        final_of, attempts_of = _attempts(dump.compiles.values())
        compiles_of: dict[str, list[Compile]] = defaultdict(list)
        for record in sorted(dump.compiles.values(), key=compile_order):
            function = record.function or frames.get(record.frame_id)
            if function and final_of[record.id] == record.id:
                compiles_of[function].append(record)
        resumes_of: dict[str, list[Function]] = defaultdict(list)
        for fn in dump.functions.values():
            if fn.resume and fn.resume.parent:
                resumes_of[fn.resume.parent].append(fn)
        for children in resumes_of.values():
            children.sort(key=lambda fn: (fn.resume.resume_line or 0, fn.id))
        function_of = {
            a.id: fn for fn, cs in compiles_of.items() for c in cs for a in attempts_of[c.id]
        }
        debug_of = {
            s.compile_id: s for s in dump.debug.sources if s.kind == "function" and s.compile_id
        }
        return cls(
            dump,
            label,
            dict(compiles_of),
            dict(resumes_of),
            function_of,
            debug_of,
            final_of,
            attempts_of,
        )

    @property
    def name(self) -> str:
        return self.dump.name

    def once(self, key: tuple, make: Callable[[], T]) -> T:
        """``make()``, made once for ``key`` and kept for the next page that asks:
        the last ``DERIVED_KEPT`` of them, so a process with many graphs stays small."""
        if key in self._derived:
            return self._derived[key]
        found = self._derived[key] = make()
        if len(self._derived) > DERIVED_KEPT:
            del self._derived[next(iter(self._derived))]
        return found

    def functions(self) -> list[Function]:
        """User functions first, each followed by the resume functions it led to."""
        return list(self._ordered)

    @cached_property
    def _ordered(self) -> tuple[Function, ...]:
        ordered: list[Function] = []
        seen: set[str] = set()

        def visit(fn: Function) -> None:
            if fn.id in seen:
                return
            seen.add(fn.id)
            ordered.append(fn)
            for child in self.resumes_of.get(fn.id, []):
                visit(child)

        every = sorted(
            self.dump.functions.values(), key=lambda fn: (origin_rank(fn), *function_order(fn))
        )
        for fn in every:
            if not (fn.resume and fn.resume.parent in self.dump.functions):
                visit(fn)
        for fn in every:
            visit(fn)  # resume functions caught in a cycle of parents
        return tuple(ordered)

    def listed(self) -> list[Function]:
        """The functions a report lists: all but torch's own (Dynamo's helpers, an
        optimizer's step), the user's first."""
        return [fn for fn in self.functions() if function_origin_of(fn) is not Origin.TORCH]

    def left_out(self) -> list[Function]:
        """torch's own functions, which are not listed."""
        return [fn for fn in self.functions() if function_origin_of(fn) is Origin.TORCH]

    def title(self, fn: Function) -> str:
        """``fn``'s title, unique among this process's functions."""
        return self.titles.get(fn.id) or readable_title(fn, self._original(fn))

    def _original(self, fn: Function) -> Function | None:
        original = self.function(fn.resume.original) if fn.resume else None
        return original if original is not None and not original.resume else None

    @cached_property
    def titles(self) -> dict[str, str]:
        """Function id -> a title no other function of the process has."""
        groups: dict[str, list[Function]] = defaultdict(list)
        for fn in self.functions():
            groups[readable_title(fn, self._original(fn))].append(fn)
        callers: dict[str, list[str]] = defaultdict(list)
        for fn in self.functions():
            for entry in fn.entries:
                for resume_id in entry.resume_functions:
                    callers[resume_id].append(entry.compile_id)
        titles = {}
        for title, same in groups.items():
            for fn, told in zip(same, _told_apart(title, same, callers)):
                titles[fn.id] = told
        return titles

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
        """Every compile once: restarted attempts are part of the one that finished."""
        finals = [c for c in self.dump.compiles.values() if self.final_of.get(c.id) == c.id]
        return sorted(finals, key=compile_order)

    def attempts(self, record: Compile) -> list[Compile]:
        """All attempts of ``record``'s compile, the last one last."""
        return self.attempts_of.get(self.final_of.get(record.id, record.id), [record])

    def graph_breaks(self, record: Compile) -> list:
        """The breaks of every attempt of a compile: a restart keeps what broke."""
        return [b for attempt in self.attempts(record) for b in attempt.graph_breaks]

    def family(self, fn: Function) -> list[Function]:
        """``fn`` and every resume function that continues its source."""
        return [fn] + [other for other in self._continuing.get(fn.id, []) if other.id != fn.id]

    @cached_property
    def _continuing(self) -> dict[str, list[Function]]:
        """Function id -> the resume functions that continue its source, in order."""
        continuing: dict[str, list[Function]] = defaultdict(list)
        for other in self._ordered:
            if other.resume and other.resume.original:
                continuing[other.resume.original].append(other)
        return continuing

    def break_line(self, function_id: str | None, brk) -> int | None:
        """The line of the shown source (the user function a resume function
        continues) where ``brk`` happened: its frame in that function, which for a
        break inside a called function is the call."""
        fn = self.function(function_id)
        if fn and fn.resume and fn.resume.original:
            fn = self.function(fn.resume.original) or fn
        if fn is None:
            return brk.line
        inside = [
            f.line
            for f in [*brk.user_stack, FrameSummary(brk.filename or "", brk.line, "")]
            if f.line is not None
            and same_file(f.filename, fn.filename)
            and fn.first_line <= f.line <= fn.last_line
        ]
        return inside[-1] if inside else None

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
        final = self.final_of.get(compile_id, compile_id)
        return urls.with_anchor(page, urls.compile_anchor(final)) if page else None

    def break_href(self, compile_id: str, index: int) -> str | None:
        """A graph break, under its compile on its function's page."""
        page = self.function_href(self.function_of.get(compile_id))
        final = self.final_of.get(compile_id, compile_id)
        return urls.with_anchor(page, break_anchor(final, index)) if page else None

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
        own = _file_name(fn.filename)

        def href(filename: str, line: int) -> str | None:
            same = filename == fn.filename or _file_name(filename) == own
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


# A graph's listings name the same few files on thousands of lines.
@functools.lru_cache(maxsize=1024)
def _file_name(path: str) -> str:
    return PurePath(path).name


def _attempts(records) -> tuple[dict[str, str], dict[str, list[Compile]]]:
    by_frame: dict[tuple, list[Compile]] = defaultdict(list)
    for record in records:
        by_frame[(record.frame_id, record.frame_compile_id)].append(record)
    final_of, attempts_of = {}, {}
    for key, group in by_frame.items():
        group.sort(key=compile_order)
        if key[0] < 0:  # an id torch did not write: each is its own compile
            for record in group:
                final_of[record.id], attempts_of[record.id] = record.id, [record]
            continue
        final = group[-1]
        attempts_of[final.id] = group
        for record in group:
            final_of[record.id] = final.id
    return final_of, attempts_of


def break_anchor(compile_id: str, index: int) -> str:
    return urls.anchor("break", compile_id, index)


def same_file(a: str | None, b: str) -> bool:
    if not a:
        return True
    return a == b or _file_name(a) == _file_name(b)


def function_title(fn: Function, ctx: ProcessContext) -> str:
    """How pages name a function: the one place titles are made.

    A resume function is named by the function it continues and its lines:
    "messy, resumes at line 23 after the break at line 22"; the title is unique
    among the process's functions (see ``ProcessContext.titles``).
    """
    return ctx.title(fn)


def readable_title(fn: Function, original: Function | None = None) -> str:
    """``fn``'s title; ``original`` is the user function a resume function continues."""
    if not fn.resume:
        return fn.qualname or fn.name
    title = original.qualname if original else continued_name(fn.qualname or fn.name)
    if fn.resume.resume_line is not None:
        title += f", resumes at line {fn.resume.resume_line}"
    if fn.resume.break_line is not None:
        title += f" after the break at line {fn.resume.break_line}"
    return title


_RESUME_NAME = re.compile(r"^torch_dynamo_resume_in_(?P<name>.+)_at_\d+$")


def continued_name(qualname: str) -> str:
    """The user function a resume function's qualified name continues:
    "Model.torch_dynamo_resume_in_forward_at_22" -> "Model.forward"."""
    scope, dot, name = qualname.rpartition(".")
    while (found := _RESUME_NAME.match(name)) is not None:
        name = found["name"]
    return f"{scope}{dot}{name}"


def _told_apart(title: str, same: list[Function], callers: dict[str, list[str]]) -> list[str]:
    """Titles for functions that would share ``title``: by their file, else by the
    compiles whose code calls them, else by a counter."""
    if len(same) == 1:
        return [title]
    files = [f"{PurePath(fn.filename).name}:{fn.first_line}" for fn in same]
    if len(set(files)) == len(same):
        return [f"{title} ({where})" for where in files]
    called = [", ".join(sorted(set(callers.get(fn.id, [])))) for fn in same]
    if all(called) and len(set(called)) == len(same):
        return [f"{title} (called by compile {by})" for by in called]
    return [f"{title} ({ordinal(n)})" for n in range(1, len(same) + 1)]


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def function_origin_of(fn: Function) -> Origin:
    """Whose code ``fn`` is: the user's, a library's, the standard library's, torch's."""
    return function_origin(fn.filename, fn.qualname)


def origin_rank(fn: Function) -> int:
    return list(Origin).index(function_origin_of(fn))


def break_summary(reason: str, gb_type: str | None = None) -> str:
    """What groups breaks of one cause: torch's graph-break type, else the
    reason's first line that is not torch's "while tracing CALL" wrapper."""
    if gb_type:
        return gb_type
    lines = [line.strip() for line in reason.strip().splitlines() if line.strip()]
    lines = [line.removeprefix("Graph Break Reason: ").strip() for line in lines]
    inner = [line for line in lines if not line.startswith(WRAPPER)]
    return (inner or lines or ["unknown reason"])[0]


WRAPPER = "Encountered graph break when attempting to trace"


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
    number = short_name(graph.name).rsplit("_", 1)[-1]  # the uuid after it is no number
    numbered = number.isascii() and number.isdigit() and len(number) < 18
    return (int(number) if numbered else 1 << 60, graph.name, graph.id)
