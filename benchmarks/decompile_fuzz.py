"""Random programs against their decompiled selves: how many behave differently.

Each seed gives one random module (``tests/decompiler/random_programs/``): a nest of
loops, branches, with and try statements with every other statement and expression
form around and inside it, in ``f``, the coroutine ``h`` and at module level. The
whole module is decompiled, recompiled, and both run on the same tapes. Prints the
count of each verdict (same; differs, and in what; does not recompile; decompile
raised; timed out or crashed; or, no finding, the original program itself kills the
Python it runs on, as seed 102 does 3.13.0's, with --jobs 2, or alone takes over half
the time or all the memory a seed has) with its seeds, and the share written as state
machines. Run it with the Python to measure:

    python benchmarks/decompile_fuzz.py --count 2000 --jobs 2
    python benchmarks/decompile_fuzz.py --python /work/main/.venv-3.10/bin/python
    python benchmarks/decompile_fuzz.py --seed 145 --count 1 --show  # both sources
    python benchmarks/decompile_fuzz.py --control-flow --count 2000  # the first generator

``--control-flow`` runs the first generator (``random_programs/control_flow.py``): one
function of nested control flow only, the figures the project measured first.
"""

import argparse
import contextlib
import multiprocessing
import multiprocessing.connection
import resource
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
# Of memory, per process checking programs: a program that doubles a string in a loop
# until the 2 s limit on each call's CPU time cuts it spends its time in the system
# instead, faulting pages in (seed 38265 on 3.10 took 14 GB and 25 s of system time:
# two workers took the machine's memory). Past this it raises MemoryError, as the
# decompiled program does at the same step.
MEMORY_PER_PROCESS = 4 << 30


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_PER_PROCESS, MEMORY_PER_PROCESS))


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


def _verdicts(seeds, size: int, jobs: int, show: bool, only_control_flow: bool):
    jobs_list = [(seed, size, show, only_control_flow) for seed in seeds]
    if jobs <= 1:
        _limit_memory()
        return map(_check, jobs_list)
    return _in_workers(jobs_list, jobs)


# A fresh worker now and then, so that what one program's run leaves behind in memory
# is not carried through thousands.
TASKS_PER_WORKER = 200


def _serve(connection) -> None:
    """A worker's loop: a job in, its verdict out, until it is sent None."""
    _limit_memory()
    while (job := connection.recv()) is not None:
        connection.send(_check(job))


class _Worker:
    """One process with a pipe of its own. Workers share no queue and no lock, so one
    that dies mid-program (a C stack overflow, a program that kills CPython 3.13.0)
    loses only its own program; in a ``multiprocessing.Pool`` such a death could leave
    a shared queue's lock held and stall every other worker with it."""

    def __init__(self) -> None:
        self.connection, theirs = multiprocessing.Pipe()
        self.process = multiprocessing.Process(target=_serve, args=(theirs,), daemon=True)
        self.process.start()
        theirs.close()
        self.job: tuple = ()
        self.done = 0
        self.deadline = 0.0

    def start(self, job: tuple) -> None:
        self.job = job
        # wall-clock time, so far past the CPU time limit that a loaded machine does not
        # reach it: only a hang the alarm cannot break
        self.deadline = time.monotonic() + SECONDS_PER_PROGRAM * 10
        self.connection.send(job)

    def verdict(self) -> Verdict | None:
        """The running job's verdict once it has come; None before, or if it died."""
        try:
            return self.connection.recv() if self.connection.poll() else None
        except (EOFError, OSError):
            return None

    def lost(self) -> bool:
        return not self.process.is_alive() or time.monotonic() > self.deadline

    def stop(self) -> None:
        with contextlib.suppress(OSError):  # it died
            self.connection.send(None)
        self.process.join(1)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.connection.close()


