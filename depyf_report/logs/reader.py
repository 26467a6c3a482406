"""TORCH_TRACE log files -> structured-trace records, as torch handed them to its logger.

A log is what ``TORCH_TRACE=dir`` (or ``TORCH_LOGS`` with ``trace``) writes: one file
per process, each record one glog-prefixed line of JSON metadata,

    [rank0]:V1126 07:38:18.049000 25685 torch/_dynamo/convert_frame.py:303] {"dynamo_start": ...}

followed by its payload, if it has one, as lines that each start with a tab. The
metadata's ``has_payload`` is the MD5 of the payload, so a cut or damaged payload is
found. Nothing here trusts the file: a line that is not a record is counted and
skipped, never raised.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

# glog's prefix as torch writes it; a rank prefix and "[trace id]" parts are optional.
_RECORD = re.compile(
    r"^(?:\[rank(?P<rank>\d+)\]:)?"
    r"[VIWEC]\d{4} \d\d:\d\d:\d\d\.\d+ +(?P<pid>\d+) [^\]]*:\d+\]"
    r"(?: \[[^\]]*\])* (?P<json>\{.*)$"
)
# ``dedicated_log_torch_trace_rank_3_abcd.log``: torch names a rank's file so.
_RANK_IN_NAME = re.compile(r"_rank_(?P<rank>\d+)_")
# How many skipped lines a process's notes name one by one.
_NAMED_PROBLEMS = 10


@dataclass(frozen=True)
class LogRecord:
    """One structured-trace record: its metadata, its payload, where it starts."""

    metadata: dict
    payload: str | None
    line: int


@dataclass
class LogFile:
    """What reading one log file found besides its records."""

    path: Path
    pid: int | None = None
    rank: int | None = None
    records: int = 0
    problems: list[str] = field(default_factory=list)  # the first few, by line
    skipped: int = 0  # every line or record left out

    def skip(self, line: int, why: str) -> None:
        self.skipped += 1
        if len(self.problems) < _NAMED_PROBLEMS:
            self.problems.append(f"line {line}: {why}")

    def summary(self) -> str | None:
        """One note on what was skipped, or None when nothing was."""
        if not self.skipped:
            return None
        more = self.skipped - len(self.problems)
        tail = f"; and {more} more" if more > 0 else ""
        return (
            f"{self.path.name}: {self.skipped} line(s) or record(s) could not be read and "
            f"were skipped ({'; '.join(self.problems)}{tail}); everything else is shown"
        )


def is_record_line(line: str) -> bool:
    return _RECORD.match(line.rstrip("\r\n")) is not None


def rank_from_name(path: Path) -> int | None:
    found = _RANK_IN_NAME.search(path.name)
    return int(found["rank"]) if found else None


def read_records(log: LogFile) -> Iterator[LogRecord]:
    """Each record of ``log.path`` in order; what cannot be read is noted in ``log``."""
    start, metadata, payload = 0, None, None
    with open(log.path, encoding="utf-8", errors="replace", newline="\n") as lines:
        number = 0
        for number, raw in enumerate(lines, 1):
            text = raw.rstrip("\r\n")
            if text.startswith("\t"):
                if metadata is None:
                    log.skip(number, "a payload line with no record before it")
                elif payload is not None:
                    payload.append(text[1:])
                continue
            if metadata is not None:
                record = _finished(log, start, metadata, payload)
                if record is not None:
                    yield record
            start, metadata, payload = number, _metadata(log, number, text), None
            if metadata is not None and "has_payload" in metadata:
                payload = []
        if metadata is not None:
            record = _finished(log, start, metadata, payload)
            if record is not None:
                yield record


def _metadata(log: LogFile, number: int, text: str) -> dict | None:
    if not text.strip():
        return None
    match = _RECORD.match(text)
    if match is None:
        log.skip(number, "not a structured-trace record")
        return None
    try:
        metadata = json.loads(match["json"])
    except json.JSONDecodeError as error:
        log.skip(number, f"its JSON does not parse ({error.msg} at column {error.colno})")
        return None
    if not isinstance(metadata, dict):
        log.skip(number, "its JSON is not an object")
        return None
    if log.pid is None:
        log.pid = int(match["pid"])
    if log.rank is None and match["rank"] is not None:
        log.rank = int(match["rank"])
    rank = metadata.get("rank")
    if log.rank is None and isinstance(rank, int):
        log.rank = rank
    return metadata


def _finished(log: LogFile, start: int, metadata: dict, lines: list[str] | None):
    """The record, or None when its payload is missing or not what torch wrote."""
    expected = metadata.get("has_payload")
    payload = None if lines is None else "\n".join(lines)
    if expected is not None:
        kind = _kind(metadata)
        if not lines:
            log.skip(start, f"the {kind} record's payload is missing")
            return None
        if isinstance(expected, str) and _md5(payload) != expected:
            log.skip(start, f"the {kind} record's payload is cut or damaged (checksum differs)")
            return None
    log.records += 1
    return LogRecord(metadata, payload, start)


def _kind(metadata: dict) -> str:
    artifact = metadata.get("artifact")
    if isinstance(artifact, dict) and isinstance(artifact.get("name"), str):
        return artifact["name"]
    return next((k for k in metadata if k not in ("frame_id", "frame_compile_id")), "?")


def _md5(text: str) -> str:
    return hashlib.md5(text.encode("utf-8"), usedforsecurity=False).hexdigest()
