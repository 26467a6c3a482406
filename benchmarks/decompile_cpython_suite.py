"""CPython's own tests against decompiled stdlib modules.

For each module: decompile it (every file, for a package) into a fresh temporary
directory placed first on PYTHONPATH, check that importing it really resolves
there, then run ``python -m test test_<module>``. Prints pass/fail per module and
the totals. Always exits 0: it measures.

    python benchmarks/decompile_cpython_suite.py
    python benchmarks/decompile_cpython_suite.py --python /root/.pyenv/versions/3.12.1/bin/python
    python benchmarks/decompile_cpython_suite.py --original   # the unmodified stdlib, as a baseline
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from decompile_pythons import REPO, passthrough, rerun
from decompile_stdlib import one_line, stdlib_dir
from decompile_workers import load_decompiler_once, run_each

sys.path.insert(1, str(REPO))  # depyf_report without installing it

# Pure-Python modules (or packages) with a test_<module> in every CPython 3.10-3.13,
# whose tests check behaviour rather than source text or line numbers.
DEFAULT_MODULES = [
    "base64",
    "bisect",
    "calendar",
    "colorsys",
    "contextlib",
    "copy",
    "dataclasses",
    "difflib",
    "fnmatch",
    "fractions",
    "getopt",
    "glob",
    "graphlib",
    "heapq",
    "html",
    "json",
    "keyword",
    "netrc",
    "operator",
    "pprint",
    "queue",
    "quopri",
    "reprlib",
    "sched",
    "shlex",
    "statistics",
    "string",
    "textwrap",
    "ipaddress",
    "gettext",
]

# Runs in the test process: the import must resolve to the directory it names.
DRIVER = """
import runpy, sys
directory, name, test = sys.argv[1:4]
where = getattr(__import__(name), "__file__", None) or "(no file)"
if not where.startswith(directory):
    print(f"NOT RESOLVED: {name} imports from {where}")
    sys.exit(97)
sys.argv = ["python -m test", "-v", test]
runpy.run_module("test", run_name="__main__", alter_sys=True)
"""
NOT_RESOLVED = 97
SHOWN_FAILURES = 5


def decompiled_files(name: str, target: Path) -> None:
    """Write the decompiled module, or every file of the package, under ``target``."""
    from depyf_report import decompile

    root = stdlib_dir()
    package = root / name
    sources = sorted(package.rglob("*.py")) if package.is_dir() else [root / f"{name}.py"]
    for path in sources:
        code = compile(path.read_text(encoding="utf-8"), str(path), "exec", dont_inherit=True)
        written = target / path.relative_to(root)
        written.parent.mkdir(parents=True, exist_ok=True)
        written.write_text(decompile(code), encoding="utf-8")


def test_outcome(output: str, returncode: int) -> tuple[str, str]:
    """PASS/FAIL and a short detail from regrtest's output."""
    if returncode == NOT_RESOLVED:
        return "NOT RESOLVED", output.strip().splitlines()[-1]
    total = re.search(r"Total tests: (.*)|Ran (\d+ tests?)", output)
    detail = total.group(0) if total else ""
    if returncode == 0:
        return "PASS", detail
    failures = re.findall(r"^(?:FAIL|ERROR): \S+", output, re.MULTILINE)[:SHOWN_FAILURES]
    if not failures:  # e.g. the module failed to import: its error's last line says why
        errors = re.findall(r"^\w*(?:Error|Exception)\b.*$", output, re.MULTILINE)
        failures = errors[-1:] or output.strip().splitlines()[-1:] or ["(no output)"]
    return "FAIL", "; ".join(filter(None, [detail, *failures]))


def run_module_suite(job: tuple[str, bool, float]) -> dict:
    name, original, timeout = job
    with tempfile.TemporaryDirectory(prefix="decompiled-") as scratch:
        directory = Path(scratch)
        if not original:
            try:
                decompiled_files(name, directory)
            except Exception as error:
                return {"module": name, "status": "DECOMPILE ERROR", "detail": one_line(error)}
        expected = str(stdlib_dir() if original else directory)
        command = [sys.executable, "-c", DRIVER, expected, name, f"test_{name}"]
        env = {
            "PYTHONPATH": "" if original else scratch,
            "PATH": "/usr/bin:/bin",
            "LANG": "C.UTF-8",
        }
        try:
            done = subprocess.run(
                command, cwd=scratch, env=env, capture_output=True, text=True, timeout=timeout
            )
        except subprocess.TimeoutExpired:
            return {"module": name, "status": "TIMEOUT", "detail": f"after {timeout:g} s"}
    status, detail = test_outcome(done.stdout + done.stderr, done.returncode)
    return {"module": name, "status": status, "detail": detail}


def report(record: dict) -> None:
    print(
        f"{record['status']:<15} test_{record['module']:<16} {record['detail']}"[:300], flush=True
    )


def run_here(args) -> None:
    load_decompiler_once()
    modules = args.modules.split(",") if args.modules else DEFAULT_MODULES
    what = "the original stdlib" if args.original else "decompiled modules"
    print(f"== Python {sys.version.split()[0]}: CPython tests against {what}", flush=True)
    jobs = [(name, args.original, args.timeout) for name in modules]
    records = run_each(
        run_module_suite,
        jobs,
        workers=args.workers,
        time_limit=args.timeout + 300,
        on_failure=lambda job, why: {"module": job[0], "status": "CRASH", "detail": why},
        on_result=report,
    )
    passed = sum(record["status"] == "PASS" for record in records)
    print(
        f"Python {sys.version.split()[0]}: {passed}/{len(records)} test suites pass "
        f"({100 * passed / len(records):.1f}%)"
    )


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", action="append", help="interpreter to run under; repeatable")
    parser.add_argument("--modules", help="comma-separated module names (default: a fixed set)")
    parser.add_argument("--original", action="store_true", help="test the unmodified stdlib")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per test suite")
    args = parser.parse_args(argv)
    if args.python:
        for python in args.python:
            rerun(__file__, python, passthrough(argv, ("--python",)))
    else:
        run_here(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
