"""How long rendering takes: synthetic dumps of 250/500/1000 graphs, a re-render, and
real examples next to tlparse 0.4.3 on TORCH_TRACE logs of the same runs.

    .venv/bin/python benchmarks/render_speed.py [--no-examples] [--examples toy_example ...]

Prints numbers; it asserts nothing. The 1,000-graph render should stay under 15 s
on a 2-core machine and grow linearly. tlparse is used for comparison only
(`pip install tlparse==0.4.3` into .venv).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "render"))

from synthetic import make_dump  # noqa: E402

from depyf_report.render import render, writer  # noqa: E402

SIZES = (250, 500, 1000)
EXAMPLES = ("toy_example", "training_step", "dynamic_shapes", "module_print")
BIN = Path(sys.executable).parent


class PageCounter:
    """Counts pages written and skipped, read from the writer when it finishes."""

    def __init__(self):
        self.written = self.skipped = 0
        self._original = writer.SiteWriter.finish

    def __enter__(self):
        counter, original = self, self._original

        def finish(self):
            counter.written, counter.skipped = len(self.written), len(self.skipped)
            return original(self)

        writer.SiteWriter.finish = finish
        return self

    def __exit__(self, *exc):
        writer.SiteWriter.finish = self._original


def timed(fn, *args, **kwargs) -> float:
    start = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - start


def cpu_seconds() -> float:
    """CPU time of this process and its finished workers: steadier than wall time
    when other jobs share the machine."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def synthetic(work: Path) -> None:
    load = os.getloadavg()[0]
    print(f"synthetic dumps, {os.cpu_count()} cores, load average {load:.1f} before starting")
    for size in SIZES:
        dump = make_dump(work / f"dump{size}", graphs=size)
        cpu = cpu_seconds()
        with PageCounter() as pages:
            seconds = timed(render, dump, work / f"site{size}", progress=False)
        cpu = cpu_seconds() - cpu
        per = seconds / size * 1000
        print(
            f"  {size:5d} graphs: {seconds:6.2f} s wall, {cpu:6.2f} s CPU "
            f"({per:.1f} ms/graph, {pages.written} pages)"
        )
    with PageCounter() as pages:
        seconds = timed(render, work / "dump1000", work / "site1000", progress=False)
    print(
        f"  re-render of the unchanged 1000-graph dump: {seconds:.2f} s "
        f"({pages.skipped} pages skipped, {pages.written} written)"
    )


def capture_examples(work: Path, names: list[str]) -> tuple[list[Path], list[Path]]:
    """A depyf-report dump and a TORCH_TRACE log of each example, with Inductor."""
    dumps, logs = [], []
    for name in names:
        script = REPO / "examples" / f"{name}.py"
        dump, trace = work / "dumps" / name, work / "traces" / name
        run = [str(BIN / "depyf-report"), "run", "-o", str(dump), "--", "python", str(script)]
        subprocess.run([*run, "inductor"], check=True, capture_output=True, cwd=REPO)
        env = {**os.environ, "TORCH_TRACE": str(trace)}
        subprocess.run(
            [sys.executable, str(script), "inductor"],
            check=True,
            capture_output=True,
            env=env,
            cwd=REPO,
        )
        dumps.append(dump)
        logs += sorted(trace.glob("*.log"))
    return dumps, logs


def examples(work: Path, names: list[str]) -> None:
    tlparse = shutil.which("tlparse", path=str(BIN))
    print(f"examples with inductor: {', '.join(names)} (capturing, not timed)")
    dumps, logs = capture_examples(work, names)
    ours = sum(timed(render, d, work / "sites" / d.name, progress=False) for d in dumps)
    print(f"  depyf-report render of {len(dumps)} dumps:   {ours:6.2f} s")
    if not tlparse:
        print("  tlparse: not installed (pip install tlparse==0.4.3 into .venv)")
        return
    theirs = 0.0
    for log in logs:
        out = work / "tl_out" / log.stem
        cmd = [tlparse, str(log), "-o", str(out), "--overwrite", "--no-browser"]
        theirs += timed(subprocess.run, cmd, check=True, capture_output=True)
    print(f"  tlparse 0.4.3 on {len(logs)} TORCH_TRACE logs: {theirs:6.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-examples", action="store_true", help="synthetic dumps only")
    parser.add_argument("--examples", nargs="+", default=list(EXAMPLES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="render-speed-") as tmp:
        work = Path(tmp)
        synthetic(work)
        if not args.no_examples:
            examples(work, args.examples)


if __name__ == "__main__":
    main()
