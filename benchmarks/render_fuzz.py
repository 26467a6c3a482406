"""Render's fuzz test (tests/render/test_fuzz.py) run longer, and the 200 MB field.

    .venv/bin/python benchmarks/render_fuzz.py [--examples 500] [--seed 21] [--huge-mb 200]
    .venv/bin/python benchmarks/render_fuzz.py --keep /tmp/fuzz-case --replay '<JSON>'

Prints the examples run, the failures by kind with the smallest example of each, the
seconds and the peak memory; then renders the real seed with one 200 MB line of
source and prints its peak memory. --replay rebuilds one failing example (the JSON
a failure prints) under --keep, renders it and prints the verdict. Asserts nothing;
exits 1 when any example failed. DEPYF_FUZZ_SOURCE=<folder holding depyf_report>
renders with another checkout (an older commit, say) instead of this one.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "render"))

import fuzz_render  # noqa: E402
import mutations  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=500)
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--huge-mb", type=int, default=200, help="0 to skip the huge field")
    parser.add_argument("--replay", help="JSON of one example, as a failure prints it")
    parser.add_argument("--keep", type=Path, help="where --replay builds the dump and site")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="render-fuzz-") as tmp:
        work = Path(tmp)
        seeds = fuzz_render.make_seeds(work / "seeds")
        if args.replay:
            return replay(json.loads(args.replay), seeds, work, args.keep)
        failed = run_fuzz(args.examples, args.seed, seeds, work)
        if args.huge_mb:
            huge_field(args.huge_mb, seeds, work)
    return 1 if failed else 0


def run_fuzz(examples: int, seed: int, seeds, work: Path) -> int:
    start = time.monotonic()

    def progress(report, result):
        for kind, _ in result.failures:
            if report.by_kind[kind] == [result]:  # the first example of a new kind
                print(f"  new kind at example {report.examples}: {kind}", flush=True)
        if report.examples % 50 == 0:
            print(f"  {report.examples} examples, {report.failed} failed", flush=True)

    report = fuzz_render.fuzz(examples, seed, seeds, work, progress)
    wall = time.monotonic() - start
    print(report.describe() if report.by_kind else "no failures")
    print(
        f"\nexamples run: {report.examples} (seed {seed}); failed: {report.failed}; "
        f"distinct kinds: {len(report.by_kind)}"
    )
    print(f"wall time: {wall:.0f} s ({report.seconds / max(report.examples, 1):.2f} s a render)")
    print(f"peak memory of one render: {report.peak_kb / 1024:.0f} MB")
    return report.failed


def huge_field(megabytes: int, seeds, work: Path) -> None:
    """The real seed with one line of source holding a string of ``megabytes`` MB."""
    mutations.HUGE_STRING_BYTES = megabytes << 20
    fuzz_render.TIMEOUT = max(fuzz_render.TIMEOUT, 600)
    huge = mutations.ReplaceValue("functions/step.json", ("source",), "huge string")
    result = fuzz_render.run_example(seeds["real"], [huge], work, seeds)
    print(
        f"\n{megabytes} MB field: exit {result.returncode} in {result.seconds:.1f} s, "
        f"peak memory {result.peak_kb / 1024:.0f} MB "
        f"(intact seed {seeds['real'].baseline_kb / 1024:.0f} MB, "
        f"dump {result.dump_bytes / (1 << 20):.0f} MB)"
    )
    for kind, evidence in result.failures:
        print(f"  FAIL {kind}: {evidence}")


def replay(example: dict, seeds, work: Path, keep: Path | None) -> int:
    changes = [mutations.Mutation.from_json(m) for m in example["mutations"]]
    if keep is not None and keep.exists() and any(keep.iterdir()):
        raise SystemExit(f"{keep}: not empty")
    result = fuzz_render.run_example(seeds[example["seed"]], changes, work, seeds, keep=keep)
    print(result.describe())
    print("\nstderr:\n" + result.stderr)
    if keep:
        print(f"dump and site kept in {keep}")
    return 1 if result.failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
