"""Random programs against their decompiled selves: how many behave differently.

Each seed gives one random function of nested loops, branches, with and try
statements (``tests/decompiler/random_programs.py``); it is decompiled, and both run
on the same tapes. Prints the seeds whose decompiled code logs, returns or raises
differently, and how many came out as state machines. Run it with the Python to
measure:

    python benchmarks/decompile_fuzz.py --count 2000
    python benchmarks/decompile_fuzz.py --python /root/.pyenv/versions/3.10.13/bin/python
    python benchmarks/decompile_fuzz.py --seed 145 --show    # one program, both sources
"""

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(1, str(REPO))  # depyf_report, and the generator beside its tests

from decompile_pythons import passthrough, rerun  # noqa: E402

from depyf_report.decompiler.structuring.fallback import STATE_MACHINE_NOTE  # noqa: E402
from tests.decompiler.random_programs import decompiled_program, program, run  # noqa: E402


def check(seed: int, size: int) -> tuple[str, str, str]:
    """(the source, the decompiled source, "same", "differs" or "error: ...")."""
    source = program(seed, size)
    try:
        decompiled = decompiled_program(source)
    except Exception as error:  # a decompile error is a finding, not a crash here
        return source, "", f"error: {type(error).__name__}: {error}"
    try:
        same = run(decompiled) == run(source)
    except SyntaxError as error:
        return source, decompiled, f"error: does not compile: {error}"
    return source, decompiled, "same" if same else "differs"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--count", type=int, default=1000, help="how many programs")
    parser.add_argument("--size", type=int, default=12, help="compound statements each")
    parser.add_argument("--show", action="store_true", help="print each differing program")
    parser.add_argument("--python", help="run under this Python instead")
    args = parser.parse_args(argv)
    if args.python:
        return rerun(__file__, args.python, passthrough(sys.argv[1:]))

    start = time.perf_counter()
    findings, machines = [], 0
    for seed in range(args.seed, args.seed + args.count):
        source, decompiled, verdict = check(seed, args.size)
        machines += STATE_MACHINE_NOTE in decompiled
        if verdict != "same":
            findings.append((seed, verdict))
            if args.show:
                print(f"--- seed {seed}: {verdict}\n{source}\n--- decompiled:\n{decompiled}")
    seconds = time.perf_counter() - start
    version = ".".join(map(str, sys.version_info[:3]))
    print(f"Python {version}: {args.count} random programs from seed {args.seed}")
    print(f"  behave differently decompiled: {len(findings)}")
    for seed, verdict in findings:
        print(f"    seed {seed}: {verdict}")
    print(f"  written as a state machine:    {machines} ({100 * machines / args.count:.1f}%)")
    print(f"  {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
