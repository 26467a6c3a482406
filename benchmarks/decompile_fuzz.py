"""Random programs against their decompiled selves: how many behave differently.

Each seed gives one random module (``tests/decompiler/random_programs/``): a nest of
loops, branches, with and try statements with every other statement and expression
form around and inside it, in ``f``, the coroutine ``h`` and at module level. The
whole module is decompiled, recompiled, and both run on the same tapes. Prints the
count of each verdict (same; differs, and in what; does not recompile; decompile
raised; timed out or crashed; or the original program itself kills the Python it
runs on, as seed 102 does 3.13.0's, with --jobs 2) with its seeds, and the share
written as state machines. Run it with the Python to measure:

    python benchmarks/decompile_fuzz.py --count 2000 --jobs 2
    python benchmarks/decompile_fuzz.py --python /work/main/.venv-3.10/bin/python
    python benchmarks/decompile_fuzz.py --seed 145 --count 1 --show  # both sources
    python benchmarks/decompile_fuzz.py --control-flow --count 2000  # the first generator

``--control-flow`` runs the first generator (``random_programs/control_flow.py``): one
function of nested control flow only, the figures the project measured first.
"""

import argparse
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(1, str(REPO))  # depyf_report, and the generator beside its tests

from decompile_pythons import passthrough, rerun  # noqa: E402

from tests.decompiler.random_programs import Verdict, check, control_flow  # noqa: E402

# Of CPU time, so that a loaded machine does not turn a slow program into a finding.
SECONDS_PER_PROGRAM = 30


class _TooSlow(BaseException):
    """Not an Exception, so that a program's own ``except Exception`` lets it pass."""


_timed_out = False


def _too_slow(signum, frame):
    global _timed_out
    _timed_out = True
    raise _TooSlow()


def _check(job: tuple[int, int, bool, bool]) -> Verdict:
    """One seed's verdict, in a worker; a program still running after the limit (a
    hang, in the decompiler or in the decompiled code) is a verdict of its own, even
    where a bare ``except:`` in the program caught the interruption and went on."""
    global _timed_out
    seed, size, keep_sources, only_control_flow = job
    if _started is not None:
        _started.put((seed, os.getpid()))
    _timed_out = False
    signal.signal(signal.SIGPROF, _too_slow)
    signal.setitimer(signal.ITIMER_PROF, SECONDS_PER_PROGRAM)
    try:
        verdict = (control_flow.check if only_control_flow else check)(seed, size)
    except _TooSlow:
        verdict = Verdict(seed, "timed out")
    except BaseException as error:  # e.g. a stack overflow caught as RecursionError
        verdict = Verdict(seed, "crashed", detail=f"{type(error).__name__}: {error}")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
    if _timed_out:
        verdict = Verdict(seed, "timed out", detail=f"over {SECONDS_PER_PROGRAM} s of CPU time")
    if not keep_sources and verdict.kind == "same":
        verdict.source = verdict.decompiled = ""
    return verdict


# In a worker: where it tells the parent which seed it has started, and in which
# process, so that a worker that dies is noticed at once.
_started = None


def _set_started(queue) -> None:
    global _started
    _started = queue


def _verdicts(seeds, size: int, jobs: int, show: bool, only_control_flow: bool):
    jobs_list = [(seed, size, show, only_control_flow) for seed in seeds]
    if jobs <= 1:
        yield from map(_check, jobs_list)
        return
    # A fresh worker now and then: a worker that dies (a C stack overflow) only loses
    # its own program, which then reads as crashed.
    started = multiprocessing.Queue()
    with multiprocessing.Pool(jobs, _set_started, (started,), maxtasksperchild=200) as pool:
        pending = [(job[0], pool.apply_async(_check, (job,))) for job in jobs_list]
        workers: dict[int, int] = {}
        for seed, result in pending:
            if _finished(result, seed, workers, started):
                yield result.get()
            else:
                yield _died(seed, size, only_control_flow)


