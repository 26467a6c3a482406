"""How much of Dynamo's code prepare_debug runs from decompiled files.

    .venv/bin/python benchmarks/debug_substitution.py [--examples toy_example ...]

For each example in examples/ and each of the eager and aot_eager backends, runs
the example under prepare_debug and prints how many transformed code objects run
from their decompiled file, how many graph files were written, and why any were
kept as Dynamo wrote them. Prints numbers; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "examples"))

import torch  # noqa: E402

import depyf_report  # noqa: E402
from depyf_report.dump import load_dump  # noqa: E402

EXAMPLES = sorted(p.stem for p in (REPO / "examples").glob("*.py"))
BACKENDS = ("eager", "aot_eager")


def run_one(name: str, backend: str, dump: Path) -> tuple[int, int, int, Counter]:
    torch._dynamo.reset()
    module = importlib.import_module(name)
    quiet = io.StringIO()
    with (
        contextlib.redirect_stdout(quiet),
        contextlib.redirect_stderr(quiet),
        depyf_report.prepare_debug(dump),
    ):
        module.main(backend)
    sources = [s for p in load_dump(dump).processes for s in p.debug.sources]
    functions = [s for s in sources if s.kind == "function"]
    kept = Counter((s.reason or "")[:100] for s in functions if not s.substituted)
    substituted = sum(s.substituted for s in functions)
    return substituted, len(functions), len(sources) - len(functions), kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", nargs="*", default=EXAMPLES)
    args = parser.parse_args()
    total, reasons = Counter(), Counter()
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.examples:
            for backend in BACKENDS:
                done, count, graphs, kept = run_one(name, backend, Path(tmp) / f"{name}-{backend}")
                total.update(substituted=done, functions=count, graph_files=graphs)
                reasons.update(kept)
                print(f"{name:20} {backend:10} {done}/{count} run from files, {graphs} graph files")
    print(
        f"total: {total['substituted']}/{total['functions']} transformed code objects run "
        f"from their decompiled files; {total['graph_files']} graph files"
    )
    for reason, n in reasons.most_common():
        print(f"  kept as Dynamo wrote it ({n}): {reason}")


if __name__ == "__main__":
    main()
