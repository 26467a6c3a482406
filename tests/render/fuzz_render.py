"""Render damaged dumps in a watched process and judge what it did (issue 21).

``fuzz(...)`` draws mutation lists with hypothesis, applies each to a fresh copy of
a seed dump in a sandbox, runs ``depyf-report DUMP -o SITE`` in a subprocess and
checks the rules of the issue:

- exit 0 with a ``depyf-report: warning:`` line naming each skipped file (and the
  field, where one field was damaged), or exit 2 with one ``depyf-report: error:``
  line; nothing else on stderr, no traceback, no raw control characters;
- a dump newer than the tool exits 2 naming both versions; a damaged manifest still
  renders the intact records under a banner;
- no file outside the dump is opened, nor anything but a regular file (an audit hook
  in the child logs every open and listing), no file outside the site changes, and
  the canary text from outside the dump never reaches the site;
- peak memory stays within 10 times the dump's size plus 100 MB over rendering the
  intact seed; no run takes longer than the timeout (a FIFO must not hang it).

Failures are collected, not raised, so one run reports every distinct kind.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from dump_states import file_state
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from mutations import MARKER, OTHER_DUMP, OUTSIDE, Mutation, mutation_lists
from synthetic import make_dump

import depyf_report
from depyf_report.model import SCHEMA_VERSION
from depyf_report.render import urls
from depyf_report.resources import templates

REPO = Path(__file__).resolve().parents[2]
REAL_SEED = Path(__file__).parent / "data" / "fuzz_seed"
TIMEOUT = float(os.environ.get("DEPYF_FUZZ_TIMEOUT", 10))
MB = 1 << 20
# Another checkout's package to render with (say, an older commit's), instead of ours.
SOURCE = os.environ.get("DEPYF_FUZZ_SOURCE")
PREFIXES = ("depyf-report: warning: ", "depyf-report: error: ")
# C0 and C1 controls but newline and tab, DEL, and the bidirectional overrides.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")

# Runs in the child: logs every open, listing and change outside what it may touch,
# prints the stacks if it hangs, then runs the command line as `python -m` would.
WRAPPER = r"""
import faulthandler, json, os, stat, sys
log_path, config, argv = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
READ, WRITE = tuple(config["read"]), tuple(config["write"])
log = open(log_path, "w", buffering=1)
faulthandler.dump_traceback_later(config["hang_after"], exit=False)
WRITES = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
CHANGES = {"os.mkdir": (0,), "os.remove": (0,), "os.rmdir": (0,), "os.chmod": (0,),
    "os.utime": (0,), "os.truncate": (0,), "os.rename": (0, 1), "os.link": (1,),
    "os.symlink": (1,), "shutil.rmtree": (0,), "shutil.copyfile": (1,), "shutil.move": (1,)}
busy = []

def real(path):
    if path is None or isinstance(path, int):
        return None
    try:
        return os.path.realpath(os.path.abspath(os.fsdecode(path)))
    except (TypeError, ValueError):
        return None

def within(path, roots):
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)

def check(event, args):
    if event == "open":
        path, mode, flags = args
        flags = flags if isinstance(flags, int) and flags >= 0 else 0
        target = real(path)
        if target is None:
            return
        if flags & os.O_NOFOLLOW:  # a link as the last part fails to open: not followed
            name = os.path.abspath(os.fsdecode(path))
            target = os.path.join(os.path.realpath(os.path.dirname(name)), os.path.basename(name))
        writes = any(c in (mode or "") for c in "wax+") or bool(flags & WRITES)
        if writes and not within(target, WRITE):
            log.write(f"write outside the site\t{path!r}\t{target}\n")
        elif not writes and not within(target, READ):
            log.write(f"read outside the dump\t{path!r}\t{target}\n")
        elif not writes and not flags & os.O_NONBLOCK and os.path.exists(target):
            kind = os.stat(target).st_mode
            if not (stat.S_ISREG(kind) or stat.S_ISDIR(kind) or target.startswith("/dev/")):
                log.write(f"opened a non-regular file\t{path!r}\t{target}\n")
    elif event in ("os.listdir", "os.scandir"):
        target = real(args[0] if args[0] is not None else ".")
        if target is not None and not within(target, READ):
            log.write(f"listed a folder outside the dump\t{args[0]!r}\t{target}\n")
    elif event in CHANGES:
        if len(args) > 2 and isinstance(args[-1], int):
            return  # relative to a dir_fd: cannot place it
        for i in CHANGES[event]:
            target = real(args[i])
            if target is not None and not within(target, WRITE):
                log.write(f"write outside the site\t{event} {args[i]!r}\t{target}\n")

