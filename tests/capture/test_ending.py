"""A parent closes the records of its workers that ended without closing them."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from depyf_report.capture import ending
from depyf_report.capture.writer import new_manifest
from depyf_report.dump import Layout, Manifest, from_json, to_json, write_json


def _worker(root, pid: int, parent_pid: int, status: str = "running") -> Layout:
    layout = Layout(root).process(f"pid-{pid}")
    manifest = new_manifest(f"pid-{pid}", None, None)
    manifest.pid, manifest.parent_pid, manifest.status = pid, parent_pid, status
    write_json(layout.manifest, to_json(manifest))
    return layout


def _manifest(layout: Layout) -> Manifest:
    return from_json(Manifest, json.loads(layout.manifest.read_text()))


def _reaped() -> int:
    """The id of a process that has ended and been waited for."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_a_worker_that_ended_still_running_is_closed(tmp_path):
    layout = _worker(tmp_path, _reaped(), parent_pid=os.getpid())
    write_json(layout.graph("g0"), {"id": "g0"})
    recorded = os.stat(layout.graph("g0")).st_mtime
    time.sleep(0.05)
    write_json(layout.view("0"), {})  # its decompiler process may write after it ended
    ending.close_ended_workers(tmp_path, os.getpid())
    manifest = _manifest(layout)
    assert manifest.status == "complete"
    assert manifest.notes == [ending.ENDED]
    assert "SIGTERM" in ending.ENDED
    ended = manifest.ended  # its last record, not its decompiler's last view
    assert ended.startswith(time.strftime("%Y-%m-%d", time.gmtime(recorded)))
    assert abs(_seconds(ended) - recorded) < 0.01


def _seconds(moment: str) -> float:
    return datetime.datetime.fromisoformat(moment).timestamp()


def test_running_workers_others_and_closed_ones_are_left_alone(tmp_path):
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        alive = _worker(tmp_path, sleeper.pid, parent_pid=os.getpid())
        others = _worker(tmp_path, _reaped(), parent_pid=os.getpid() + 1)
        failed = _worker(tmp_path, _reaped(), parent_pid=os.getpid(), status="failed")
        before = {x: x.manifest.read_bytes() for x in (alive, others, failed)}
        ending.close_ended_workers(tmp_path, os.getpid())
        assert {x: x.manifest.read_bytes() for x in before} == before
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_record_that_cannot_be_read_is_skipped(tmp_path):
    broken = Layout(tmp_path).process("pid-1")
    broken.manifest.parent.mkdir(parents=True)
    broken.manifest.write_text("{not json")
    closed = _worker(tmp_path, _reaped(), parent_pid=os.getpid())
    ending.close_ended_workers(tmp_path, os.getpid())
    assert broken.manifest.read_text() == "{not json"
    assert _manifest(closed).status == "complete"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_not_yet_waited_for_has_ended(tmp_path):
    zombie = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        deadline = time.monotonic() + 30
        stat = Path(f"/proc/{zombie.pid}/stat")
        while stat.read_text().rsplit(")", 1)[1].split()[0] != "Z":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        layout = _worker(tmp_path, zombie.pid, parent_pid=os.getpid())
        ending.close_ended_workers(tmp_path, os.getpid())
        assert _manifest(layout).status == "complete"
    finally:
        zombie.wait()
