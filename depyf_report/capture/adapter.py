"""The one place that reaches into torch internals.

Each internal is looked up behind feature detection, never a version check:
``missing_features`` probes every internal listed in ``FEATURES`` when a capture
starts, and a lookup that fails later returns ``None`` or raises ``Unavailable``
with the reason. Capture records what is missing, and what that costs the
report, as unavailable instead of failing.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import logging
import os
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass

TRACE_LOGGER = "torch.__trace"


class Unavailable(Exception):
    """A torch internal capture needs is missing; the message says which."""


def torch_version() -> str:
    import torch

    return torch.__version__


@dataclass(frozen=True)
class Feature:
    """One torch internal capture uses, and what the report loses without it."""

    artifact: str  # the name capture records it as unavailable under
    module: str
    attribute: str  # dotted, looked up on the module
    cost: str


# Every internal the adapter reaches, probed by name rather than by torch's version:
# a release that keeps them all works, one that moves one loses only that part.
FEATURES = (
    Feature(
        "bytecode",
        "torch._dynamo.convert_frame",
        "register_bytecode_hook",
        "no transformed code, resume functions or cache entries are recorded",
    ),
    Feature(
        "bytecode",
        "torch._guards",
        "CompileContext.current_trace_id",
        "transformed code cannot be tied to its compile, so no cache entries are recorded",
    ),
    Feature(
        "structured trace",
        "torch._logging._internal",
        "trace_log",
        "no graphs, guards, graph breaks, recompiles, dynamic shapes, metrics or output code",
    ),
    Feature(
        "trace filter",
        "torch._logging._internal",
        "trace_structured",
        "torch builds every trace record, also those capture does not read: compiles "
        "run slower while capturing",
    ),
    Feature(
        "provenance",
        "torch._inductor.config",
        "trace.provenance_tracking_level",
        "kernels are not linked to the graph nodes and source lines they were made from",
    ),
    Feature(
        "live cache entries",
        "torch._dynamo.eval_frame",
        "_debug_get_cache_entry_list",
        "guards come from the trace alone: a guard tree the trace lacks, and every "
        "entry's shape guards, are missing",
    ),
    Feature(
        "live cache entries",
        "torch._C._dynamo.guards",
        "RootGuardManager.get_epilogue_lambda_guards",
        "cache entries' shape guards are missing",
    ),
    Feature(
        "counters",
        "torch._dynamo.utils",
        "counters",
        "the overview has no table of Dynamo's counters",
    ),
)


def missing_features(features=FEATURES) -> list[tuple[str, str]]:
    """(artifact, reason) for each internal this torch lacks: what was not found,
    and what that costs the report."""
    missing: dict[str, list[str]] = {}  # one line per artifact, however many probes fail
    for feature in features:
        where = f"{feature.module}.{feature.attribute}"
        try:
            found = importlib.import_module(feature.module)
            for name in feature.attribute.split("."):
                found = getattr(found, name)
        except ImportError as error:
            missing.setdefault(feature.artifact, []).append(
                f"{where} not found ({error}): {feature.cost}"
            )
        except AttributeError:
            missing.setdefault(feature.artifact, []).append(
                f"{where} not found in this torch: {feature.cost}"
            )
    return [(artifact, "; ".join(reasons)) for artifact, reasons in missing.items()]


def add_bytecode_hook(hook: Callable) -> Callable[[], None]:
    """Call ``hook(original_code, transformed_code)`` after every Dynamo transform."""
    try:
        from torch._dynamo.convert_frame import register_bytecode_hook
    except ImportError as error:
        raise Unavailable(f"torch._dynamo.convert_frame.register_bytecode_hook: {error}") from None
    handle = register_bytecode_hook(hook)
    return handle.remove


def add_trace_handler(handler: logging.Handler, reads: Callable[[str], bool]) -> Callable[[], None]:
    """Receive the structured trace (every graph stage, guards, metrics, ...): the
    records of each kind for which ``reads(kind)`` holds (an artifact's kind is its
    name). While ``handler`` is the trace's only handler, torch is spared building the
    others, as it is when nobody listens; a user's own trace still gets every record."""
    try:
        from torch._logging import _internal
    except ImportError as error:
        raise Unavailable(f"torch._logging structured trace: {error}") from None
    trace_log = _internal.trace_log
    if trace_log.name != TRACE_LOGGER:
        raise Unavailable(f"the structured trace logger is {trace_log.name!r}")
    old_level = trace_log.level
    trace_log.setLevel(logging.DEBUG)
    trace_log.addHandler(handler)
    unfilter = _filter_trace(
        _internal, lambda kind: trace_log.handlers == [handler] and not reads(kind)
    )

    def remove() -> None:
        unfilter()
        trace_log.removeHandler(handler)
        if not trace_log.handlers:
            trace_log.setLevel(old_level)

    return remove


