"""Judging one rendered example of the fuzz test against issue 21's rules.

Each check returns ``(kind, evidence)`` pairs; the kind is short and stable, so
many examples that fail the same way count as one kind of failure.
"""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from pathlib import Path

from dump_states import file_state
from mutations import MARKER, OTHER_DUMP, OUTSIDE

from depyf_report.dump import SCHEMA_VERSION
from depyf_report.render import urls

MB = 1 << 20
PREFIXES = ("depyf-report: warning: ", "depyf-report: error: ")
# C0 and C1 controls but newline and tab, DEL, and the bidirectional overrides.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def snapshot(root: Path) -> dict[str, tuple]:
    """(kind, size, mtime) of everything in the sandbox but the site and the harness."""
    found = {}
    for folder, dirs, files in os.walk(root):
        if folder == str(root):
            dirs[:] = [d for d in dirs if d not in ("site", "harness")]
        for name in dirs + files:
            path = os.path.join(folder, name)
            info = os.lstat(path)
            size = info.st_size if os.path.isfile(path) and not os.path.islink(path) else 0
            found[os.path.relpath(path, root)] = (info.st_mode, size, info.st_mtime_ns)
    return found


def judge(root: Path, seed, result, before: dict) -> list[tuple[str, str]]:
    failures = _judge_output(result)
    failures += _judge_audit(result)
    failures += _judge_sandbox(root, before)
    if result.returncode in (0, 2):
        failures += _judge_rules(root, seed, result)
    limit = seed.baseline_kb * 1024 + 10 * result.dump_bytes + 100 * MB
    if result.peak_kb * 1024 > limit:
        failures.append(
            (
                "peak memory over 10x the dump + 100 MB",
                f"{result.peak_kb // 1024} MB for a {result.dump_bytes / MB:.1f} MB dump "
                f"(intact seed: {seed.baseline_kb // 1024} MB)",
            )
        )
    return failures


def _judge_output(result) -> list[tuple[str, str]]:
    err, failures = result.stderr, []
    if result.returncode is None:
        failures.append((f"hang: no exit in {result.timeout:.0f} s{_where(err)}", _tail(err)))
    elif "Traceback (most recent call last)" in err:
        failures.append((f"traceback: {_exception(err)}{_where(err)}", _tail(err)))
    elif result.returncode not in (0, 2):
        failures.append((f"exit status {result.returncode}", _tail(err)))
    if result.returncode is None or "Traceback" in err:
        return failures
    lines = err.splitlines()
    stray = [line for line in lines if not line.startswith(PREFIXES)]
    if stray:
        failures.append(("stderr line without a depyf-report: prefix", repr(stray[0][:300])))
    errors = [line for line in lines if line.startswith(PREFIXES[1])]
    if result.returncode == 0 and errors:
        failures.append(("exit 0 with an error line", errors[0][:300]))
    if result.returncode == 2 and len(errors) != 1:
        failures.append((f"exit 2 with {len(errors)} error lines", _tail(err)))
    for name, text in (("stderr", err), ("stdout", result.stdout)):
        if CONTROL.search(text):
            failures.append((f"raw control character on {name}", repr(_line_of(CONTROL, text))))
        if BIDI.search(text):
            failures.append((f"bidi override on {name}", repr(_line_of(BIDI, text))))
    return failures


def _judge_audit(result) -> list[tuple[str, str]]:
    found = defaultdict(list)
    for line in result.audit.splitlines():
        what, path, target = line.split("\t")
        found[f"{what} ({_area(target)})"].append(f"{path} -> {target}")
    return [(kind, "; ".join(paths[:3])) for kind, paths in found.items()]


def _area(target: str) -> str:
    for name in (OUTSIDE, OTHER_DUMP, "dump", "cwd"):
        if f"{os.sep}{name}{os.sep}" in target + os.sep:
            return f"{name}/"
    return "elsewhere"


def _judge_sandbox(root: Path, before: dict) -> list[tuple[str, str]]:
    after = snapshot(root)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    failures = [("changed a file outside the site", ", ".join(changed[:5]))] if changed else []
    site = root / "site"
    leaked = [p.name for p in site.rglob("*") if p.is_file() and MARKER.encode() in p.read_bytes()]
    if leaked:
        failures.append(("text from outside the dump in the site", ", ".join(leaked[:5])))
    return failures


