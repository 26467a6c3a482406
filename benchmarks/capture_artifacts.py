"""What capture records for each example: a table of artifacts per backend.

    python benchmarks/capture_artifacts.py [--backend eager] [EXAMPLE ...]

Runs each example under `depyf-report run` in a fresh process and counts the
functions, resume functions, cache entries, guards, compiles, graph breaks,
graphs, stages, output code modules and kernels in its dump.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from depyf_report.dump import load_dump  # noqa: E402

EXAMPLES = sorted(p.stem for p in (REPO / "examples").glob("*.py"))
COLUMNS = (
    "fns",
    "resume",
    "entries",
    "guards",
    "compiles",
    "breaks",
    "graphs",
    "stages",
    "code",
    "kernels",
    "files",
)


def count(dump: Path) -> dict[str, int]:
    process = load_dump(dump).processes[0]
    functions = list(process.functions.values())
    entries = [e for f in functions for e in f.entries]
    graphs = list(process.graphs.values())
    outputs = [o for g in graphs for o in g.output_code]
    return {
        "fns": len(functions),
        "resume": sum(f.is_resume for f in functions),
        "entries": len(entries),
        "guards": sum(len(e.guards.guards) for e in entries),
        "compiles": len(process.compiles),
        "breaks": sum(len(c.graph_breaks) for c in process.compiles.values()),
        "graphs": len(graphs),
        "stages": sum(len(g.stages) for g in graphs),
        "code": len(outputs),
        "kernels": sum(len(o.kernels) for o in outputs),
        "files": sum(1 for _ in dump.rglob("*.json")),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("examples", nargs="*", default=EXAMPLES)
    parser.add_argument("--backend", default="eager")
    args = parser.parse_args()
    print(f"backend {args.backend}")
    print(f"{'example':<22}" + "".join(f"{c:>9}" for c in COLUMNS))
    for example in args.examples:
        with tempfile.TemporaryDirectory() as tmp:
            dump = Path(tmp) / "dump"
            command = [sys.executable, "-m", "depyf_report", "run", "-o", str(dump), "--"]
            script = REPO / "examples" / f"{example}.py"
            subprocess.run(
                [*command, "python", str(script), args.backend],
                check=True,
                capture_output=True,
                cwd=REPO,
            )
            counts = count(dump)
        print(f"{example:<22}" + "".join(f"{counts[c]:>9}" for c in COLUMNS))


if __name__ == "__main__":
    main()