def hook(event, args):
    if busy:
        return
    busy.append(1)
    try:
        check(event, args)
    except Exception as error:  # never let the watcher break what it watches
        log.write(f"audit hook error\t{event}\t{error!r}\n")
    finally:
        busy.pop()

sys.path[:0] = config["path"]
sys.addaudithook(hook)
sys.argv = ["depyf-report", *argv]
from depyf_report.cli import main
code = main(argv)
faulthandler.cancel_dump_traceback_later()
raise SystemExit(code)
"""


@dataclass
class Seed:
    """An intact dump the fuzzer copies and damages."""

    name: str
    root: Path
    baseline_kb: int = 0  # peak RSS of rendering it intact

    @property
    def files(self) -> list[str]:
        return _tree(self.root)[0]

    @property
    def folders(self) -> list[str]:
        return _tree(self.root)[1]

    def data(self, rel: str):
        return _json_of(self.root / rel)


@cache
def _tree(root: Path) -> tuple[list[str], list[str]]:
    files, folders = [], []
    for path in sorted(root.rglob("*")):
        (files if path.is_file() else folders).append(path.relative_to(root).as_posix())
    return files, folders


@cache
def _json_of(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def make_seeds(work: Path) -> dict[str, Seed]:
    """The committed real capture, and a two-process synthetic dump; each rendered
    once intact for its memory baseline."""
    work.mkdir(parents=True, exist_ok=True)
    real = work / "real"
    shutil.copytree(REAL_SEED, real)
    seeds = {
        "real": Seed("real", real),
        "synthetic": Seed("synthetic", make_dump(work / "synthetic", graphs=3, processes=2)),
    }
    for seed in seeds.values():
        result = run_example(seed, [], work, seeds)
        if result.failures:
            raise AssertionError(f"the intact {seed.name} seed fails:\n{result.describe()}")
        seed.baseline_kb = result.peak_kb
    return seeds


# --- one example ------------------------------------------------------------------


@dataclass
class Result:
    seed: str
    mutations: list[Mutation]
    applied: list[bool]
    returncode: int | None = None
    seconds: float = 0.0
    peak_kb: int = 0
    dump_bytes: int = 0
    stderr: str = ""
    stdout: str = ""
    audit: str = ""  # the child's audit hook's log: one line per forbidden access
    failures: list[tuple[str, str]] = field(default_factory=list)  # (kind, evidence)

    def replay_json(self) -> str:
        return json.dumps({"seed": self.seed, "mutations": [m.to_json() for m in self.mutations]})

    def describe(self) -> str:
        lines = [f"seed dump: {self.seed}; exit {self.returncode} after {self.seconds:.1f} s"]
        lines += [f"  {'' if ok else '(no-op) '}{m}" for m, ok in zip(self.mutations, self.applied)]
        lines += [f"  FAIL {kind}: {evidence}" for kind, evidence in self.failures]
        lines.append(
            "rebuild: .venv/bin/python benchmarks/render_fuzz.py --keep /tmp/fuzz-case "
            f"--replay '{self.replay_json()}'\n"
            "then:    .venv/bin/python -m depyf_report /tmp/fuzz-case/dump -o /tmp/fuzz-case/site"
        )
        return "\n".join(lines)


def build_sandbox(seed: Seed, seeds: dict[str, Seed], mutations, root: Path) -> list[bool]:
    """root/dump (the damaged copy), root/outside (the seed with MARKER in every
    string), root/other_dump (another intact dump), root/cwd; returns which applied."""
    shutil.copytree(seed.root, root / "dump")
    _marked_copy(seed.root, root / OUTSIDE)
    other = seeds["synthetic" if seed.name == "real" else "real"]
    shutil.copytree(other.root, root / OTHER_DUMP)
    (root / "cwd").mkdir()
    return [mutation.apply(root / "dump") for mutation in mutations]


def _marked_copy(source: Path, dest: Path) -> None:
    shutil.copytree(source, dest)
    for path in dest.rglob("*.json"):
        path.write_text(json.dumps(_mark(_json_of(source / path.relative_to(dest)))))


def _mark(data):
    if isinstance(data, str):
        return MARKER + data
    if isinstance(data, list):
        return [_mark(v) for v in data]
    if isinstance(data, dict):
        return {k: _mark(v) for k, v in data.items()}
    return data


def run_example(
    seed: Seed, mutations, work: Path, seeds: dict[str, Seed], *, keep: Path | None = None
) -> Result:
    """Damage a copy of ``seed``, render it, judge; ``keep`` keeps the sandbox there."""
    root = keep or Path(tempfile.mkdtemp(prefix="case-", dir=work))
    root.mkdir(parents=True, exist_ok=True)
    try:
        applied = build_sandbox(seed, seeds, mutations, root)
        result = Result(seed.name, list(mutations), applied)
        before = _snapshot(root)
        result.dump_bytes = sum(size for _, size, _ in before.values())
        _run(root, result)
        result.failures += judge(root, seed, result, before)
        return result
    finally:
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)


def _run(root: Path, result: Result) -> None:
    harness = root / "harness"
    harness.mkdir()
    limit = 4 * (result.dump_bytes * 10 + 100 * MB) + 2048 * MB
    config = {
        "read": [str(p) for p in _readable(root)],
        "write": [str((root / "site").resolve())],
        "hang_after": max(TIMEOUT - 2, 1),
        "path": [str(SOURCE)] if SOURCE else [],
    }
    args = [str(root / "dump"), "-o", str(root / "site"), "--no-progress"]
    command = [sys.executable, "-I", "-B", "-c", WRAPPER, str(harness / "audit.log")]
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONUTF8": "1"}
    start = time.monotonic()
    with open(harness / "out", "wb") as out, open(harness / "err", "wb") as err:
        proc = subprocess.Popen(
            [*command, json.dumps(config), *args],
            stdout=out,
            stderr=err,
            cwd=root / "cwd",
            env=env,
            start_new_session=True,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)),
        )
        status, usage = _wait(proc, start + TIMEOUT)
    result.seconds = time.monotonic() - start
    result.returncode = None if status is None else os.waitstatus_to_exitcode(status)
    result.peak_kb = usage.ru_maxrss
    result.stderr = (harness / "err").read_bytes().decode("utf-8", "backslashreplace")
    result.stdout = (harness / "out").read_bytes().decode("utf-8", "backslashreplace")
    result.audit = (harness / "audit.log").read_text() if (harness / "audit.log").exists() else ""


def _wait(proc: subprocess.Popen, deadline: float):
    """(wait status or None on timeout, rusage) of the child alone, via wait4."""
    pause = 0.005
    while time.monotonic() < deadline:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            proc.returncode = os.waitstatus_to_exitcode(status)
            return status, usage
        time.sleep(pause)
        pause = min(pause * 2, 0.1)
    os.killpg(proc.pid, signal.SIGKILL)
    _, _, usage = os.wait4(proc.pid, 0)
    proc.returncode = -9
    return None, usage


def _readable(root: Path) -> list[Path]:
    """What render may open: the dump, the site, its own code, the interpreter."""
    package = Path(depyf_report.__file__).parent
    roots = [root / "dump", root / "site", root / "cwd", package, Path(str(templates()))]
    roots += [Path(SOURCE)] if SOURCE else []
    roots += [Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)]
    roots += [Path(p) for p in ("/dev/null", "/dev/urandom", "/usr/share/zoneinfo")]
    roots += [Path("/etc/localtime"), Path("/usr/lib/locale")]
    return sorted({p.resolve() for p in roots})


def _snapshot(root: Path) -> dict[str, tuple]:
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


# --- judging ----------------------------------------------------------------------


def judge(root: Path, seed: Seed, result: Result, before: dict) -> list[tuple[str, str]]:
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


def _judge_output(result: Result) -> list[tuple[str, str]]:
    err, failures = result.stderr, []
    if result.returncode is None:
        failures.append((f"hang: no exit in {TIMEOUT:.0f} s{_where(err)}", _tail(err)))
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


def _judge_audit(result: Result) -> list[tuple[str, str]]:
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
    after = _snapshot(root)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    failures = [("changed a file outside the site", ", ".join(changed[:5]))] if changed else []
    site = root / "site"
    leaked = [p.name for p in site.rglob("*") if p.is_file() and MARKER.encode() in p.read_bytes()]
    if leaked:
        failures.append(("text from outside the dump in the site", ", ".join(leaked[:5])))
    return failures


def _judge_rules(root: Path, seed: Seed, result: Result) -> list[tuple[str, str]]:
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
    return failures


def _named(dump: Path, rel: str, result: Result, warnings: list[str]):
    """A damaged file that render skipped must be named in a warning, with its field
    when one mutation damaged one field."""
    state = file_state(dump, rel)
    if not state.damaged or (rel.startswith("views/") and _functions_damaged(dump)):
        return []
    lines = [w for w in warnings if rel in w]
    if not lines:
        return [(f"no warning names a damaged file ({state.damaged})", f"{rel}: {state.reason}")]
    own = [m for m, ok in zip(result.mutations, result.applied) if ok and m.target == rel]
    if len(own) == 1 and state.damaged == "invalid record" and hasattr(own[0], "path"):
        keys = [k for k in own[0].path if isinstance(k, str)]
        if keys and not any(keys[-1] in w for w in lines):
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


# --- many examples ----------------------------------------------------------------


@dataclass
class Report:
    examples: int = 0
    seconds: float = 0.0
    peak_kb: int = 0
    by_kind: dict[str, list[Result]] = field(default_factory=lambda: defaultdict(list))

    def add(self, result: Result) -> None:
        self.examples += 1
        self.seconds += result.seconds
        self.peak_kb = max(self.peak_kb, result.peak_kb)
        for kind in dict.fromkeys(kind for kind, _ in result.failures):
            self.by_kind[kind].append(result)

    @property
    def failed(self) -> int:
        return len({id(r) for results in self.by_kind.values() for r in results})

    def describe(self) -> str:
        parts = [
            f"{self.failed} of {self.examples} examples failed, "
            f"{len(self.by_kind)} distinct kinds; one smallest example of each:"
        ]
        for kind, results in sorted(self.by_kind.items(), key=lambda kv: -len(kv[1])):
            smallest = min(results, key=lambda r: (len(r.mutations), r.dump_bytes))
            parts.append(f"\n== {kind} ({len(results)} examples)\n{smallest.describe()}")
        return "\n".join(parts)


def fuzz(examples: int, seed: int, seeds: dict[str, Seed], work: Path, progress=None) -> Report:
    """Run ``examples`` hypothesis examples from ``seed``; never raises on a failure."""
    report = Report()

    @hypothesis_seed(seed)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def one(data):
        name = data.draw(st.sampled_from(sorted(seeds)), label="seed")
        mutations = data.draw(mutation_lists(seeds[name]), label="mutations")
        result = run_example(seeds[name], mutations, work, seeds)
        report.add(result)
        if progress:
            progress(report, result)

    one()
    return report
