"""Run one job per item in forked worker processes, each under a time limit.

A job that hangs or crashes the interpreter becomes a reported failure instead of a
stuck or aborted benchmark. A fresh process per item also keeps a runaway job's
memory from leaking into the next one.
"""

import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait


@dataclass
class _Job:
    index: int
    process: multiprocessing.Process
    results: Connection
    deadline: float


def _run_in_child(function, item, sender: Connection) -> None:
    sender.send(function(item))
    sender.close()


def load_decompiler_once() -> None:
    """Import the decompiler before forking: every worker then runs the same code,
    even while its files are being edited, and none pays for the import."""
    import depyf_report  # noqa: F401


def run_each(
    function: Callable,
    items: list,
    *,
    workers: int,
    time_limit: float,
    on_failure: Callable[[object, str], object],
    on_result: Callable[[object], None] = lambda result: None,
) -> list:
    """``function(item)`` for every item, in item order; ``on_failure(item, why)`` on hang/crash."""
    context = multiprocessing.get_context("fork")
    results: list = [None] * len(items)
    waiting = list(range(len(items)))
    running: list[_Job] = []
    while waiting or running:
        while waiting and len(running) < workers:
            running.append(_start(context, function, items, waiting.pop(0), time_limit))
        soonest = min(job.deadline for job in running)
        ready = wait([job.results for job in running], max(0.0, soonest - time.monotonic()))
        for job in list(running):
            if job.results in ready:
                results[job.index] = _collect(job, items[job.index], on_failure)
            elif time.monotonic() >= job.deadline:
                job.process.kill()
                why = f"timeout: still running after {time_limit:g} s"
                results[job.index] = on_failure(items[job.index], why)
            else:
                continue
            job.process.join()
            job.results.close()
            running.remove(job)
            on_result(results[job.index])
    return results


def _start(context, function, items, index, time_limit) -> _Job:
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_run_in_child, args=(function, items[index], sender))
    process.start()
    sender.close()  # the child holds the only sending end, so its exit reads as EOF
    return _Job(index, process, receiver, time.monotonic() + time_limit)


def _collect(job: _Job, item, on_failure):
    try:
        return job.results.recv()
    except EOFError:
        job.process.join()
        return on_failure(item, f"worker died (exit code {job.process.exitcode})")
