"""Decompiler linearity in work, not time: machine instructions and cache misses.

Time on a shared machine moves by a third over minutes, and a run whose data no
longer fits the caches pays for it per line. This script counts instead, under
valgrind's cachegrind (which simulates this machine's caches): for the generated
functions of ``decompile_speed.py``, the instructions that one decompile executes
and the data reads and writes that miss the last-level cache. Each figure is a
decompile's run minus a run that does everything else (builds the code object,
imports the decompiler and warms it up), so the ratio is the decompile's alone.
Both sizes run at once; the 20,000-line run takes about four minutes.

    python benchmarks/decompile_work.py
    python benchmarks/decompile_work.py --python /root/.pyenv/versions/3.13.0/bin/python
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SIZES = (2_000, 20_000)

# Run by the measured interpreter: build the code object, import the decompiler and
# warm it up on a small function (both runs pay for that alike), then decompile the
# generated function if asked.
PROGRAM = """
import sys
sys.path[:0] = [{benchmarks!r}, {repo!r}]
from decompile_speed import generated_code
from depyf_report import decompile
code = generated_code({lines})
decompile(generated_code(100))
if {decompile}:
    decompile(code)
"""


def counted(python: str, lines: int, decompile: bool, folder: Path) -> dict[str, int]:
    """cachegrind's totals for one run of ``PROGRAM``."""
    out = folder / f"{lines}-{int(decompile)}.out"
    program = PROGRAM.format(
        benchmarks=str(REPO / "benchmarks"), repo=str(REPO), lines=lines, decompile=decompile
    )
    command = [
        "valgrind", "--tool=cachegrind", "--cache-sim=yes", f"--cachegrind-out-file={out}",
        python, "-c", program,
    ]  # fmt: skip
    subprocess.run(command, check=True, capture_output=True, env={**os.environ, "PYTHONPATH": ""})
    events = summary = None
    for line in out.read_text().splitlines():
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith("summary:"):
            summary = [int(n) for n in line.split()[1:]]
    if events is None or summary is None:
        raise RuntimeError(f"no totals in {out}")
    totals = dict(zip(events, summary))
    return {"instructions": totals["Ir"], "misses": totals["DLmr"] + totals["DLmw"]}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="interpreter to measure")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (apt-get install -y valgrind); nothing measured")
        return 1
    version = subprocess.run(
        [args.python, "-c", "import sys; print(sys.version.split()[0])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    print(f"== Python {version}: decompile work under cachegrind", flush=True)
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(2) as pool:
        runs = {
            (lines, decompile): pool.submit(counted, args.python, lines, decompile, Path(tmp))
            for lines in SIZES
            for decompile in (False, True)
        }
        work = {
            lines: {
                key: runs[lines, True].result()[key] - runs[lines, False].result()[key]
                for key in ("instructions", "misses")
            }
            for lines in SIZES
        }
    small, large = (work[lines] for lines in SIZES)
    for lines in SIZES:
        print(
            f"{lines:>6}-line function: {work[lines]['instructions'] / 1e6:,.0f} M instructions, "
            f"{work[lines]['misses'] / 1e3:,.0f} k last-level cache misses"
        )
    print(
        f"ratio {SIZES[1]}/{SIZES[0]} lines: {large['instructions'] / small['instructions']:.2f} "
        f"in instructions, {large['misses'] / small['misses']:.1f} in cache misses"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