def _in_workers(jobs_list: list[tuple], jobs: int):
    """Each job's verdict, in the order they finish, from ``jobs`` workers."""
    waiting = iter(jobs_list)
    busy: list[_Worker] = []

    def next_job(worker: _Worker | None) -> None:
        """Give the next job to this worker, or to a fresh one; stop it if none is left."""
        job = next(waiting, None)
        if worker is not None and (job is None or worker.done >= TASKS_PER_WORKER):
            worker.stop()
            worker = None
        if job is not None:
            worker = worker or _Worker()
            worker.start(job)
            busy.append(worker)

    for _ in range(jobs):
        next_job(None)
    while busy:
        multiprocessing.connection.wait(
            [w.connection for w in busy] + [w.process.sentinel for w in busy], timeout=1
        )
        for worker in list(busy):
            verdict = worker.verdict()
            if verdict is None and not worker.lost():
                continue
            busy.remove(worker)
            if verdict is None:
                seed, size, _, only_control_flow = worker.job
                worker.process.kill()
                worker.stop()
                yield _died(seed, size, only_control_flow)
                next_job(None)
            else:
                worker.done += 1
                yield verdict
                next_job(worker)


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


def _original_alone(seed: int, size: int, only_control_flow: bool, timeout: int, cpu=None):
    """The original program run alone in a fresh process with the memory a check has
    (``cpu``: a limit on its CPU seconds), or None where it ran past ``timeout``
    seconds."""
    source = _ORIGINAL_ALONE.format(
        repo=str(REPO), seed=seed, size=size, only_control_flow=only_control_flow
    )

    def limit():
        _limit_memory()
        if cpu is not None:
            resource.setrlimit(resource.RLIMIT_CPU, cpu)

    try:
        return subprocess.run(
            [sys.executable, "-c", source],
            capture_output=True,
            timeout=timeout,
            check=False,
            preexec_fn=limit,
        )
    except subprocess.TimeoutExpired:
        return None


def _died(seed: int, size: int, only_control_flow: bool) -> Verdict:
    """The verdict on a program whose worker died or hung: where the original program,
    run alone, kills this Python itself (3.13.0 on seed 102), that is no finding of
    ours; else the decompiled program or the decompiler did."""
    alone = _original_alone(seed, size, only_control_flow, SECONDS_PER_PROGRAM * 2)
    if alone is None:
        return Verdict(seed, "crashed", detail="the worker hung, and the original alone too")
    if alone.returncode < 0:
        version = ".".join(map(str, sys.version_info[:3]))
        signame = signal.Signals(-alone.returncode).name
        detail = f"the original program alone kills CPython {version} ({signame})"
        return Verdict(seed, "crashes Python itself", detail=detail)
    return Verdict(seed, "crashed", detail="the worker died or hung")


def _too_slow_alone(verdict: Verdict, size: int, only_control_flow: bool) -> Verdict:
    """The verdict on a program that ran past its time: where the original program
    alone takes more than half of it (seed 26523 on 3.10: its calls each run on to
    their 2 s limit), the original and the decompiled program cannot both run in it,
    no finding of ours; else it stands."""
    half = SECONDS_PER_PROGRAM // 2
    timeout = SECONDS_PER_PROGRAM * 10
    alone = _original_alone(verdict.seed, size, only_control_flow, timeout, (half, half + 5))
    if alone is None or alone.returncode == -signal.SIGXCPU:
        detail = f"the original program alone takes over {half} s of CPU time"
        return Verdict(verdict.seed, "too slow to compare", detail=detail)
    return verdict


def _too_big_alone(verdict: Verdict, size: int, only_control_flow: bool) -> Verdict:
    """The verdict on a check that ran out of memory outside the programs' calls (in
    taking a record of what they left): where the original program alone does too,
    its values do not fit in a check's memory, no finding of ours (seed 40064 on
    3.10); else it stands."""
    timeout = SECONDS_PER_PROGRAM * 10
    alone = _original_alone(verdict.seed, size, only_control_flow, timeout)
    if alone is not None and alone.returncode != 0 and b"MemoryError" in alone.stderr:
        gigabytes = MEMORY_PER_PROCESS >> 30
        detail = f"the original program alone takes over {gigabytes} GB"
        return Verdict(verdict.seed, "too big to compare", detail=detail)
    return verdict


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
        if verdict.kind == "timed out":
            verdict = _too_slow_alone(verdict, args.size, args.control_flow)
        elif verdict.kind == "crashed" and verdict.detail.startswith("MemoryError"):
            verdict = _too_big_alone(verdict, args.size, args.control_flow)
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
    for verdicts in by_verdict.values():  # workers finish out of order
        verdicts.sort(key=lambda verdict: verdict.seed)
    temporaries.sort(key=lambda verdict: verdict.seed)
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
