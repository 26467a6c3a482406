"""A killed process, two ranks and forked workers, all writing one dump."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time

import pytest

from depyf_report.capture import ending
from depyf_report.capture.views import PENDING
from depyf_report.dump import load_dump

from .conftest import REPO, run_capture, validate_dump

pytestmark = [pytest.mark.torch, pytest.mark.slow]

COMPILE_THEN_WAIT = """
import sys, time, pathlib
import torch

def double(x):
    return x * 2

torch.compile(double, backend="eager")(torch.ones(3))
pathlib.Path(sys.argv[1]).write_text("compiled")
time.sleep(120)
"""


def _script(tmp_path, text: str):
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(text))
    return path


def test_killed_process_leaves_a_readable_dump(tmp_path):
    script, ready, dump = _script(tmp_path, COMPILE_THEN_WAIT), tmp_path / "ready", tmp_path / "d"
    command = [sys.executable, "-m", "depyf_report", "run", "-o", str(dump), "--", "python"]
    process = subprocess.Popen([*command, str(script), str(ready)], cwd=REPO)
    try:
        deadline = time.monotonic() + 120
        while not ready.exists():
            assert process.poll() is None and time.monotonic() < deadline, "script never compiled"
            time.sleep(0.2)
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    finally:
        if process.poll() is None:
            process.kill()
    loaded = load_dump(dump)
    assert loaded.problems == []
    (one,) = loaded.processes
    assert one.manifest.status == "running" and one.manifest.ended is None
    assert list(one.compiles) == ["0/0"]
    double = one.functions["double"]
    assert [e.compile_id for e in double.entries] == ["0/0"]
    for view in (double.original, double.entries[0].code):
        # Decompiled by then, or saying why not: the process died before the answer.
        assert view.decompiled is not None or view.decompile_error == PENDING
    validate_dump(dump)


# torch._dynamo is imported before the process group starts on purpose. In torch 2.13,
# importing it afterwards (capture and torch.compile both do) makes
# torch.distributed.fsdp keep the group alive past destroy_process_group(), and
# gloo's threads, torn down only when the interpreter ends, then abort a rank in about
# one run in ten to twenty ("terminate called without an active exception"), with or
# without capture.
TORCHRUN_RANKS = """
import sys
import torch
import torch._dynamo
import torch.distributed as dist
import depyf_report

dist.init_process_group("gloo")

def scale(x):
    return x * (dist.get_rank() + 1)

with depyf_report.capture(sys.argv[1]):
    out = torch.compile(scale, backend="eager")(torch.ones(2))
dist.all_reduce(out)
assert out.tolist() == [3.0, 3.0], out
dist.destroy_process_group()
"""


def test_torchrun_ranks_write_one_dump_without_clobbering(tmp_path):
    script, dump = _script(tmp_path, TORCHRUN_RANKS), tmp_path / "d"
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2"]
    result = subprocess.run(
        [*command, "--standalone", str(script), str(dump)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    loaded = load_dump(dump)
    assert loaded.problems == []
    assert [(p.name, p.manifest.rank, p.manifest.world_size) for p in loaded.processes] == [
        ("", 0, 2),
        ("rank-1", 1, 2),
    ]
    assert len({p.manifest.pid for p in loaded.processes}) == 2
    for process in loaded.processes:
        assert process.manifest.status == "complete"
        assert list(process.compiles) == ["0/0"]
        assert [e.compile_id for e in process.functions["scale"].entries] == ["0/0"]
    validate_dump(dump)


FORKED = """
import multiprocessing as mp
import torch

def work(n):
    return torch.compile(lambda x: x + n, backend="eager")(torch.zeros(2)).tolist()

if __name__ == "__main__":
    torch.compile(lambda x: x - 1, backend="eager")(torch.zeros(2))
    pool = mp.get_context("fork").Pool(2)
    assert pool.map(work, [1, 2]) == [[1.0, 1.0], [2.0, 2.0]]
    pool.close()  # workers that leave normally close their dumps
    pool.join()
"""


def _assert_complete_workers(root, workers) -> None:
    """Each worker has its own folder, points at its parent and closed its dump."""
    for worker in workers:
        manifest = worker.manifest
        assert worker.name == f"pid-{manifest.pid}"
        assert manifest.parent_pid == root.manifest.pid
        assert manifest.status == "complete"
        assert worker.graphs


def _workers_dump(tmp_path, script_text: str):
    """Capture a script that starts workers; (root process, worker processes)."""
    script, dump = _script(tmp_path, script_text), tmp_path / "d"
    run_capture(dump, script)
    validate_dump(dump)
    loaded = load_dump(dump)
    assert loaded.problems == []
    root, *workers = loaded.processes
    assert root.name == "" and len(root.graphs) == 1
    _assert_complete_workers(root, workers)
    return root, workers


def test_forked_workers_write_their_own_folders(tmp_path):
    _, workers = _workers_dump(tmp_path, FORKED)
    assert workers, "no worker recorded its compiles"


TERMINATED = """
import multiprocessing as mp
import signal, sys, time
import torch

