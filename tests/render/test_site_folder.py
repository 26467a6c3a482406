"""Render writes only its own files, inside the site folder, never through a link."""

import json
import os
import zipfile

import pytest
from synthetic import make_dump

from depyf_report.cli import main
from depyf_report.errors import UserError
from depyf_report.render import render, writer
from depyf_report.render.urls import STATUS


def test_the_zip_holds_exactly_the_files_render_wrote(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=2)
    site = tmp_path / "site"
    render(dump, site, progress=False)
    (site / ".git").mkdir()
    (site / ".git" / "config").write_text("token = secret")
    (site / "notes.txt").write_text("private")
    (tmp_path / "passwd").write_text("root:x:0:0")
    (site / "passwd").symlink_to(tmp_path / "passwd")
    render(dump, site, zip=True, progress=False)
    status = json.loads((site / STATUS).read_text())
    names = zipfile.ZipFile(tmp_path / "site.zip").namelist()
    assert names == sorted(f"site/{path}" for path in status["files"])
    assert "site/index.html" in names and "site/summary.md" in names
    assert not any(n.endswith(("config", "notes.txt", "passwd", STATUS)) for n in names)


def test_two_zips_of_one_dump_are_byte_identical(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=2)
    render(dump, tmp_path / "a" / "site", zip=True, progress=False)
    os.utime(dump / "graphs" / "g1.json", (1, 1))
    render(dump, tmp_path / "b" / "site", zip=True, progress=False)
    first = (tmp_path / "a" / "site.zip").read_bytes()
    assert first == (tmp_path / "b" / "site.zip").read_bytes()
    info = zipfile.ZipFile(tmp_path / "a" / "site.zip").infolist()[0]
    assert info.date_time == (1980, 1, 1, 0, 0, 0)


def test_a_linked_page_is_replaced_and_its_target_left_alone(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=2)
    site = tmp_path / "site"
    render(dump, site, progress=False)
    target = tmp_path / "outside.html"
    target.write_text("mine")
    (site / "graph-g1.html").unlink()
    (site / "graph-g1.html").symlink_to(target)
    render(dump, site, progress=False)
    assert target.read_text() == "mine"
    assert not (site / "graph-g1.html").is_symlink()
    assert "__compiled_fn" in (site / "graph-g1.html").read_text()


def test_a_linked_static_folder_is_refused(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=1)
    site = tmp_path / "site"
    render(dump, site, progress=False)
    elsewhere = tmp_path / "elsewhere"
    (site / "static").rename(elsewhere)
    (site / "static").symlink_to(elsewhere)
    with pytest.raises(UserError, match="is a link"):
        render(dump, site, progress=False)


def test_a_file_render_did_not_write_is_never_replaced(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=1)
    site = tmp_path / "site"
    render(dump, site, progress=False)
    make_dump(tmp_path / "bigger", graphs=2)
    (site / "graph-g2.html").write_text("the user's own page")
    with pytest.raises(UserError, match=r"graph-g2\.html: exists and was not written"):
        render(tmp_path / "bigger", site, progress=False)
    assert (site / "graph-g2.html").read_text() == "the user's own page"


def test_a_status_file_cannot_make_render_delete_outside_the_site(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=1)
    site = tmp_path / "site"
    render(dump, site, progress=False)
    keep = tmp_path / "keep.html"
    keep.write_text("keep")
    status = json.loads((site / STATUS).read_text())
    status["files"]["../keep.html"] = ""
    status["files"][str(keep)] = ""
    (site / STATUS).write_text(json.dumps(status))
    render(dump, site, progress=False)
    assert keep.read_text() == "keep"


@pytest.mark.parametrize("where", ["dump/site", "dump/functions/site", "dump"])
def test_an_output_folder_inside_the_dump_is_refused(tmp_path, capsys, where):
    dump = make_dump(tmp_path / "dump", graphs=1)
    before = sorted(p.relative_to(dump) for p in dump.rglob("*"))
    assert main([str(dump), "-o", str(tmp_path / where), "--no-progress"]) == 2
    assert "outside the dump" in capsys.readouterr().err
    assert sorted(p.relative_to(dump) for p in dump.rglob("*")) == before


def test_the_current_folder_as_the_site_with_a_zip(tmp_path, monkeypatch, capsys):
    dump = make_dump(tmp_path / "dump", graphs=1)
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    assert main([str(dump), "-o", ".", "--zip", "--no-progress"]) == 0
    assert "here/index.html" in zipfile.ZipFile(tmp_path / "here.zip").namelist()


def test_a_render_that_failed_half_way_does_not_block_the_next(tmp_path, monkeypatch):
    dump = make_dump(tmp_path / "dump", graphs=3)
    site = tmp_path / "site"

    def fail(self, plan):
        raise KeyboardInterrupt  # a user's Ctrl-C half way

    with monkeypatch.context() as patch:
        patch.setattr(writer.SiteWriter, "write_page", fail)
        with pytest.raises(KeyboardInterrupt):
            render(dump, site, progress=False)
    assert any(site.iterdir())
    render(dump, site, progress=False)
    assert (site / "graph-g3.html").is_file()