def _judge_rules(root: Path, seed, result) -> list[tuple[str, str]]:
    """The issue's rules on what the output says about the damage."""
    dump, failures = root / "dump", []
    warnings = [line for line in result.stderr.splitlines() if line.startswith(PREFIXES[0])]
    manifest = file_state(dump, "manifest.json")
    if manifest.newer is not None:
        named = str(manifest.newer) in result.stderr and str(SCHEMA_VERSION) in result.stderr
        if result.returncode != 2 or not named:
            failures.append(
                (
                    "newer schema_version: not exit 2 naming both versions",
                    f"exit {result.returncode}: {_tail(result.stderr, 2)}",
                )
            )
        return failures
    if result.returncode == 2:
        return failures
    index = root / "site" / urls.INDEX
    if not index.is_file():
        return [("exit 0 without index.html", _tail(result.stderr))]
    if manifest.reason == "missing" and not any("manifest.json" in w for w in warnings):
        failures.append(("exit 0 for a dump without manifest.json, and no warning", ""))
    if manifest.damaged and "manifest.json" not in index.read_text("utf-8", "replace"):
        failures.append(("damaged manifest: no banner naming manifest.json in index.html", ""))
    touched = {m.target for m, ok in zip(result.mutations, result.applied) if ok}
    for rel in sorted(touched):
        failures += _named(dump, rel, result, warnings)
    return failures + _lost(root, touched)


def _lost(root: Path, touched: set[str]) -> list[tuple[str, str]]:
    """Nothing lost: each intact function record of the first process has its page,
    whatever else is damaged (the manifest included)."""
    dump, lost = root / "dump", []
    folder = dump / "functions"
    if "functions" in touched or folder.is_symlink() or not folder.is_dir():
        return []
    # The first process's pages carry no prefix, or the one its manifest names.
    manifest = dump / "manifest.json"
    named = json.loads(manifest.read_text()).get("process", "") if _intact(dump, "") else ""
    for path in sorted(folder.iterdir()):
        rel = f"functions/{path.name}"
        if rel in touched or path.suffix != ".json" or not _intact(dump, rel):
            continue
        function_id = json.loads(path.read_text(encoding="utf-8"))["id"]
        pages = {urls.function_page(process, function_id) for process in ("", named)}
        if not any((root / "site" / page).is_file() for page in pages):
            lost.append(rel)
    return [("an intact function record has no page", ", ".join(lost))] if lost else []


def _intact(dump: Path, rel: str) -> bool:
    state = file_state(dump, rel or "manifest.json")
    return state.damaged is None and state.newer is None and state.reason != "missing"


def _named(dump: Path, rel: str, result, warnings: list[str]):
    """A damaged file that render skipped must be named in a warning, with its field
    when one mutation damaged one field."""
    state = file_state(dump, rel)
    if not state.damaged or (rel.startswith("views/") and _functions_damaged(dump)):
        return []
    lines = [w for w in warnings if rel in w]
    if not lines:
        return [(f"no warning names a damaged file ({state.damaged})", f"{rel}: {state.reason}")]
    own = [m for m, ok in zip(result.mutations, result.applied) if ok and m.target == rel]
    # A file the JSON parser gives up on (nested too deeply) has no fields to name.
    unparsed = all("damaged, skipped" in w for w in lines)
    if len(own) == 1 and state.damaged == "invalid record" and hasattr(own[0], "path"):
        keys = [k for k in own[0].path if isinstance(k, str)]
        if keys and not unparsed and not any(keys[-1] in w for w in lines):
            return [("warning names the file but not the damaged field", f"{own[0]}: {lines[0]}")]
    return []


def _functions_damaged(dump: Path) -> bool:
    folder = dump / "functions"
    if folder.is_symlink() or not folder.is_dir():
        return True
    return any(file_state(dump, f"functions/{p.name}").damaged for p in folder.iterdir())


def _exception(err: str) -> str:
    lines = [line for line in err.splitlines() if line and not line.startswith(" ")]
    return lines[-1].split(":")[0][:80] if lines else "?"


def _where(err: str) -> str:
    """' in file.py:function' of the innermost frame inside depyf_report."""
    frames = re.findall(r'File "([^"]+)", line \d+,? in (\S+)', err)
    ours = [(f, fn) for f, fn in frames if "depyf_report" in f]
    if not ours:
        return ""
    # A traceback lists the innermost frame last; faulthandler's dump lists it first.
    path, function = ours[0] if "most recent call first" in err else ours[-1]
    return f" in {path.split('depyf_report/')[-1]}:{function}"


def _tail(text: str, lines: int = 6) -> str:
    return "\n    ".join(line[:300] for line in text.strip().splitlines()[-lines:])


def _line_of(pattern: re.Pattern, text: str) -> str:
    return next(line for line in text.splitlines() if pattern.search(line))[:200]