def _finished(result, seed: int, workers: dict[int, int], started) -> bool:
    """Wait for one seed's result: False once the worker that started it has died, or
    the seed has run far past its own alarm (a hang the alarm cannot break)."""
    # wall-clock time, so far past the CPU time limit that a loaded machine does not reach it
    deadline = time.monotonic() + SECONDS_PER_PROGRAM * 10
    while not result.ready():
        while not started.empty():
            started_seed, pid = started.get()
            workers[started_seed] = pid
        if seed in workers and not _alive(workers[seed]):
            result.wait(2)  # a result may still be on its way from a worker that ended
            return result.ready()
        if time.monotonic() > deadline:
            return False
        result.wait(0.2)
    return True


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# What a worker that died on a program ran: the original alone, in a fresh process.
_ORIGINAL_ALONE = """
import sys
sys.path.insert(1, {repo!r})
from tests.decompiler.random_programs import control_flow, program, run
seed, size = {seed}, {size}
if {only_control_flow}:
    control_flow.run(control_flow.program(seed))
else:
    run(program(seed, size))
"""


def _died(seed: int, size: int, only_control_flow: bool) -> Verdict:
    """The verdict on a program whose worker died or hung: where the original program,
    run alone, kills this Python itself (3.13.0 on seed 102), that is no finding of
    ours; else the decompiled program or the decompiler did."""
    source = _ORIGINAL_ALONE.format(
        repo=str(REPO), seed=seed, size=size, only_control_flow=only_control_flow
    )
    try:
        alone = subprocess.run(
            [sys.executable, "-c", source],
            capture_output=True,
            timeout=SECONDS_PER_PROGRAM * 2,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Verdict(seed, "crashed", detail="the worker hung, and the original alone too")
    if alone.returncode < 0:
        version = ".".join(map(str, sys.version_info[:3]))
        signame = signal.Signals(-alone.returncode).name
        detail = f"the original program alone kills CPython {version} ({signame})"
        return Verdict(seed, "crashes Python itself", detail=detail)
    return Verdict(seed, "crashed", detail="the worker died or hung")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--count", type=int, default=1000, help="how many programs")
    parser.add_argument("--size", type=int, default=12, help="compound statements in f")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--show", action="store_true", help="print each finding's sources")
    parser.add_argument("--python", help="run under this Python instead")
    parser.add_argument(
        "--control-flow", action="store_true", help="the first generator: control flow only"
    )
    args = parser.parse_args(argv)
    if args.python:
        return rerun(__file__, args.python, passthrough(sys.argv[1:]))

    start = time.perf_counter()
    by_verdict: dict[str, list[Verdict]] = defaultdict(list)
    machines = []
    temporaries = []  # programs whose structured functions keep a temporary as a local
    seeds = range(args.seed, args.seed + args.count)
    for verdict in _verdicts(seeds, args.size, args.jobs, args.show, args.control_flow):
        label = verdict.kind + (f" ({', '.join(verdict.aspects)})" if verdict.aspects else "")
        by_verdict[label].append(verdict)
        if verdict.state_machine:
            machines.append(verdict.seed)
        if verdict.local_temporaries:
            temporaries.append(verdict)
        if args.show and verdict.kind != "same":
            print(f"--- seed {verdict.seed}: {verdict}\n{verdict.source}")
            print(f"--- decompiled:\n{verdict.decompiled}")
    seconds = time.perf_counter() - start
    version = ".".join(map(str, sys.version_info[:3]))
    kind = "control-flow programs" if args.control_flow else "programs"
    print(f"Python {version}: {args.count} random {kind} from seed {args.seed}")
    for label, verdicts in sorted(by_verdict.items(), key=lambda item: item[0] != "same"):
        print(f"  {label}: {len(verdicts)}")
        if label != "same":
            print(f"    seeds: {' '.join(str(verdict.seed) for verdict in verdicts)}")
            for verdict in verdicts[:5]:
                print(f"    seed {verdict.seed}: {verdict.detail[:160]}")
    share = 100 * len(machines) / max(args.count, 1)
    print(f"  written as a state machine: {len(machines)} ({share:.1f}%)")
    print(f"  a temporary among a structured function's locals: {len(temporaries)}")
    for verdict in temporaries[:5]:
        print(f"    seed {verdict.seed}: {', '.join(verdict.local_temporaries[:4])}")
    print(f"  {seconds:.1f} s with {args.jobs} job(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
