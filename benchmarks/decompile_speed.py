"""Decompiler speed: code objects per second over the stdlib, and linearity.

Linearity: a generated function of 2,000 lines and one of 20,000 lines (mixed
assignments, branches, loops, try/except, comprehensions) are decompiled; the
larger should take less than 10 times as long. Run it with the Python to measure:

    python benchmarks/decompile_speed.py
    python benchmarks/decompile_speed.py --python /root/.pyenv/versions/3.13.0/bin/python
    python benchmarks/decompile_speed.py --skip-stdlib --count-calls   # work, not time
"""

import argparse
import cProfile
import functools
import gc
import pstats
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(1, str(REPO))  # depyf_report without installing it

from decompile_compare import count_codes  # noqa: E402
from decompile_pythons import passthrough, rerun  # noqa: E402
from decompile_stdlib import StdlibModule, one_line, stdlib_modules  # noqa: E402
from decompile_workers import load_decompiler_once, run_each  # noqa: E402

SMALL, LARGE, TARGET_RATIO = 2_000, 20_000, 10
ROUNDS = 7

# Blocks of one generated function; {k} is the block number, {v} a loop variable.
BLOCKS = [
    "total = total + {k} * n - count\ncount += 1",
    "if total > {k}:\n    total -= {k}\nelif count < {k7}:\n    count += 2\nelse:\n    text = text + 'x'",
    "for {v} in items:\n    if {v} == {k}:\n        break\n    if {v} % 2:\n        continue\n"
    "    total += {v}\nelse:\n    count -= 1",
    "i = {k5}\nwhile i > 0 and total < {k}:\n    i -= 1\n    count += i",
    "try:\n    total += mapping[{k9}]\nexcept KeyError:\n    count -= 1",
    "text = text[-10:] + str(len([x for x in items if x > {k9}]))",
    "flag = total > {k} and count < {k7} or not text",
]


def generated_function(lines: int) -> str:
    """Source of ``def generated(...)`` with at least ``lines`` lines of body."""
    body: list[str] = ["total = count = 0", "text = ''"]
    k = 0
    while len(body) < lines:
        block = BLOCKS[k % len(BLOCKS)]
        body += block.format(k=k, k5=k % 5, k7=k % 7, k9=k % 9, v=f"v{k % 20}").splitlines()
        k += 1
    body.append("return total, count, text")
    indented = "\n".join("    " + line for line in body)
    return f"def generated(n, items, mapping):\n{indented}\n"


def time_module(module: StdlibModule) -> dict:
    from depyf_report import decompile

    code = module.code()
    started, cpu_started = time.perf_counter(), time.process_time()
    try:
        decompile(code)
    except Exception as error:
        return {"module": module.name, "error": one_line(error)}
    return {
        "module": module.name,
        "codes": count_codes(code),
        "seconds": time.perf_counter() - started,
        "cpu": time.process_time() - cpu_started,
    }


@functools.cache
def generated_code(lines: int):
    """The code object of ``generated``, built once in the parent so that every
    forked round shares it."""
    module_code = compile(generated_function(lines), "<generated>", "exec")
    return next(c for c in module_code.co_consts if hasattr(c, "co_code"))


def _timed(job, *args) -> tuple[float, float, object]:
    """Wall and CPU seconds of ``job(*args)``, and its result."""
    started, cpu_started = time.perf_counter(), time.process_time()
    result = job(*args)
    return time.perf_counter() - started, time.process_time() - cpu_started, result


def paired_round(number: int) -> dict:
    """One decompile of the large function between three of the small one on either
    side, in a fresh process, and the same for CPython's ``compile`` of the two
    sources: each round's ratio compares times taken seconds apart, so the machine's
    speed, which drifts by a third over minutes here, moves both sides alike."""
    from depyf_report import decompile

    small, large = generated_code(SMALL), generated_code(LARGE)
    try:
        runs = [_timed(decompile, small) for _ in range(3)]
        wall, cpu, output = _timed(decompile, large)
        runs += [_timed(decompile, small) for _ in range(3)]
    except Exception as error:
        return {"round": number, "error": one_line(error)}
    small_check = statistics.median(_check_seconds(runs[0][2])[0] for _ in range(3))
    large_check, compiles = _check_seconds(output)
    sources = {n: generated_function(n) for n in (SMALL, LARGE)}
    cpython = [_timed(compile, sources[SMALL], "<g>", "exec")[1] for _ in range(3)]
    cpython_large = _timed(compile, sources[LARGE], "<g>", "exec")[1]
    cpython += [_timed(compile, sources[SMALL], "<g>", "exec")[1] for _ in range(3)]
    small_wall = statistics.median(run[0] for run in runs)
    return {
        "round": number,
        "small": small_wall,
        "large": wall,
        "ratio": wall / small_wall,
        "cpu_ratio": cpu / statistics.median(run[1] for run in runs),
        "own_ratio": (wall - large_check) / (small_wall - small_check),
        "check_ratio": large_check / small_check,
        "cpython_ratio": cpython_large / statistics.median(cpython),
        "compiles": compiles,
    }


