"""Pages written by forked workers are the pages one process writes."""

import json

from synthetic import make_dump

from depyf_report.render import render, writer
from depyf_report.render.writer import work_chunks


def _files(site):
    return {
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file() and p.name != ".depyf-report-status.json"
    }


def test_workers_write_the_same_site_as_one_process(tmp_path, monkeypatch):
    dump = make_dump(tmp_path / "dump", graphs=8, guards=200)
    serial = render(dump, tmp_path / "serial", progress=False).parent
    monkeypatch.setattr(writer, "PARALLEL_FROM", 0)
    monkeypatch.setattr(writer, "CHUNKS_PER_CORE", 4)
    parallel = render(dump, tmp_path / "parallel", progress=False).parent
    assert _files(parallel) == _files(serial)
    status = json.loads((parallel / ".depyf-report-status.json").read_text())
    assert status == json.loads((serial / ".depyf-report-status.json").read_text())


def test_chunks_start_with_the_heaviest_pages_and_hold_each_once():
    weights = [5, 100, 1, 1, 40, 1, 1, 1, 2]
    chunks = work_chunks(weights, share=10)
    assert chunks[:2] == [[1], [4]]  # alone: each is more than a share
    assert sorted(i for chunk in chunks for i in chunk) == list(range(len(weights)))
    assert all(sum(weights[i] for i in chunk[:-1]) < 10 for chunk in chunks)
