"""A compile's metrics as a reader wants them: times in seconds, dicts as tables.

torch records some times in seconds (``*_s``) and the same ones again in
microseconds (``*_us``); a page shows every time in seconds, and a time given
both ways once. Its stack of where the compile started is cut above the user's
code: the frames of depyf-report's own ``run`` are not the program's.
"""

from __future__ import annotations

import ast
import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass

# A dict torch wrote as its repr (graph_node_shapes) is parsed only up to this size.
_REPR_LIMIT = 20_000
# "Line: 12, Name: toy_example, Filename: /work/examples/toy_example.py"
_FRAME = re.compile(r"Line: (?P<line>\d+), Name: (?P<name>.*), Filename: (?P<file>.*)")
_OURS = re.compile(r"[\\/]depyf_report[\\/]")


@dataclass(frozen=True)
class Metric:
    name: str
    value: str
    table: tuple[tuple[str, str], ...] = ()  # a dict or list, one row per item


def metric_rows(metrics: Mapping) -> tuple[Metric, ...]:
    """One row per metric, sorted by name; a microsecond twin of a seconds metric
    is left out."""
    rows = []
    for key in sorted(metrics):
        if key.endswith("_us") and any(twin in metrics for twin in _twins(key)):
            continue
        rows.append(_metric(key, metrics[key]))
    return tuple(rows)


def _twins(key: str) -> tuple[str, str]:
    """The names the same time has in seconds: duration_us -> duration_s, start_time."""
    stem = key.removesuffix("_us")
    return stem + "_s", stem


def _metric(key: str, value) -> Metric:
    if key == "stack_trace" and isinstance(value, list):
        frames = user_frames([str(v) for v in value])
        return Metric(key, f"{len(frames)} frames", tuple((str(i), f) for i, f in frames))
    if isinstance(value, dict):
        return Metric(
            key, f"{len(value)} entries", tuple((str(k), _text(v)) for k, v in value.items())
        )
    if isinstance(value, list):
        if not value:
            return Metric(key, "none")
        return Metric(
            key, f"{len(value)} items", tuple((str(i), _text(v)) for i, v in enumerate(value))
        )
    if isinstance(value, str) and value.startswith("{") and len(value) < _REPR_LIMIT:
        table = _repr_table(value)
        if table:
            return Metric(key, f"{len(table)} entries", table)
    return Metric(key, format_metric(key, value))


def format_metric(key: str, value) -> str:
    """One value, with its unit: seconds for every time."""
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "none"}[value]
    if isinstance(value, int | float):
        seconds = value / 1e6 if key.endswith("_us") else value
        if key.startswith(("start_time", "end_time")) and 0 < seconds < 1e11:
            return _when(seconds)  # a moment, not a duration
        if key.endswith(("_us", "_s")):
            return f"{seconds:.3f} s"
    return str(value)


def user_frames(frames: list[str]) -> list[tuple[int, str]]:
    """(position, frame) of the frames below depyf-report's own, outermost first.

    ``depyf-report run`` starts the program from its own frames (and a ``<string>``
    above them); where there are none, every frame is the program's.
    """
    last_ours = max((i for i, f in enumerate(frames) if _OURS.search(f)), default=-1)
    return [(i, _frame_text(f)) for i, f in enumerate(frames) if i > last_ours]


def _frame_text(frame: str) -> str:
    match = _FRAME.fullmatch(frame)
    return f"{match['file']}:{match['line']} in {match['name']}" if match else frame


def _repr_table(text: str) -> tuple[tuple[str, str], ...]:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return ()
    if not isinstance(value, dict):
        return ()
    return tuple((str(k), _text(v)) for k, v in value.items())


def _text(value) -> str:
    return value if isinstance(value, str) else repr(value)


def _when(epoch: float) -> str:
    moment = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc)
    return moment.isoformat(timespec="seconds").replace("+00:00", " UTC")