def _check_seconds(source: str) -> tuple[float, bool]:
    """Seconds of the check that ends every decompile, CPython compiling the output,
    run again as decompile runs it (garbage collection off), and whether it compiled:
    the decompiler's own share of a round is its time less this."""
    gc.disable()
    started = time.perf_counter()
    try:
        compile(source, "<decompiled>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return time.perf_counter() - started, False
    finally:
        gc.enable()
    return time.perf_counter() - started, True


def count_calls(lines: int) -> dict:
    """Python function calls one decompile of a generated function makes, and each
    function's own time: calls measure work that, unlike time, the machine's load and
    caches do not move, but a loop inside one call (a slice copied, a walk up a tree)
    only shows in that function's own time."""
    from depyf_report import decompile

    profile = cProfile.Profile()
    profile.runcall(decompile, generated_code(lines))
    stats = pstats.Stats(profile)
    own = {
        f"{Path(file).name}:{line}({name})": tottime
        for (file, line, name), (_, _, tottime, _, _) in stats.stats.items()
    }
    return {"lines": lines, "calls": stats.total_calls, "own": own}


def growing_fastest(small: dict, large: dict, factor: int, count: int = 12) -> list[str]:
    """The functions whose own time grew most beyond ``factor`` times, as lines."""
    excess = {
        key: seconds - factor * small["own"].get(key, 0.0) for key, seconds in large["own"].items()
    }
    top = sorted(excess, key=excess.get, reverse=True)[:count]
    return [
        f"  {excess[key]:+.3f} s beyond {factor}x: {key} "
        f"({small['own'].get(key, 0.0):.3f} s -> {large['own'][key]:.3f} s)"
        for key in top
    ]


def stdlib_speed(time_limit: float) -> None:
    modules = stdlib_modules()
    records = run_each(
        time_module,
        modules,
        workers=1,
        time_limit=time_limit,
        on_failure=lambda m, why: {"module": m.name, "error": why},
    )
    timed = [r for r in records if "seconds" in r]
    codes = sum(r["codes"] for r in timed)
    seconds, cpu = sum(r["seconds"] for r in timed), sum(r["cpu"] for r in timed)
    rate, cpu_rate = codes / seconds if seconds else 0, codes / cpu if cpu else 0
    print(
        f"stdlib: {codes} code objects in {len(timed)}/{len(modules)} modules, "
        f"{seconds:.2f} s decompiling: {rate:.0f} code objects/s "
        f"(CPU {cpu:.2f} s: {cpu_rate:.0f}/s)"
    )
    for record in records:
        if "error" in record:
            print(f"  FAIL {record['module']}: {record['error']}")


def linearity(time_limit: float, calls: bool) -> None:
    for lines in (SMALL, LARGE):
        generated_code(lines)
    if calls:
        linearity_in_calls(time_limit)
        return
    records = run_each(
        paired_round,
        list(range(ROUNDS)),
        workers=1,
        time_limit=time_limit,
        on_failure=lambda number, why: {"round": number, "error": why},
    )
    rounds = [r for r in records if "ratio" in r]
    for record in records:
        if "error" in record:
            print(f"  FAIL round {record['round']}: {record['error']}")
        else:
            print(
                f"  round {record['round']}: {SMALL} lines {record['small']:.3f} s, "
                f"{LARGE} lines {record['large']:.3f} s: ratio {record['ratio']:.1f} "
                f"(CPU {record['cpu_ratio']:.1f}; less the final compile check "
                f"{record['own_ratio']:.1f}, the check {record['check_ratio']:.1f}; "
                f"CPython's compile {record['cpython_ratio']:.1f}; output compiles: "
                f"{'yes' if record['compiles'] else 'NO'})"
            )
    if len(rounds) < len(records):
        return
    ratio = statistics.median(r["ratio"] for r in rounds)
    verdict = "ok" if ratio < TARGET_RATIO else "TOO SLOW"
    print(
        f"ratio {LARGE}/{SMALL} lines, median of {len(rounds)} rounds: {ratio:.1f} "
        f"(range {min(r['ratio'] for r in rounds):.1f}-{max(r['ratio'] for r in rounds):.1f}; "
        f"CPU {statistics.median(r['cpu_ratio'] for r in rounds):.1f}; "
        f"target < {TARGET_RATIO}: {verdict}); less the final compile check: "
        f"{statistics.median(r['own_ratio'] for r in rounds):.1f}; the check: "
        f"{statistics.median(r['check_ratio'] for r in rounds):.1f}; CPython's own compile: "
        f"{statistics.median(r['cpython_ratio'] for r in rounds):.1f}"
    )


def linearity_in_calls(time_limit: float) -> None:
    small, large = run_each(
        count_calls,
        [SMALL, LARGE],
        workers=1,
        time_limit=time_limit,
        on_failure=lambda lines, why: {"lines": lines, "error": why},
    )
    for record in (small, large):
        if "error" in record:
            print(f"  FAIL {record['lines']}-line function: {record['error']}")
        else:
            print(f"{record['lines']:>6}-line function: {record['calls']:,} function calls")
    if "calls" in small and "calls" in large:
        print(f"ratio {LARGE}/{SMALL} lines: {large['calls'] / small['calls']:.2f} in calls")
        print("own time growing fastest (profiled, so only its growth means anything):")
        print("\n".join(growing_fastest(small, large, LARGE // SMALL)))


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", help="interpreter to run under; repeatable")
    parser.add_argument("--time-limit", type=float, default=300.0, help="seconds per job")
    parser.add_argument("--skip-stdlib", action="store_true", help="linearity only")
    parser.add_argument(
        "--count-calls",
        action="store_true",
        help="linearity in function calls instead of time (steady on a loaded machine)",
    )
    args = parser.parse_args(argv)
    if args.python:
        for python in args.python:
            rerun(__file__, python, passthrough(argv, ("--python",)))
        return 0
    print(f"== Python {sys.version.split()[0]}: decompile speed", flush=True)
    load_decompiler_once()
    if not args.skip_stdlib:
        stdlib_speed(args.time_limit)
    linearity(args.time_limit, args.count_calls)
    return 0


if __name__ == "__main__":
    sys.exit(main())
