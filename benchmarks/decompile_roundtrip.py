"""Round trip over the standard library: decompile, recompile, compare bytecode.

For every top-level stdlib module: compile its source, decompile the module's code
object, recompile the result and compare every code object with the original by its
instruction stream (see decompile_compare). Each module runs in a worker under a
time limit. Prints, per Python: modules that recompile, code objects exact, code
objects per second, the failures and the worst modules. Always exits 0: it measures.

    python benchmarks/decompile_roundtrip.py
    python benchmarks/decompile_roundtrip.py --python /root/.pyenv/versions/3.13.0/bin/python
    python benchmarks/decompile_roundtrip.py --modules textwrap,typing --json out.json
"""

import argparse
import ast
import functools
import json
import re
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(1, str(REPO))  # depyf_report without installing it

from decompile_compare import compare_trees, count_codes  # noqa: E402
from decompile_pythons import passthrough, rerun  # noqa: E402
from decompile_stdlib import StdlibModule, one_line, stdlib_modules  # noqa: E402
from decompile_workers import load_decompiler_once, run_each  # noqa: E402

from depyf_report.decompiler.structuring.fallback import STATE_MACHINE_NOTE  # noqa: E402

WORST_SHOWN = 10


def unparse_original(module: StdlibModule):
    """The ceiling: the original source itself, through ast.unparse."""
    return lambda code: ast.unparse(ast.parse(module.source()))


def roundtrip(module: StdlibModule, ceiling: bool = False) -> dict:
    """Decompile, recompile and compare one module; a JSON-ready record."""
    from depyf_report import decompile

    if ceiling:
        decompile = unparse_original(module)
    original = module.code()
    record = {"module": module.name, "codes": count_codes(original), "exact": 0}
    started = time.perf_counter()
    try:
        source = decompile(original)
    except Exception as error:  # a decompile error is a finding, not a crash
        return {**record, "status": "decompile error", "error": one_line(error)}
    record["seconds"] = time.perf_counter() - started
    try:
        rebuilt = compile(source, module.path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        return {**record, "status": "recompile error", "error": one_line(error)}
    comparison = compare_trees(original, rebuilt)
    status = "exact" if comparison.exact == comparison.total else "recompiles"
    return {
        **record,
        "status": status,
        "exact": comparison.exact,
        "mismatches": comparison.mismatches[:5],
        # Recompiles, but raises instead of running: the decompiler gave up on these.
        "not_decompiled": NOT_DECOMPILED.findall(source),
        # Recompiles and runs, but as a state machine: not the code as written.
        "state_machines": source.count(STATE_MACHINE_NOTE),
    }


NOT_DECOMPILED = re.compile(r"RuntimeError\('not decompiled: ([^']*)'\)")


def failed(module: StdlibModule, why: str) -> dict:
    return {
        "module": module.name,
        "codes": count_codes(module.code()),
        "exact": 0,
        "status": why.partition(":")[0],
        "error": why,
    }


def percent(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else "0/0"


def summarize(records: list[dict], source_of: str) -> dict:
    recompiled = [r for r in records if r["status"] in ("exact", "recompiles")]
    timed = [r for r in records if "seconds" in r]
    seconds = sum(r["seconds"] for r in timed)
    return {
        "python": sys.version.split()[0],
        "source": source_of,
        "modules": len(records),
        "modules_recompile": len(recompiled),
        "codes": sum(r["codes"] for r in records),
        "codes_exact": sum(r["exact"] for r in records),
        "codes_not_decompiled": sum(len(r.get("not_decompiled", [])) for r in records),
        "codes_as_state_machines": sum(r.get("state_machines", 0) for r in records),
        "decompile_seconds": round(seconds, 3),
        "codes_per_second": round(sum(r["codes"] for r in timed) / seconds) if seconds else 0,
    }


def print_report(summary: dict, records: list[dict]) -> None:
    print(
        f"\n== Python {summary['python']}: stdlib round trip of {summary['source']}, "
        f"{summary['modules']} modules"
    )
    print(f"modules that recompile: {percent(summary['modules_recompile'], summary['modules'])}")
    print(f"code objects exact:     {percent(summary['codes_exact'], summary['codes'])}")
    print(
        f"code objects not decompiled (a raise in their place): {summary['codes_not_decompiled']}"
    )
    print(
        "code objects written as a state machine (not as structured code): "
        f"{summary['codes_as_state_machines']}"
    )
    print(
        f"speed: {summary['codes_per_second']} code objects/s "
        f"({summary['decompile_seconds']:.2f} s decompiling)"
    )
    failures = [f"{r['module']}: {r['error']}" for r in records if "error" in r]
    failures += [
        f"{r['module']}: not decompiled: {why}"
        for r in records
        for why in r.get("not_decompiled", [])
    ]
    print(f"failures ({len(failures)}):")
    for failure in failures:
        print(f"  FAIL {failure}")
    worst = sorted(records, key=lambda r: (r["exact"] / r["codes"], -r["codes"]))[:WORST_SHOWN]
    print("worst modules (exact / code objects):")
    for record in worst:
        detail = record.get("error") or "; ".join(record.get("mismatches", [])[:1])
        print(f"  {record['module']:<24} {record['exact']:>5}/{record['codes']:<5} {detail}"[:200])


def run_here(args) -> dict:
    load_decompiler_once()
    only = set(args.modules.split(",")) if args.modules else None
    modules = stdlib_modules(only)
    print(
        f"Python {sys.version.split()[0]}: {len(modules)} modules, "
        f"{args.workers} workers, {args.time_limit:g} s each",
        flush=True,
    )
    records = run_each(
        functools.partial(roundtrip, ceiling=args.ceiling),
        modules,
        workers=args.workers,
        time_limit=args.time_limit,
        on_failure=failed,
    )
    summary = summarize(records, "ast.unparse (ceiling)" if args.ceiling else "the decompiler")
    print_report(summary, records)
    return {"summary": summary, "modules": records}


def run_under(python: str, argv: list[str]) -> dict:
    """Re-run this script under another interpreter; its result, or {} if it made none."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch, "result.json")
        rerun(__file__, python, [*argv, "--json", str(out)])
        if not out.exists():
            print(f"FAIL {python}: the run produced no result")
            return {}
        return next(iter(json.loads(out.read_text()).values()))


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", help="interpreter to run under; repeatable")
    parser.add_argument("--modules", help="comma-separated module names (default: all)")
    parser.add_argument("--json", help="write the per-module records here")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--ceiling",
        action="store_true",
        help="round-trip ast.unparse of the original source instead of decompiling: how "
        "exact any source can be, since code generation depends on line numbers",
    )
    parser.add_argument("--time-limit", type=float, default=120.0, help="seconds per module")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    if not args.python:
        results = {sys.version.split()[0]: run_here(args)}
    else:
        results = {}
        for python in args.python:
            result = run_under(python, passthrough(argv))
            if result:
                results[result["summary"]["python"]] = result
        print("\n== summary")
        for version, result in results.items():
            s = result["summary"]
            print(
                f"Python {version}: recompile {percent(s['modules_recompile'], s['modules'])}, "
                f"exact {percent(s['codes_exact'], s['codes'])}, "
                f"not decompiled {s['codes_not_decompiled']}, "
                f"state machines {s['codes_as_state_machines']}, {s['codes_per_second']} codes/s"
            )
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
