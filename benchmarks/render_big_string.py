"""Peak memory and time to render a function whose source holds one long string.

    .venv/bin/python benchmarks/render_big_string.py [--sizes 5 20 200]

Each size (MB) runs in a child process, so its peak resident memory (ru_maxrss)
is its own: a synthetic dump whose first function's source is one line,
``x = '<N MB>'``, rendered through ``depyf_report.render.render``. Prints
numbers; it asserts nothing. Issue 21 measured 0.87 GB for 5 MB and 3.4 GB for
20 MB before the fix, and 200 MB was killed at 24 GB.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "render"))


def one(size_mb: int, escapes: bool) -> dict:
    from synthetic import make_dump

    from depyf_report.render import render

    with tempfile.TemporaryDirectory() as tmp:
        dump = make_dump(Path(tmp) / "dump", graphs=2)
        path = dump / "functions" / "f0.json"
        record = json.loads(path.read_text())
        body = "\\n" * (size_mb * 500_000) if escapes else "a" * (size_mb * 1_000_000)
        record["source"] = f"def forward_0(self, x, b):\n    x = '{body}'\n    return x\n"
        path.write_text(json.dumps(record))
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        render(dump, Path(tmp) / "site", progress=False)
        seconds = time.perf_counter() - start
        site = sum(p.stat().st_size for p in (Path(tmp) / "site").rglob("*") if p.is_file())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # KiB on Linux
    return {"seconds": seconds, "peak": peak, "before": before * 1024, "site": site}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # 0: the same render with an empty string, for the interpreter's own memory
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 5, 20, 200])
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one(int(args.child[0]), args.child[1] == "escapes")))
        return
    print(f"{'string':>18} {'time':>8} {'peak RSS':>10} {'x input':>8} {'site':>10}")
    for size in args.sizes:
        for kind in ("plain", "escapes"):
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(size), kind],
                capture_output=True,
                text=True,
                check=False,
            )
            if out.returncode:
                print(f"{size:>6} MB {kind:>8}: failed ({out.returncode}) {out.stderr[-300:]}")
                continue
            r = json.loads(out.stdout.splitlines()[-1])
            times = f"{r['peak'] / (size * 1e6):.1f}x" if size else "-"
            print(
                f"{size:>6} MB {kind:>8} {r['seconds']:>7.1f}s {r['peak'] / 1e9:>8.2f} GB"
                f" {times:>8} {r['site'] / 1e6:>8.0f} MB"
            )


if __name__ == "__main__":
    main()
