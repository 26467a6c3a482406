"""View models: everything a template shows, computed before any template runs.

Templates only loop and branch over these fields. Each is frozen and holds
tuples, so a page's view cannot change after it is built.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from markupsafe import Markup, escape

from .metrics import Metric


@dataclass(frozen=True)
class Link:
    text: str
    href: str | None  # None when the target is not in the dump: shown as plain text
    title: str = ""


@dataclass(frozen=True)
class Mark:
    """A note beside a code line: a graph break, a resume point, a guarded line."""

    kind: str  # css class: break | resume | guard
    label: str
    href: str | None = None


class _kept:
    """A property computed on first use and kept in the instance, as
    ``functools.cached_property`` is, without the lock that one takes on 3.11:
    a big site draws a few hundred thousand lines."""

    def __init__(self, compute):
        self.compute, self.name = compute, compute.__name__

    def __get__(self, line, owner=None):
        if line is None:
            return self
        value = line.__dict__[self.name] = self.compute(line)  # shadows this descriptor
        return value


@dataclass(frozen=True, eq=False)
class CodeLine:
    """A listing's line. Its markup is drawn on first use: a big site has a few
    hundred thousand lines, and most reach the reader as text that site.js
    draws (``language`` and ``text``), so most are never drawn here at all."""

    number: int
    anchor: str  # safe for an id and a fragment (codeview makes it so)
    draw: Callable[[], Markup] = field(repr=False)  # the line's highlighted source
    marks: tuple[Mark, ...] = ()
    # A guard line as data (codeview.guard_data), which site.js draws when the tree
    # unfolds: a tenth of the bytes of ``row``. None for other lines.
    parts: str | list | dict | None = None
    # The language in which site.js's ``highlight`` draws ``html`` from ``text`` alone,
    # so a data file may hold the line as text; None where the markup holds more.
    language: str | None = None
    text: str = ""

    @_kept
    def html(self) -> Markup:
        return escape(self.draw())  # escape() keeps Markup as it is

    @_kept
    def row(self) -> Markup:
        """The line's whole row, anchor and number included. Built in Python, not in
        a template: a template macro per line was a third of the render time."""
        css = "line"
        if self.marks:
            css += " marked " + " ".join(str(escape(m.kind)) for m in self.marks)
        notes = "".join(_mark_html(m) for m in self.marks)
        anchor = escape(self.anchor)  # safe already; a row is markup no template escapes
        return Markup(
            f'<div class="{css}" id="{anchor}"><a class="ln" href="#{anchor}">'
            f'{int(self.number)}</a><span class="src">{self.html}</span>{notes}</div>\n'
        )


def _mark_html(mark: Mark) -> str:
    label = escape(mark.label)
    if mark.href:
        return f'<a class="mark {escape(mark.kind)}" href="{escape(mark.href)}">{label}</a>'
    return f'<span class="mark {escape(mark.kind)}">{label}</span>'


@dataclass(frozen=True)
class Stat:
    """A headline number on the overview."""

    label: str
    value: str
    href: str | None = None
    concept: str | None = None


@dataclass(frozen=True)
class Row:
    """One row of a table: each cell holds links (plain text when href is None)."""

    cells: tuple[tuple[Link, ...], ...]


@dataclass(frozen=True)
class Table:
    title: str
    anchor: str
    headers: tuple[str, ...]
    rows: tuple[Row, ...]
    concept: str | None = None
    empty: str = "None."
    note: str = ""  # a line under the title, e.g. what the table leaves out
    folded: str = ""  # shown folded under this summary line, when not ""


# --- function page ---------------------------------------------------------------


@dataclass(frozen=True)
class GuardTree:
    """A guard tree as torch prints it, one line a check. A large model's tree has
    tens of thousands of lines: the page shows its first levels and the failed
    guards, and the rest unfolds from a data file (see deferred.py)."""

    lines: tuple[CodeLine, ...]
    depths: tuple[int, ...]  # 0 for the root; a check's children are one deeper
    failed: tuple[int, ...]  # numbers of the lines whose failure made a recompile


@dataclass(frozen=True)
class EntryView:
    """One cache entry: its guards and the transformed code they protect."""

    index: int
    anchor: str
    compile: Link
    guard_count: int  # torch's guard_count where it reported one, else checks in the tree
    guard_note: str  # how that number relates to the checks in the tree, or ""
    guards: GuardTree
    shape_guards: tuple[str, ...]
    transformed: tuple[CodeLine, ...]
    decompile_error: str | None
    dis: str
    graphs: tuple[Link, ...]
    resume_functions: tuple[Link, ...]
    breakpoint: str | None = None  # "file:line" the code runs from under prepare_debug
    debug_note: str | None = None  # why Dynamo's own code runs instead


@dataclass(frozen=True)
class Frames:
    """Frames in a row of one origin's code; frames not the user's show folded."""

    origin: str  # "" for the user's code, else e.g. "torch" or "third-party libraries"
    lines: tuple[str, ...]


@dataclass(frozen=True)
class BreakView:
    """A graph break or failed compile, as torch explains it."""

    anchor: str
    summary: str  # the graph-break type, or the reason's first line
    reason: str
    where: Link  # the user's line that caused it: the innermost frame of user code
    stack: tuple[Frames, ...]
    explanation: str = ""
    hints: tuple[str, ...] = ()
    context: str = ""
    link: Link | None = None  # torch's page about this kind of break
    wrapper: str = ""  # "Encountered graph break when attempting to trace CALL ..."
    call: Link | None = None  # for a cause in a called function: the call in this source


@dataclass(frozen=True)
class RecompileView:
    """One earlier cache entry whose guards failed, and the guard that did."""

    entry: Link  # the cache entry, on this page
    guard: str  # the failed check in torch's words
    guard_line: Link  # the check's line in that entry's guard tree
    reason: str  # torch's whole text
    remedy: str


@dataclass(frozen=True)
class CompileView:
    id: str
    anchor: str
    status: str
    failure: str | None
    failure_summary: str | None  # its first line
    backend: str
    graph_breaks: tuple[BreakView, ...]
    recompiles: tuple[RecompileView, ...]
    symbols: tuple[tuple[str, ...], ...]
    time_bar: Markup | None  # where the compile's time went, as an inline SVG
    metrics: tuple[Metric, ...]
    graphs: tuple[Link, ...]
    entry: Link
    failure_detail: BreakView | None = None
    limit_note: str = ""  # the recompile limit was hit: what that means
    attempts: tuple[tuple[str, str], ...] = ()  # earlier attempts: (id, why it restarted)


@dataclass(frozen=True)
class FunctionPage:
    path: str
    title: str
    crumbs: tuple[Link, ...]
    process: str
    name: str
    qualname: str
    location: str
    is_resume: bool
    resume: tuple[Link, ...]  # parent, break line, resume line
    resumes: tuple[Link, ...]  # resume functions this function's breaks led to
    source: tuple[CodeLine, ...]
    no_source: str  # what the page says where ``source`` is empty
    resume_code: tuple[CodeLine, ...]  # a resume function's own code, decompiled
    entries: tuple[EntryView, ...]
    compiles: tuple[CompileView, ...]
    original_dis: str
    story: str
    ranks: RankSwitch | None = None  # the same page on the other ranks
    template: str = "function.html"


# --- graph and output code pages -------------------------------------------------


@dataclass(frozen=True)
class StageView:
    kind: str
    label: str
    anchor: str
    lines: tuple[CodeLine, ...]
    inputs: tuple[tuple[str, str], ...]  # (name, shape) of each graph input


@dataclass(frozen=True)
class GraphPage:
    path: str
    title: str
    crumbs: tuple[Link, ...]
    process: str
    name: Link  # the name shown, with the whole name as its title
    backend: str
    function: Link
    entry: Link
    compile: Link
    stages: tuple[StageView, ...]
    outputs: tuple[Link, ...]
    symbols: tuple[tuple[str, ...], ...]
    provenance: Link | None = None
    ranks: RankSwitch | None = None  # the same page on the other ranks
    template: str = "graph.html"


@dataclass(frozen=True)
class KernelView:
    name: str
    anchor: str
    language: str
    lines: tuple[CodeLine, ...]
    # Each call of the kernel and what it was made from, where provenance was recorded.
    calls: tuple[KernelOrigin, ...] = ()


@dataclass(frozen=True)
class KernelOrigin:
    """What one kernel call was made from: nodes, ATen operators, source lines."""

    key: str  # torch's name for the call, "cpp_fused_abs_add_0:1"
    post_grad_nodes: tuple[str, ...]
    dynamo_nodes: tuple[str, ...]
    aten: tuple[str, ...]
    source_lines: tuple[Link, ...]  # the innermost user lines it came from
    provenance: Link  # the call, selected on the provenance page
    called_from: tuple[Link, ...] = ()  # user lines further out on its stack traces


@dataclass(frozen=True)
class OutputPage:
    path: str
    title: str
    crumbs: tuple[Link, ...]
    process: str
    part: str
    graph: Link
    function: Link
    entry: Link
    code: tuple[CodeLine, ...]
    kernels: tuple[KernelView, ...]
    provenance: Link | None = None
    provenance_note: str = ""  # why kernels list no origins, when they do not
    ranks: RankSwitch | None = None  # the same page on the other ranks
    template: str = "output.html"


@dataclass(frozen=True)
class PaneView:
    """One pane of a provenance page: a source, a graph or an output module."""

    key: str
    label: str
    anchor: str
    note: str  # which links this pane lacks, and why; "" for none
    regions: tuple[RegionView, ...]


@dataclass(frozen=True)
class RegionView:
    """Numbered lines in a pane: one function of the source pane, or a whole graph."""

    label: str  # "model.py:Block.forward"; "" for a graph or output pane
    lines: tuple[CodeLine, ...]


@dataclass(frozen=True)
class ProvenancePage:
    path: str
    title: str
    crumbs: tuple[Link, ...]
    process: str
    graph: Link
    function: Link
    panes: tuple[PaneView, ...]
    data_json: Markup  # the mapping, for the page's script
    unrecorded: bool  # an Inductor module came without its mappings
    ranks: RankSwitch | None = None  # the same page on the other ranks
    template: str = "provenance.html"


# --- overview and concepts ---------------------------------------------------------


@dataclass(frozen=True)
class ProcessView:
    """One process's part of the overview."""

    label: str
    anchor: str
    headline: str  # the command that ran, and how it ended
    facts: tuple[tuple[str, str], ...]
    unfinished: bool  # the capture never closed: killed, or still running
    failed: bool  # the program ended with an exception or a nonzero exit
    notes: tuple[str, ...]
    stats: tuple[Stat, ...]
    flowcharts: tuple[Markup, ...]
    tables: tuple[Table, ...]
    unavailable: tuple[tuple[str, str], ...]
    # Flowcharts of functions in other code, folded: (summary line, charts) per origin.
    other_flowcharts: tuple[tuple[str, tuple[Markup, ...]], ...] = ()
    time_bar: Markup | None = None  # where the compile time of all compiles went


