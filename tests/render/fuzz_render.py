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

from fuzz_judge import judge, snapshot
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from mutations import MARKER, OTHER_DUMP, OUTSIDE, Mutation, mutation_lists
from synthetic import make_dump

import depyf_report
from depyf_report.dump import DebugIndex, DebugSource, Layout, to_json, write_json
from depyf_report.resources import templates

REPO = Path(__file__).resolve().parents[2]
REAL_SEED = Path(__file__).parent / "data" / "fuzz_seed"
CHILD = Path(__file__).parent / "fuzz_child.py"
TIMEOUT = float(os.environ.get("DEPYF_FUZZ_TIMEOUT", 10))
MB = 1 << 20
# Another checkout's package to render with (say, an older commit's), instead of ours.
SOURCE = os.environ.get("DEPYF_FUZZ_SOURCE")


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
    synthetic = make_dump(work / "synthetic", graphs=3, processes=2)
    _write_debug_index(Layout(synthetic))
    seeds = {"real": Seed("real", real), "synthetic": Seed("synthetic", synthetic)}
    for seed in seeds.values():
        result = run_example(seed, [], work, seeds)
        if result.failures:
            raise AssertionError(f"the intact {seed.name} seed fails:\n{result.describe()}")
        seed.baseline_kb = result.peak_kb
    return seeds


def _write_debug_index(layout: Layout) -> None:
    """What a prepare_debug capture adds, so that debug/index.json gets damaged too."""
    source = DebugSource(
        kind="function",
        name="__transformed_code_0_for_f0",
        compile_id="0/0",
        file="/home/user/project/dump/debug/f0-0-0.py",
        line=3,
        substituted=True,
        original_file="/home/user/project/model.py",
        original_line=1,
    )
    write_json(layout.debug_index, to_json(DebugIndex([source])))


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
    timeout: float = 0.0
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
    return [_apply(mutation, root / "dump") for mutation in mutations]


def _apply(mutation: Mutation, dump: Path) -> bool:
    try:
        return mutation.apply(dump)
    except OSError:  # what an earlier mutation left makes this one impossible
        return False


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
        before = snapshot(root)
        dump = "dump" + os.sep
        result.dump_bytes = sum(v[1] for k, v in before.items() if k.startswith(dump))
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
        "peak": str(harness / "peak"),
    }
    result.timeout = TIMEOUT
    args = [str(root / "dump"), "-o", str(root / "site"), "--no-progress"]
    command = [sys.executable, "-I", "-B", str(CHILD), str(harness / "audit.log")]
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
    peak = harness / "peak"  # the child's own report; rusage when it was killed
    reported = peak.read_text() if peak.exists() else ""
    result.peak_kb = int(reported) if reported else usage.ru_maxrss
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
    roots.append(CHILD)
    roots += [Path(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)]
    roots += [Path(p) for p in ("/dev/null", "/dev/urandom", "/usr/share/zoneinfo")]
    roots += [Path("/etc/localtime"), Path("/usr/lib/locale")]
    return sorted({p.resolve() for p in roots})


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
