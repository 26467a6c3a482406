"""CPython's own ``compile`` per line of one long function, by kind of line.

Every decompile ends by compiling its output (the check that it recompiles), so
CPython's compiler is part of the decompiler's cost. This script shows how that
compiler scales on its own, with no decompiler involved: the code generation of a
function made of N copies of one kind of line, in microseconds per line, for
growing N. A flat row is linear; a row that grows with N is not. On CPython 3.10
and 3.11 the rows whose lines make a nested code object (a comprehension, a
lambda, a generator expression) grow with N: code objects that differ only in
their line numbers hash alike, and these lines repeat 9 constants. On 3.12+ they
stay flat.

    python benchmarks/cpython_compile_scaling.py
    python benchmarks/cpython_compile_scaling.py --python /root/.pyenv/versions/3.11.7/bin/python
"""

import argparse
import ast
import gc
import sys
import time

from decompile_pythons import passthrough, rerun

LINES = (2_000, 8_000, 32_000)
KINDS = {
    "assignment": "a = b + {k} * c",
    "comprehension": "a = [x for x in items if x > {k}]",
    "lambda": "a = lambda x: x > {k}",
    "generator expression": "a = (x for x in items if x > {k})",
}


def function_source(line: str, count: int) -> str:
    body = "\n".join("    " + line.format(k=k % 9) for k in range(count))
    return f"def f(items, b, c):\n{body}\n"


def microseconds_per_line(line: str, count: int) -> float:
    """Best of three code generations from a parsed tree (parsing is linear)."""
    tree = ast.parse(function_source(line, count))
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        compile(tree, "<generated>", "exec", dont_inherit=True)
        best = min(best, time.perf_counter() - started)
    return best * 1e6 / count


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", help="interpreter to run under; repeatable")
    args = parser.parse_args(argv)
    if args.python:
        for python in args.python:
            rerun(__file__, python, passthrough(argv, ("--python",)))
        return 0
    print(f"== Python {sys.version.split()[0]}: compile, microseconds per line")
    print(f"{'lines of one function:':24}" + "".join(f"{n:>10,}" for n in LINES))
    gc.disable()  # as decompile's own check runs
    for kind, line in KINDS.items():
        cells = "".join(f"{microseconds_per_line(line, n):10.1f}" for n in LINES)
        print(f"{kind:24}{cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