def track_provenance() -> Callable[[], None]:
    """Have Inductor log which nodes each kernel is made of, until the returned
    function is called. It adds one comment per kernel call to the output code
    ("# [Provenance debug handles] name:n") and changes nothing else it compiles."""
    try:
        from torch._inductor import config
    except ImportError as error:
        raise Unavailable(f"torch._inductor.config: {error}") from None
    trace = getattr(config, "trace", None)
    if not isinstance(getattr(trace, "provenance_tracking_level", None), int):
        raise Unavailable("torch._inductor.config.trace.provenance_tracking_level is missing")
    old_level = trace.provenance_tracking_level
    if old_level == 0:  # a level the user chose stays as it is
        trace.provenance_tracking_level = 1

    def remove() -> None:
        trace.provenance_tracking_level = old_level

    return remove


class _TraceFilter:
    """Stands in for ``trace_structured`` in torch's modules while a capture records:
    a record of a kind ``skip`` names returns before torch computes its contents."""

    def __init__(self, original: Callable) -> None:
        self.original = original
        self.skip: Callable[[str], bool] | None = None

    def __call__(self, name, metadata_fn=dict, **kwargs):
        if self.skip is not None:
            kind, metadata_fn = _kind(name, metadata_fn)
            if self.skip(kind):
                return None
        return self.original(name, metadata_fn, **kwargs)


def _kind(name: str, metadata_fn) -> tuple[str, Callable]:
    """A record's kind (an artifact's name), and its metadata function, which must not
    run twice."""
    if name != "artifact":
        return name, metadata_fn
    try:
        metadata = metadata_fn()
    except Exception:  # torch reports its own bad metadata: leave the call to it
        return name, metadata_fn
    kind = metadata.get("name") if isinstance(metadata, dict) else None
    return (kind if isinstance(kind, str) else name), lambda: metadata


_trace_filter: _TraceFilter | None = None  # one per process: modules imported meanwhile keep it


def _filter_trace(internal: types.ModuleType, skip: Callable[[str], bool]) -> Callable[[], None]:
    """Put the filter in place of ``trace_structured`` in every torch module that holds
    it (most import it by name); modules imported later take it from torch._logging."""
    global _trace_filter
    original = getattr(internal, "trace_structured", None)
    if isinstance(original, _TraceFilter):
        original = original.original
    if not callable(original):
        return lambda: None  # nothing to spare: the handler still gets every record
    if _trace_filter is None or _trace_filter.original is not original:
        _trace_filter = _TraceFilter(original)
    trace_filter = _trace_filter
    trace_filter.skip = skip
    holders = [
        module
        for name, module in list(sys.modules.items())
        if name.startswith("torch")
        and isinstance(module, types.ModuleType)
        and module.__dict__.get("trace_structured") is original
    ]
    for module in holders:
        module.trace_structured = trace_filter

    def remove() -> None:
        trace_filter.skip = None
        for module in holders:
            if getattr(module, "trace_structured", None) is trace_filter:
                module.trace_structured = original

    return remove


def record_fields(record: logging.LogRecord) -> tuple[dict, str | None]:
    """The metadata and payload torch attaches to one structured-trace record."""
    return getattr(record, "metadata", None) or {}, getattr(record, "payload", None)


def current_compile_id() -> str | None:
    """The compile id ("0/1" or "0/1_2") of the compile running now, if any."""
    try:
        from torch._guards import CompileContext
    except ImportError:
        return None
    trace_id = CompileContext.current_trace_id()
    if trace_id is None:
        return None
    return format_compile_id(
        trace_id.compile_id.frame_id, trace_id.compile_id.frame_compile_id, trace_id.attempt
    )


def format_compile_id(frame: int | None, frame_compile: int | None, attempt: int | None) -> str:
    base = f"{frame}/{frame_compile}"
    return f"{base}_{attempt}" if attempt else base


def current_backend_name() -> str | None:
    """The backend of the compile running now, found on Dynamo's frame converter."""
    frame = sys._getframe(1)
    while frame is not None:
        converter = frame.f_locals.get("self")
        backend = getattr(converter, "_torchdynamo_orig_backend", None)
        if backend is not None:
            return _backend_name(backend)
        frame = frame.f_back
    return None


def _backend_name(backend) -> str:
    name = getattr(backend, "compiler_name", None) or getattr(backend, "__name__", None)
    inner = getattr(backend, "compiler_fn", None)
    if name is None and inner is not None:
        name = getattr(inner, "compiler_name", None) or getattr(inner, "__name__", None)
    if name is None:
        name = type(backend).__name__
    # torch.compile(backend="inductor") wraps a function named compile_fx.
    return "inductor" if name == "compile_fx" else str(name)


