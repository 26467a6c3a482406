"""A dump comes from a machine we do not control: render reads it without trust.

Each test is a defect that was found: render followed a link out of the dump, or
ended in a traceback, or rendered an empty site. Now every damaged file or field
is skipped with a warning naming it, and everything else still renders.
"""

import json
import os

import pytest
from synthetic import make_dump

from depyf_report.cli import main

SECRET = "canary: a file outside the dump"


def _render(dump, site, capsys) -> tuple[int, str]:
    code = main([str(dump), "-o", str(site), "--no-progress"])
    error = capsys.readouterr().err
    assert "Traceback" not in error
    return code, error


def _site_text(site) -> str:
    return "".join(p.read_text(errors="replace") for p in site.rglob("*") if p.is_file())


@pytest.fixture
def secret(tmp_path):
    path = tmp_path / "outside" / "secret.json"
    path.parent.mkdir()
    path.write_text(json.dumps({"decompiled": SECRET, "error": None, "dis": SECRET}))
    return path


def test_links_out_of_the_dump_are_never_followed(tmp_path, capsys, secret):
    dump = make_dump(tmp_path / "dump", graphs=2)
    (dump / "functions" / "f9.json").symlink_to(secret)
    os.symlink(secret.parent, dump / "graphs" / "folder.json")
    view = json.loads((dump / "functions" / "f0.json").read_text())
    view["original"].update(decompiled=None, file="views/0.json")
    (dump / "functions" / "f0.json").write_text(json.dumps(view))
    (dump / "views").mkdir()
    (dump / "views" / "0.json").symlink_to(secret)
    code, error = _render(dump, tmp_path / "site", capsys)
    assert code == 0
    assert "f9.json: not a regular file" in error and "views/0.json: not a regular file" in error
    assert SECRET not in _site_text(tmp_path / "site")


def test_a_linked_process_folder_is_skipped_and_takes_no_pages(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=1)
    other = make_dump(tmp_path / "other", graphs=3)
    (dump / "processes").mkdir()
    (dump / "processes" / "rank1").symlink_to(other)
    code, error = _render(dump, tmp_path / "site", capsys)
    assert code == 0 and "processes/rank1: not a folder" in error
    assert not (tmp_path / "site" / "graph-g3.html").exists()


def test_a_process_cannot_claim_the_main_process_pages(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=1, processes=2)
    manifest = dump / "processes" / "rank1" / "manifest.json"
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**data, "process": ""}))  # says it is the main one
    graph = dump / "processes" / "rank1" / "graphs" / "g1.json"
    graph.write_text(graph.read_text().replace("forward", "forward_of_rank_1", 1))
    assert _render(dump, tmp_path / "site", capsys)[0] == 0
    assert "forward_of_rank_1" not in (tmp_path / "site" / "graph-g1.html").read_text()
    assert "forward_of_rank_1" in (tmp_path / "site" / "p-rank1-graph-g1.html").read_text()


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (lambda f: f.update(qualname=None), "qualname: expected a string, found null"),
        (lambda f: f.update(first_line="12"), "first_line: expected an integer, found a string"),
        (lambda f: f["resume"].update(break_line=1.5), "resume.break_line: expected an integer"),
        (lambda f: f["entries"][0].update(compile_id=7), "entries[0].compile_id"),
        (lambda f: f.update(entries={"a": 1}), "entries: expected an array"),
        (lambda f: f.update(last_line=10**400), "last_line: an integer too large"),
    ],
    ids=["null qualname", "string line", "float line", "int compile id", "object list", "huge"],
)
def test_a_field_of_the_wrong_type_is_named_and_skipped(tmp_path, capsys, change, named):
    dump = make_dump(tmp_path / "dump", graphs=2)
    path = next(p for p in (dump / "functions").iterdir() if json.loads(p.read_text())["resume"])
    record = json.loads(path.read_text())
    change(record)
    path.write_text(json.dumps(record))
    code, error = _render(dump, tmp_path / "site", capsys)
    assert code == 0
    assert f"{path.name}: " in error and named in error
    assert (tmp_path / "site" / "index.html").is_file()


