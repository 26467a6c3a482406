"""Builds the dump's records from Dynamo's bytecode hook and the structured trace.

Both sources call in while torch compiles; each call updates the records of
one compile and writes the ones it changed, so the dump on disk is always as
complete as the compile that last finished.
"""

from __future__ import annotations

import re
import types
import typing
from pathlib import Path

from ..dump import (
    CacheEntry,
    CodeView,
    Compile,
    CompiledGraph,
    Function,
    GraphStage,
    GuardSet,
    NodeMappings,
    OutputCode,
)
from . import adapter, trace
from .functions import FunctionIds, function_at, new_function, resume_point
from .guards import guard_failure, parse_guard_tree, strip_comment
from .sources import SourceReader, frames_named
from .views import CodeViews
from .writer import DumpWriter

_COMPILE_ID = re.compile(r"^(?P<frame>\d+)/(?P<fc>\d+)(?:_(?P<attempt>\d+))?$")


class Recorder:
    def __init__(self, writer: DumpWriter, views: CodeViews) -> None:
        self.writer = writer
        self.views = views
        self.ids = FunctionIds()
        self.functions: dict[str, Function] = {}
        self.codes: dict[str, types.CodeType] = {}
        self.compiles: dict[str, Compile] = {}
        self.graphs: dict[str, CompiledGraph] = {}
        self.transformed: dict[str, types.CodeType] = {}  # compile id -> new code
        self.guard_trees: dict[str, str] = {}
        self.post_grad: dict[str, list[str]] = {}  # compile id -> graphs awaiting a part
        # compile id -> the output module written last, which provenance records describe
        self.last_output: dict[str, tuple[CompiledGraph, OutputCode]] = {}
        self.resume_parents: dict[types.CodeType, str] = {}
        self.entry_resumes: dict[str, list[str]] = {}  # compile id -> resume function ids
        self.unverified: set[str] = set()  # functions whose entries await the live cache
        self.finished: set[str] = set()  # compile ids whose compilation_metrics arrived
        self.strings: dict[int, str] = {}  # the structured trace's interned file names
        self.sources = SourceReader()

    # --- bytecode hook -----------------------------------------------------------

    def on_bytecode(self, code: types.CodeType, new_code: types.CodeType) -> None:
        compile_id = adapter.current_compile_id()
        function = self._function(code)
        if compile_id is None:
            return
        record = self._compile(compile_id)
        record.function = function.id
        self.transformed[compile_id] = new_code
        self.entry_resumes[compile_id] = self._resume_functions(code, new_code, function.id)
        names = [n for n in new_code.co_names if n.startswith("__compiled_fn")]
        for graph_id, name in zip(record.graphs, names):
            self.graphs[graph_id].name = name

    def _resume_functions(self, code, new_code, parent: str) -> list[str]:
        """The resume functions the transformed code calls, recorded with their parent."""
        scope = adapter.compiling_frame_globals(code) or {}
        found = []
        for name in new_code.co_names:
            value = scope.get(name) if name.startswith("__resume_at_") else None
            resume_code = getattr(value, "__code__", value)
            if isinstance(resume_code, types.CodeType):
                self.resume_parents[resume_code] = parent
                # Recorded now: one that runs no tensor code is never compiled itself.
                found.append(self._function(resume_code).id)
        return found

    def _function(self, code: types.CodeType) -> Function:
        function_id = self.ids.assign(code)
        if function_id not in self.functions:
            function = new_function(function_id, code)
            function.resume = resume_point(code, self._parent_finder(code))
            self.functions[function_id] = function
            self.codes[function_id] = code
            self.views.fill(function.original, code)
            self.writer.write_function(function)
        return self.functions[function_id]

    def _parent_finder(self, code: types.CodeType):
        def find(name: str, filename: str, line: int):
            original = function_at(self.functions.values(), name, filename, line)
            parent = self.resume_parents.get(code, original)
            return parent, (original, self.codes[original]) if original else None

        return find

    # --- structured trace --------------------------------------------------------

    def on_trace(self, metadata: dict, payload: str | None) -> None:
        record = trace.trace_record(metadata, payload)
        if record is None:
            return
        for fact in trace.parse(record):
            handle = self._HANDLERS.get(type(fact))
            if handle is not None:
                handle(self, fact)

    def _started(self, fact: trace.CompileStarted) -> None:
        self.verify_entries()
        record = self._compile(fact.compile_id)
        record.backend = adapter.current_backend_name()

    def _graph(self, fact: trace.GraphTraced) -> None:
        record = self._compile(fact.compile_id)
        graph_id = f"graph-{_slug(fact.compile_id)}"
        if record.graphs:
            graph_id += f"-{len(record.graphs)}"
        graph = CompiledGraph(
            id=graph_id,
            name="",
            compile_id=fact.compile_id,
            function=record.function,
            backend=record.backend,
            stages=[GraphStage("dynamo", fact.text)],
        )
        self.graphs[graph_id] = graph
        record.graphs.append(graph_id)
        self.writer.write_graph(graph)

    def _stage(self, fact: trace.StageTraced) -> None:
        graph = self._latest_graph(fact.compile_id)
        if graph is not None:
            graph.stages.append(GraphStage(fact.kind, fact.text))
            self._changed(graph)

    def _post_grad(self, fact: trace.PostGradTraced) -> None:
        self.post_grad.setdefault(fact.compile_id, []).append(fact.text)

    def _output_code(self, fact: trace.OutputCodeWritten) -> None:
        part = fact.output.part
        graph = self._graph_for_part(fact.compile_id, part)
        if graph is None:
            return
        for text in self.post_grad.pop(fact.compile_id, []):
            graph.stages.append(GraphStage(f"post_grad_{part}", text))
        graph.output_code.append(fact.output)
        self.last_output[fact.compile_id] = (graph, fact.output)
        self._changed(graph)

    def _nodes_mapped(self, fact: trace.NodesMapped) -> None:
        # Inductor logs the mapping right after the output module it describes.
        graph, output = self.last_output.get(fact.compile_id, (None, None))
        if output is not None:
            mappings = output.provenance or NodeMappings()
            mappings.pre_to_post, mappings.kernel_to_post = fact.pre_to_post, fact.kernel_to_post
            output.provenance = mappings
            self._changed(graph)

    def _kernel_stacks(self, fact: trace.KernelStacksLogged) -> None:
        graph, output = self.last_output.get(fact.compile_id, (None, None))
        if output is not None:
            output.provenance = output.provenance or NodeMappings()
            output.provenance.kernel_stacks = fact.stacks
            self._changed(graph)

    def _changed(self, graph: CompiledGraph) -> None:
        """Write a graph now if its compile is over (a backward compiled later);
        during the compile, once at its end, so each stage is not rewritten."""
        if graph.compile_id in self.finished:
            self._write_graph(graph)

    def _write_graph(self, graph: CompiledGraph) -> None:
        """Write a graph with the source of the user functions its nodes come from."""
        function = self.functions.get(graph.function or "")
        skip = (function.filename, function.first_line, function.last_line) if function else None
        graph.sources = self.sources.regions(frames_named(graph), skip)
        self.writer.write_graph(graph)

    def _graph_for_part(self, compile_id: str, part: str) -> CompiledGraph | None:
        """The graph an output code belongs to: the first still missing that part.

        A backward pass is compiled lazily, long after its forward, so it goes
        to the first graph that has a forward and no backward yet.
        """
        record = self.compiles.get(compile_id)
        graphs = [self.graphs[g] for g in record.graphs] if record else []
        parts = [{o.part for o in g.output_code} for g in graphs]
        for graph, done in zip(graphs, parts):
            if part not in done and (part != "backward" or "forward" in done):
                return graph
        return graphs[-1] if graphs else None

    def _guards(self, fact: trace.GuardsBuilt) -> None:
        self.guard_trees[fact.compile_id] = fact.tree

    def _graph_break(self, fact: trace.GraphBroke) -> None:
        graph_break = fact.graph_break
        graph_break.user_stack = _without_runner(graph_break.user_stack)
        self._compile(fact.compile_id).graph_breaks.append(graph_break)

    def _recompiled(self, fact: trace.Recompiled) -> None:
        record = self._compile(fact.compile_id)
        record.recompile_reasons = list(fact.reasons)
        record.guard_failures = [guard_failure(r) for r in fact.reasons]

    def _symbol(self, fact: trace.SymbolCreated) -> None:
        fact.symbol.filename = self.strings.get(fact.file_index)
        self._compile(fact.compile_id).dynamic_symbols.append(fact.symbol)

    def _symbol_guard(self, fact: trace.SymbolGuarded) -> None:
        fact.guard.filename = self.strings.get(fact.file_index)
        self._compile(fact.compile_id).symbol_guards.append(fact.guard)

    def _specialized(self, fact: trace.Specialized) -> None:
        fact.specialization.filename = self.strings.get(fact.file_index)
        self._compile(fact.compile_id).specializations.append(fact.specialization)

    def _interned(self, fact: trace.StringInterned) -> None:
        self.strings[fact.index] = fact.text

    def _finished(self, fact: trace.CompileFinished) -> None:
        record = self._compile(fact.compile_id)
        self.finished.add(fact.compile_id)
        if fact.backward:
            record.metrics["backward"] = fact.metrics
        else:
            record.metrics.update(fact.metrics)
            if fact.failure:
                record.status, record.failure = "failed", fact.failure
                record.failure_detail = fact.detail
            record.restart_reasons = fact.restart_reasons
            reason = fact.metrics.get("recompile_reason")
            if not record.recompile_reasons and isinstance(reason, str) and reason:
                # The artifact was filtered out or lost: torch's metrics name one reason.
                self._recompiled(trace.Recompiled(record.id, [reason]))
            if record.function is None:
                record.function = self._function_named(fact.metrics)
            self._add_entry(record)
        for graph_id in record.graphs:
            graph = self.graphs[graph_id]
            graph.function, graph.backend = record.function, record.backend
            self._write_graph(graph)
        self.writer.write_compile(record)

    def _function_named(self, metrics: dict) -> str | None:
        key = (metrics.get("co_name"), metrics.get("co_filename"))
        for function in self.functions.values():
            if (function.name, function.filename) == key:
                return function.id
        return None

    def _add_entry(self, record: Compile) -> None:
        """The cache entry this compile installed: transformed code plus guards."""
        new_code = self.transformed.pop(record.id, None)
        if new_code is None or record.function is None:
            return
        function = self.functions[record.function]
        tree = self.guard_trees.pop(record.id, None)
        guards = parse_guard_tree(tree) if tree is not None else GuardSet(tree="")
        entry = CacheEntry(
            compile_id=record.id,
            guards=guards,
            code=CodeView(name=new_code.co_name),
            graphs=list(record.graphs),
            resume_functions=self.entry_resumes.pop(record.id, []),
        )
        function.entries.append(entry)
        self.views.fill(entry.code, new_code, dynamo=True)
        self.unverified.add(function.id)
        self.writer.write_function(function)

    def _latest_graph(self, compile_id: str) -> CompiledGraph | None:
        record = self.compiles.get(compile_id)
        return self.graphs[record.graphs[-1]] if record and record.graphs else None

    def _compile(self, compile_id: str) -> Compile:
        if compile_id not in self.compiles:
            match = _COMPILE_ID.match(compile_id)
            frame, fc, attempt = (
                (int(match["frame"]), int(match["fc"]), int(match["attempt"] or 0))
                if match
                else (-1, -1, 0)
            )
            record = self.compiles[compile_id] = Compile(compile_id, frame, fc, attempt)
            self._restarted(record)
        return self.compiles[compile_id]

    def _restarted(self, record: Compile) -> None:
        """A new attempt at the same frame means Dynamo gave up the earlier ones."""
        for other in self.compiles.values():
            same = (other.frame_id, other.frame_compile_id) == (
                record.frame_id,
                record.frame_compile_id,
            )
            if same and other.attempt < record.attempt and other.status != "restarted":
                other.status = "restarted"
                record.backend = record.backend or other.backend
                record.function = record.function or other.function
                self.writer.write_compile(other)

    # --- the live cache ------------------------------------------------------------

    def verify_entries(self) -> None:
        """Fill guards from Dynamo's live cache entries, once they are installed."""
        for function_id in sorted(self.unverified):
            live = {
                adapter.entry_compile_id(e): e
                for e in adapter.cache_entries(self.codes[function_id])
            }
            function = self.functions[function_id]
            changed = [
                _fill_from_live(e, live[e.compile_id])
                for e in function.entries
                if e.compile_id in live
            ]
            if any(changed):
                self.writer.write_function(function)
        self.unverified.clear()

    _HANDLERS: typing.ClassVar[dict] = {
        trace.CompileStarted: _started,
        trace.GraphTraced: _graph,
        trace.StageTraced: _stage,
        trace.PostGradTraced: _post_grad,
        trace.OutputCodeWritten: _output_code,
        trace.NodesMapped: _nodes_mapped,
        trace.KernelStacksLogged: _kernel_stacks,
        trace.GuardsBuilt: _guards,
        trace.GraphBroke: _graph_break,
        trace.Recompiled: _recompiled,
        trace.SymbolCreated: _symbol,
        trace.SymbolGuarded: _symbol_guard,
        trace.Specialized: _specialized,
        trace.StringInterned: _interned,
        trace.CompileFinished: _finished,
    }


def _fill_from_live(entry: CacheEntry, live) -> bool:
    """Take guards from Dynamo's live entry where the trace had none; say if any changed."""
    before = (entry.guards.tree, list(entry.guards.shape_guards))
    if not entry.guards.tree:
        entry.guards = parse_guard_tree(adapter.entry_guard_tree(live) or "")
    shape = adapter.entry_shape_guards(live)
    if shape is not None:
        entry.guards.shape_guards = [strip_comment(s) for s in shape]
    return (entry.guards.tree, entry.guards.shape_guards) != before


_PACKAGE_DIR = str(Path(__file__).resolve().parents[1])


def _without_runner(stack: list) -> list:
    """The user's frames only: drop ``depyf-report run``'s own frames above the script."""
    ours = [
        i
        for i, frame in enumerate(stack)
        if frame.filename.startswith(_PACKAGE_DIR)
        or Path(frame.filename).name in ("runpy.py", "<frozen runpy>", "depyf-report")
    ]
    return stack[ours[-1] + 1 :] if ours else stack


def _slug(compile_id: str) -> str:
    return re.sub(r"[^0-9A-Za-z]+", "-", compile_id).strip("-")