def work(n):
    return torch.compile(lambda x: x + n, backend="eager")(torch.zeros(2)).tolist()

def held(x):
    return x * 3

def compile_then_wait(ready, own_handler):
    own = lambda *_: sys.exit(7)
    if own_handler:  # the worker's own SIGTERM handler must still run, and decide the exit
        signal.signal(signal.SIGTERM, own)
    torch.compile(held, backend="eager")(torch.zeros(2))
    assert signal.getsignal(signal.SIGTERM) is (own if own_handler else signal.SIG_DFL)
    ready.set()
    # Short sleeps: CPython runs a Python handler (the program's own here) for a signal
    # that lands just before a blocking call only once the call returns.
    for _ in range(1200):
        time.sleep(0.1)

if __name__ == "__main__":
    with mp.get_context("fork").Pool(2) as pool:  # leaving the block terminates the workers
        assert pool.map(work, [1, 2]) == [[1.0, 1.0], [2.0, 2.0]]
    codes = []
    for own_handler in (False, True):
        ready = mp.get_context("fork").Event()
        worker = mp.get_context("fork").Process(target=compile_then_wait, args=(ready, own_handler))
        worker.start()
        assert ready.wait(120)
        worker.terminate()
        worker.join(60)
        codes.append(worker.exitcode)
    print("exit codes", codes)
    assert codes == [-signal.SIGTERM, 7], codes
"""


def test_terminated_workers_close_their_manifests(tmp_path):
    script, dump = _script(tmp_path, TERMINATED), tmp_path / "d"
    result = run_capture(dump, script)
    assert "exit codes [-15, 7]" in result.stdout
    loaded = load_dump(dump)
    assert loaded.problems == []
    root, *workers = loaded.processes
    assert root.manifest.status == "complete"
    held = [w for w in workers if "held" in w.functions]
    pooled = [w for w in workers if "held" not in w.functions]
    assert len(held) == 2 and pooled
    for worker in workers:
        manifest = worker.manifest
        assert manifest.status == "complete" and manifest.ended is not None, worker.name
        assert worker.graphs
    # SIGTERM's default action ended the first at once: the parent closed its record.
    # The second's own handler raised SystemExit, and its exit hook closed it.
    assert sorted(w.manifest.notes for w in held) == [[], [ending.ENDED]]
    for worker in pooled:  # these race the pool's own stop message: either way is fine
        assert worker.manifest.notes in ([], [ending.ENDED]), worker.name
    validate_dump(dump)


SPAWNED = """
import multiprocessing as mp
import os, shutil, sys, tempfile, time
import torch
import torch.multiprocessing

def work(n):
    return torch.compile(lambda x: x + n, backend="eager")(torch.zeros(2)).tolist()

def hold(marker):
    open(marker, "w").close()
    time.sleep(120)

def rank_main(rank, out):
    out.put((rank, torch.compile(lambda x: x * (rank + 2), backend="eager")(torch.ones(1)).item()))

if __name__ == "__main__":
    torch.compile(lambda x: x - 1, backend="eager")(torch.ones(1))
    with mp.get_context("spawn").Pool(1) as pool:  # leaving it terminates the worker
        assert pool.map(work, [3]) == [[3.0, 3.0]]
        # Busy when the block ends: an idle worker may read the pool's stop message
        # and leave on its own before the SIGTERM comes.
        marker = os.path.join(tempfile.mkdtemp(), "held")
        pool.apply_async(hold, (marker,))
        while not os.path.exists(marker):
            time.sleep(0.05)
    shutil.rmtree(os.path.dirname(marker))
    queue = mp.get_context("spawn").SimpleQueue()
    torch.multiprocessing.spawn(rank_main, args=(queue,), nprocs=2)
    assert sorted(queue.get() for _ in range(2)) == [(0, 2.0), (1, 3.0)]
"""


def test_spawned_workers_record_into_the_same_dump(tmp_path):
    _, workers = _workers_dump(tmp_path, SPAWNED)
    assert len(workers) == 3  # the pool's worker and two torch.multiprocessing.spawn ranks
    assert all(len(worker.graphs) == 1 for worker in workers)
    terminated = [w for w in workers if any("SIGTERM" in n for n in w.manifest.notes)]
    assert len(terminated) == 1  # the pool's worker, stopped by leaving the with block
