"""What a file in a damaged dump now is, judged without depyf-report's reader:
intact, gone, newer than the tool, or damaged (and how), by the shipped schema."""

from __future__ import annotations

import fnmatch
import json
import os
import stat
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath

import jsonschema

from depyf_report.dump import FILE_RECORDS, SCHEMA_VERSION
from depyf_report.resources import schema_text

FOLDERS = ("functions", "compiles", "graphs", "views", "processes", "debug")


@dataclass(frozen=True)
class State:
    damaged: str | None = None  # why render must skip it; None when intact or gone
    reason: str = ""
    newer: int | None = None  # a manifest's schema_version above the tool's


def file_state(dump: Path, rel: str) -> State:
    path = dump
    for part in PurePosixPath(rel).parts[:-1]:
        path = path / part
        if path.is_symlink() or not path.is_dir():
            return State(reason="its folder is damaged")  # judged as the folder
    path = path / PurePosixPath(rel).name
    if path.is_symlink():
        return State("symlink", os.readlink(path))
    if not os.path.lexists(path):
        return State(reason="missing")
    record = record_name(rel)
    mode = os.lstat(path).st_mode
    if stat.S_ISDIR(mode):
        return State("folder instead of a file") if record else State()
    if PurePosixPath(rel).name in FOLDERS and stat.S_ISREG(mode):
        return State("file instead of a folder")
    if record is None:
        return State()
    if not stat.S_ISREG(mode):
        return State("not a regular file", stat.filemode(mode))
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError as error:
        return State("not UTF-8", str(error))
    except (ValueError, RecursionError) as error:
        return State("not JSON", str(error)[:200])
    version = data.get("schema_version") if isinstance(data, dict) else None
    if record == "Manifest" and type(version) is int and version > SCHEMA_VERSION:
        return State(newer=version)
    error = next(validator(record).iter_errors(data), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        return State("invalid record", f"{where}: {error.message[:200]}")
    return State()


def record_name(rel: str) -> str | None:
    """The record a file holds (FILE_RECORDS), in the root or a process folder."""
    parts = PurePosixPath(rel).parts
    while len(parts) > 2 and parts[0] == "processes":
        parts = parts[2:]
    inner = "/".join(parts)
    return next((n for pattern, n in FILE_RECORDS.items() if fnmatch.fnmatch(inner, pattern)), None)


@cache
def validator(record: str) -> jsonschema.Validator:
    """The shipped schema, but open to unknown keys, which readers ignore by design."""
    schema = _open(json.loads(schema_text()))
    return jsonschema.Draft202012Validator({**schema, "anyOf": [{"$ref": f"#/$defs/{record}"}]})


def _open(schema):
    if isinstance(schema, dict):
        return {k: _open(v) for k, v in schema.items() if (k, v) != ("additionalProperties", False)}
    if isinstance(schema, list):
        return [_open(v) for v in schema]
    return schema
