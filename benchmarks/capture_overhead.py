"""Capture's overhead: each example's main() with plain torch.compile vs under capture.

    python benchmarks/capture_overhead.py [--backend eager] [--repeat 3] [EXAMPLE ...]

Each measurement runs in a fresh process (so every compile is a real one) and
times main() alone, not interpreter start or `import torch._dynamo`. Plain and capture
runs alternate; the median of the repeats is reported, then the ratio of the
totals. The target is a ratio within 1.10.
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import importlib.util
import io
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.stem for p in (REPO / "examples").glob("*.py"))


def _child(example: str, backend: str, dump: str) -> None:
    """Run one example once and print the seconds main() took."""
    # Imported before timing on both sides: loading torch._dynamo is not a compile.
    import torch._dynamo  # noqa: F401

    spec = importlib.util.spec_from_file_location(example, REPO / "examples" / f"{example}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    capture = contextlib.nullcontext()
    if dump:
        import depyf_report

        capture = depyf_report.capture(dump)
    from depyf_report.dump import Layout, wait_for_decompiler

    pid_file = Layout(Path(dump or ".")).decompiler_pid
    start, cpu, helpers = time.perf_counter(), time.process_time(), _children_cpu()
    with contextlib.redirect_stdout(io.StringIO()), capture:
        decompiler = int(pid_file.read_text().split()[0]) if dump else None  # microseconds
        module.main(backend)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    views_lag = 0.0
    if decompiler:  # not part of main(): the decompiler process finishes on its own
        wait_for_decompiler(Layout(Path(dump)))
        views_lag = time.perf_counter() - start - wall
        with contextlib.suppress(ChildProcessError):  # already reaped: already counted
            os.waitpid(decompiler, 0)  # only waited-for children count in RUSAGE_CHILDREN
    print(wall, cpu, _children_cpu() - helpers, views_lag)


def _compile_bytecode() -> None:
    """Write depyf_report's bytecode files, as pip does when it installs a package. In
    an editable checkout under PYTHONDONTWRITEBYTECODE they go stale, and capture's
    decompiler process would compile every module from source at each start."""
    compileall.compile_dir(REPO / "depyf_report", quiet=1)
    print("depyf_report's bytecode files written first, as an install writes them")


def _children_cpu() -> float:
    """CPU seconds of finished child processes: capture's decompiler process."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _measure(example: str, backend: str, captured: bool) -> tuple[float, float, float, float]:
    """(wall seconds, CPU seconds, child processes' CPU seconds, seconds from the end
    of main() until every view was written) of one main()."""
    with tempfile.TemporaryDirectory() as tmp:
        dump = str(Path(tmp) / "dump") if captured else ""
        out = subprocess.run(
            [sys.executable, __file__, "--child", example, backend, dump],
            capture_output=True,
            text=True,
            check=True,
            cwd=REPO,
            env={**os.environ, "TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"},
        )
    return tuple(float(x) for x in out.stdout.strip().splitlines()[-1].split())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="*", default=EXAMPLES)
    parser.add_argument("--backend", default="eager")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    _compile_bytecode()
    print(f"backend {args.backend}, median of {args.repeat} fresh processes each")
    print("CPU time is printed too: on a busy machine it is the steadier figure.")
    print("decompiler cpu: capture's decompiler process, which runs beside the program;")
    print("views after: seconds after main() until it had written every view.")
    print(
        f"{'example':<22}{'plain s':>9}{'capture s':>11}{'ratio':>7}{'plain cpu':>11}"
        f"{'capture cpu':>13}{'ratio':>7}{'decompiler cpu':>16}{'views after':>13}"
    )
    totals = [0.0] * 6
    for example in args.examples:
        runs: dict[bool, list[tuple[float, ...]]] = {False: [], True: []}
        for _ in range(args.repeat):
            for captured in (False, True):
                runs[captured].append(_measure(example, args.backend, captured))
        row = [
            statistics.median(t[i] for t in runs[captured])
            for i in (0, 1)
            for captured in (False, True)
        ]  # plain wall, capture wall, plain cpu, capture cpu
        row += [statistics.median(t[i] for t in runs[True]) for i in (2, 3)]
        totals = [a + b for a, b in zip(totals, row)]
        print(_row(example, row))
    print(_row("total", totals))


def _row(label: str, row: list[float]) -> str:
    wall, capture_wall, cpu, capture_cpu, decompiler_cpu, views_after = row
    return (
        f"{label:<22}{wall:>9.3f}{capture_wall:>11.3f}{capture_wall / wall:>7.3f}"
        f"{cpu:>11.3f}{capture_cpu:>13.3f}{capture_cpu / cpu:>7.3f}{decompiler_cpu:>16.3f}"
        f"{views_after:>13.3f}"
    )


if __name__ == "__main__":
    main()