def test_an_int_break_reason_skips_that_break_alone(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=2)
    path = next(p for p in (dump / "compiles").iterdir() if "graph_breaks" in p.read_text())
    record = json.loads(path.read_text())
    record["graph_breaks"][0]["reason"] = 42
    path.write_text(json.dumps(record))
    code, error = _render(dump, tmp_path / "site", capsys)
    assert code == 0 and "graph_breaks[0].reason: expected a string" in error
    assert "item dropped" in error


def test_json_nested_100000_deep_is_a_damaged_file(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=2)
    (dump / "graphs" / "g2.json").write_text("[" * 100_000 + "]" * 100_000)
    code, error = _render(dump, tmp_path / "site", capsys)
    assert code == 0 and "g2.json: damaged, skipped (nested too deeply)" in error
    assert (tmp_path / "site" / "graph-g1.html").is_file()


def test_deep_metrics_are_a_damaged_field(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=1)
    path = next((dump / "compiles").iterdir())
    record = json.loads(path.read_text())
    record["metrics"]["deep"] = json.loads("[" * 500 + "]" * 500)
    path.write_text(json.dumps(record))
    code, error = _render(dump, tmp_path / "site", capsys)
    assert code == 0 and "metrics['deep']: nested deeper than" in error


def test_file_names_that_are_not_utf8_are_shown_escaped(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=1)
    with open(os.path.join(os.fsencode(dump / "functions"), b"\xff\xfe.json"), "w") as f:
        f.write("{}")
    code, error = _render(dump, tmp_path / "site", capsys)
    assert code == 0 and "\\xff\\xfe.json: not a valid Function record" in error
    assert "\\xff\\xfe.json" in (tmp_path / "site" / "index.html").read_text()


def test_lone_surrogates_in_strings_become_replacement_characters(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=1)
    path = dump / "functions" / "f0.json"
    path.write_text(path.read_text().replace('"qualname":"', '"qualname":"\\udc80', 1))
    assert _render(dump, tmp_path / "site", capsys)[0] == 0
    assert "\ufffdModel0" in (tmp_path / "site" / "fn-f0.html").read_text()


def test_a_fifo_is_refused_without_waiting_on_it(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=1)
    os.mkfifo(dump / "compiles" / "waits.json")
    os.mkfifo(dump / "debug.json")
    code, error = _render(dump, tmp_path / "site", capsys)
    assert code == 0 and "waits.json: not a regular file" in error


def test_a_damaged_manifest_still_renders_the_records_under_a_banner(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=2)
    (dump / "manifest.json").write_text('{"schema_version": 2, "argv": ')
    code, error = _render(dump, tmp_path / "site", capsys)
    assert code == 0 and "manifest.json: damaged" in error
    index = (tmp_path / "site" / "index.html").read_text()
    assert "manifest.json could not be read" in index
    assert (tmp_path / "site" / "graph-g2.html").is_file()
    assert "fn-f0.html" in index


def test_a_missing_manifest_beside_records_is_still_a_dump(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=1)
    (dump / "manifest.json").unlink()
    code, error = _render(dump, tmp_path / "site", capsys)
    assert code == 0 and "manifest.json: missing" in error
    assert (tmp_path / "site" / "graph-g1.html").is_file()


def test_two_records_with_one_id_keep_the_first(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=2)
    first = json.loads((dump / "graphs" / "g1.json").read_text())
    (dump / "graphs" / "zz.json").write_text(json.dumps({**first, "name": "impostor"}))
    code, error = _render(dump, tmp_path / "site", capsys)
    assert code == 0 and "zz.json: another record has the id 'g1'" in error
    assert "impostor" not in (tmp_path / "site" / "graph-g1.html").read_text()


@pytest.mark.parametrize("text", ["null", "[]", '"a graph"', "1e999"])
def test_a_file_that_holds_no_record_is_named(tmp_path, capsys, text):
    dump = make_dump(tmp_path / "dump", graphs=2)
    (dump / "graphs" / "g2.json").write_text(text)
    code, error = _render(dump, tmp_path / "site", capsys)
    assert code == 0 and "g2.json: not a valid CompiledGraph record" in error
