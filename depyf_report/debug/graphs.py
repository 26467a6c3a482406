"""Run FX graph code from files in the dump, so a debugger can stop in a graph.

torch.fx turns each GraphModule's generated source into its ``forward`` with
``exec``; under ``prepare_debug`` that source is first written to the dump's
debug folder and compiled with that file's name. This covers the graphs that
the eager backend runs (Dynamo's own GraphModule) and the forward and backward
graphs that aot_eager runs. If the file cannot be written, torch's own path runs.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path

from ..dump import DebugSource
from .substitute import DebugFolder, body_line, compile_id_slug

log = logging.getLogger(__name__)


class GraphFiles:
    """Executes one GraphModule's source from a file: ``run(src, scope, fallback)``."""

    def __init__(self, folder: DebugFolder, compile_id: Callable[[], str | None]) -> None:
        self.folder = folder
        self.compile_id = compile_id
        self.files: dict[tuple[str | None, str], str] = {}  # (compile id, source) -> file

    def __call__(self, src: str, scope: dict, fallback: Callable[[], None]) -> None:
        try:
            compile_id = self.compile_id()
            known = self.files.get((compile_id, src))
            path = Path(known) if known else self._new_file(compile_id, src)
            code = compile(src, str(path), "exec", dont_inherit=True)
        except Exception as error:  # torch's own exec still gives the user a working graph
            log.debug("graph source kept in memory: %s", error)
            fallback()
            return
        exec(code, scope)  # what torch.fx does with its own in-memory file name

    def _new_file(self, compile_id: str | None, src: str) -> Path:
        """One file per distinct graph source of a compile (torch execs some twice)."""
        stem = graph_role(src) + (f"_{compile_id_slug(compile_id)}" if compile_id else "")
        path = self.folder.new_file(stem, src)
        self.files[(compile_id, src)] = str(path)
        self.folder.add(
            DebugSource(
                kind="graph",
                name=path.stem,
                compile_id=compile_id,
                file=str(path),
                line=_forward_line(src),
                substituted=True,
            )
        )
        return path


def graph_role(src: str) -> str:
    """What a graph is, from the names torch gives its inputs."""
    if re.search(r"\btangents_\d+\b", src):
        return "aot_backward"
    if re.search(r"\bprimals_\d+\b", src):
        return "aot_forward"
    if re.search(r"\barg\d+_\d+\b", src):
        return "aot_inference"
    if re.search(r"\bL_\w+", src):
        return "dynamo_graph"
    return "graph"


def _forward_line(src: str) -> int:
    try:
        return body_line(src, "forward")
    except SyntaxError:
        return 1