@dataclass(frozen=True)
class OverviewPage:
    path: str
    title: str
    crumbs: tuple[Link, ...]
    processes: tuple[ProcessView, ...]
    problems: tuple[str, ...]
    search_json: Markup
    ranks: RankSwitch | None = None  # the same page on the other ranks
    template: str = "index.html"


@dataclass(frozen=True)
class ConceptPage:
    path: str
    title: str
    crumbs: tuple[Link, ...]
    html: Markup
    template: str = "concept.html"


# --- ranks ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RankChoice:
    """One rank in a rank switcher: the same page on that rank, if it has one."""

    label: str  # "rank 2"
    href: str | None  # None: the rank has no such function or graph
    current: bool
    state: str = ""  # "", "differs" or "missing": how the thing there compares


@dataclass(frozen=True)
class RankSwitch:
    """The ranks of the run, on every page that shows one rank's function or graph."""

    what: str  # "this function", "this graph", "" on the overview
    choices: tuple[RankChoice, ...]
    note: str  # e.g. "Not compiled on rank 3.", or on the overview whether ranks diverged
    divergence: Link


@dataclass(frozen=True)
class DiffLine:
    kind: str  # css class: same | add | del | hunk
    text: str


@dataclass(frozen=True)
class SideView:
    """Ranks that agree on one thing: what they have, or how it differs from the first side."""

    ranks: str  # "ranks 0, 1, 3"
    links: tuple[Link, ...]  # the thing on each of these ranks
    present: bool
    text: str
    diff: tuple[DiffLine, ...]  # against the first side; () for the first side
    note: str  # "not on these ranks", "only these ranks have it", "differs from ranks 0, 1:"


@dataclass(frozen=True)
class DifferenceView:
    topic: str
    anchor: str
    sides: tuple[SideView, ...]
    items: tuple[tuple[str, str], ...]  # (guard or break, the ranks that have it)
    among: str  # the ranks compared, for items
    presence: bool  # only whether the ranks have the thing differs: no text to show


@dataclass(frozen=True)
class FunctionDivergenceView:
    title: str
    anchor: str
    agree: tuple[str, ...]  # "ranks 0, 3 agree", "rank 1 differs"
    links: tuple[Link, ...]  # the function's page on each rank
    differences: tuple[DifferenceView, ...]


@dataclass(frozen=True)
class CountsRow:
    """One function's compiles, recompiles and graph breaks on each rank."""

    function: Link
    cells: tuple[Link, ...]  # "2 / 1 / 0" linked to the function on that rank, "—" if none
    differs: bool


@dataclass(frozen=True)
class DivergencePage:
    path: str
    title: str
    crumbs: tuple[Link, ...]
    summary: str  # one line: whether the ranks diverged, and how
    rank_sections: tuple[Link, ...]  # each rank's part of the overview
    counts: tuple[CountsRow, ...]
    functions: tuple[FunctionDivergenceView, ...]
    template: str = "divergence.html"