def cache_entries(code) -> list:
    """Dynamo's live cache entries for ``code`` (the innermost function's code)."""
    try:
        from torch._dynamo.eval_frame import _debug_get_cache_entry_list
    except ImportError as error:
        raise Unavailable(
            f"torch._dynamo.eval_frame._debug_get_cache_entry_list: {error}"
        ) from None
    return list(_debug_get_cache_entry_list(code))


def entry_compile_id(entry) -> str | None:
    compile_id = getattr(entry, "compile_id", None)
    return None if compile_id is None else str(compile_id)


def entry_shape_guards(entry) -> list[str] | None:
    """The shape guards of one cache entry (the guard tree's epilogue), or None."""
    manager = getattr(entry, "guard_manager", None)
    root = getattr(manager, "root", None)
    get = getattr(root, "get_epilogue_lambda_guards", None)
    if get is None:
        return None
    return [part for guard in get() for part in guard.verbose_code_parts()]


def entry_guard_tree(entry) -> str | None:
    manager = getattr(entry, "guard_manager", None)
    return None if manager is None else str(manager)


def counters() -> dict[str, dict[str, int]]:
    """Dynamo's global counters (graph breaks, unique graphs, cache hits, ...)."""
    try:
        from torch._dynamo.utils import counters as torch_counters
    except ImportError as error:
        raise Unavailable(f"torch._dynamo.utils.counters: {error}") from None
    return {group: dict(values) for group, values in torch_counters.items() if values}


def distributed_rank() -> tuple[int | None, int | None]:
    """This process's rank and world size: torchrun's environment, else torch.distributed."""
    rank, world = os.environ.get("RANK"), os.environ.get("WORLD_SIZE")
    if rank is not None and rank.isdigit():
        return int(rank), int(world) if world and world.isdigit() else None
    try:
        import torch.distributed as dist

        if dist.is_available() and dist.is_initialized():
            return dist.get_rank(), dist.get_world_size()
    except Exception:
        pass
    return None, None


def torchrun_arguments(words: list[str]):
    """torchrun's reading of its own command line (``training_script``,
    ``training_script_args``, ``module``, ``no_python``, ``run_path``); None when
    it refuses the words, so that torchrun itself says why."""
    imported = "torch.distributed.run" in sys.modules
    try:
        from torch.distributed.run import get_args_parser
    except ImportError:
        return None
    finally:
        # The launcher runs it next as __main__ (-m), which runpy warns about
        # when the module is already imported.
        if not imported:
            sys.modules.pop("torch.distributed.run", None)
    try:  # silent: torchrun prints its own complaint when it runs
        with contextlib.redirect_stderr(io.StringIO()):
            return get_args_parser().parse_args(words)
    except (SystemExit, Exception):
        return None


def compiling_frame_globals(code) -> dict | None:
    """The globals of the frame Dynamo is compiling now (where it installs
    ``__compiled_fn_*`` and ``__resume_at_*``), found on its converter's stack."""
    frame = sys._getframe(1)
    while frame is not None:
        candidate = frame.f_locals.get("frame")
        if getattr(candidate, "f_code", None) is code:
            scope = getattr(candidate, "f_globals", None)
            return scope if isinstance(scope, dict) else None
        frame = frame.f_back
    return None


def bytecode_logger() -> logging.Logger:
    """The logger behind ``TORCH_LOGS="+bytecode"`` (ORIGINAL/MODIFIED BYTECODE)."""
    try:
        from torch._dynamo.convert_frame import bytecode_log
    except ImportError as error:
        raise Unavailable(f"torch._dynamo.convert_frame.bytecode_log: {error}") from None
    return bytecode_log


def compiled_codes() -> list[types.CodeType]:
    """The code objects Dynamo holds compiled cache entries for right now."""
    try:
        from torch._dynamo.convert_frame import input_codes
    except ImportError as error:
        raise Unavailable(f"torch._dynamo.convert_frame.input_codes: {error}") from None
    codes = [ref() for ref in list(getattr(input_codes, "seen", []))]
    return [code for code in codes if code is not None and cache_entries(code)]


def replace_graph_exec(run: Callable[[str, dict, Callable[[], None]], None]) -> Callable[[], None]:
    """Route torch.fx's ``exec`` of generated GraphModule source through ``run``.

    ``run(src, globals, fallback)`` must leave the definitions of ``src`` in
    ``globals``; ``fallback()`` does what torch would have done. Returns the undo.
    """
    try:
        from torch.fx import graph_module
    except ImportError as error:
        raise Unavailable(f"torch.fx.graph_module: {error}") from None
    original = getattr(graph_module, "_exec_with_source", None)
    if not isinstance(original, types.FunctionType):
        raise Unavailable("torch.fx.graph_module._exec_with_source is missing")

    def exec_with_source(src, globals, co_fields=None):
        run(src, globals, lambda: original(src, globals, co_fields))

    graph_module._exec_with_source = exec_with_source

    def remove() -> None:
        if graph_module._exec_with_source is exec_with_source:
            graph_module._exec_with_source = original

    return remove
