import json
import zipfile

import pytest
from synthetic import make_dump

import depyf_report.render as render_module
from depyf_report.cli import main
from depyf_report.dump import SCHEMA_VERSION
from depyf_report.errors import UserError
from depyf_report.render import render, writer
from depyf_report.render.assets import Asset, site_assets
from depyf_report.render.urls import STATUS


def test_cli_prints_the_index_path(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=2)
    assert main([str(dump), "-o", str(tmp_path / "site")]) == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "site" / "index.html")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "nowhere", "no such directory"),
        (lambda p: (p / "empty").mkdir() or p / "empty", "not a depyf-report dump"),
    ],
    ids=["missing", "foreign"],
)
def test_missing_or_foreign_dump_is_one_clear_line(tmp_path, capsys, make, message):
    assert main([str(make(tmp_path)), "-o", str(tmp_path / "site")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.splitlines()) == 1


def test_refuses_to_write_over_a_folder_that_is_not_a_site(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=1)
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "thesis.tex").write_text("precious")
    with pytest.raises(UserError, match="not empty"):
        render(dump, tmp_path / "site", progress=False)
    with pytest.raises(UserError, match="outside the dump"):
        render(dump, dump, progress=False)


def test_damaged_file_is_named_and_the_rest_renders(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=4)
    (dump / "graphs" / "g2.json").write_text("{ not json")
    index = render(dump, tmp_path / "site", progress=False)
    warning = capsys.readouterr().err
    assert "warning" in warning and "g2.json" in warning
    page = index.read_text()
    assert "Files that could not be read" in page and "g2.json" in page
    assert (tmp_path / "site" / "graph-g1.html").is_file()
    assert not (tmp_path / "site" / "graph-g2.html").exists()


def test_a_dump_newer_than_the_tool_is_refused_naming_both_versions(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=2, processes=2)
    manifest = dump / "processes" / "rank1" / "manifest.json"
    data = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**data, "schema_version": 99, "tool_version": "9.0"}))
    assert main([str(dump), "-o", str(tmp_path / "site"), "--no-progress"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("depyf-report: error: ")
    assert "schema version 99, written by depyf-report 9.0" in error
    assert f"reads versions up to {SCHEMA_VERSION}" in error and "pip install -U" in error
    assert not (tmp_path / "site").exists()


def test_interrupted_capture_renders_what_it_has(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=3, status="running")
    (dump / "graphs" / ".g1.abc.tmp").write_text('{"half')  # a write cut short
    page = render(dump, tmp_path / "site", progress=False).read_text()
    assert "did not finish" in page
    assert (tmp_path / "site" / "graph-g1.html").is_file()


def test_failed_program_is_said_apart_from_an_unfinished_capture(tmp_path):
    from depyf_report.dump import Layout, Manifest, from_json, to_json, write_json

    dump = make_dump(tmp_path / "dump", graphs=1, status="failed")
    layout = Layout(dump)
    manifest = from_json(Manifest, json.loads(layout.manifest.read_text()))
    manifest.notes.append("worker stopped by <SIGTERM>")
    write_json(layout.manifest, to_json(manifest))
    page = render(dump, tmp_path / "site", progress=False).read_text()
    assert "ended with an error" in page and "did not finish" not in page
    assert "worker stopped by &lt;SIGTERM&gt;" in page


def test_ranks_are_shown(markup_site):
    page = (markup_site / "index.html").read_text()
    assert "rank 0" in page and "rank 1" in page
    assert (markup_site / "p-rank1-fn-f0.html").is_file()


def test_zip_holds_the_whole_site(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=2)
    render(dump, tmp_path / "site", zip=True, progress=False)
    names = zipfile.ZipFile(tmp_path / "site.zip").namelist()
    assert "site/index.html" in names and "site/summary.md" in names
    assert "site/graph-g1-forward-code.html" in names


def test_summary_is_github_markdown_with_collapsible_sections(site):
    text = (site / "summary.md").read_text()
    assert text.startswith("## torch.compile report")
    assert "| graph breaks | 3 |" in text
    assert "<details><summary><code>Model0.forward_0</code>" in text
    assert "graph break at line 13" in text


def test_rerender_of_an_unchanged_dump_writes_no_page(tmp_path, monkeypatch):
    dump = make_dump(tmp_path / "dump", graphs=4)
    render(dump, tmp_path / "site", progress=False)
    written = []
    original = writer.SiteWriter.write_page
    monkeypatch.setattr(
        writer.SiteWriter,
        "write_page",
        lambda self, plan: written.append(plan.path) or original(self, plan),
    )
    render(dump, tmp_path / "site", progress=False)
    assert written == []
    graph = json.loads((dump / "graphs" / "g3.json").read_text())
    graph["stages"][0]["text"] += "# changed\n"
    (dump / "graphs" / "g3.json").write_text(json.dumps(graph))
    render(dump, tmp_path / "site", progress=False)
    # The function page marks what its source lines became, in every graph.
    assert sorted(written) == [
        "fn-f1.html",
        "graph-g3-forward-code.html",
        "graph-g3.html",
        "index.html",
        "provenance-g3.html",
    ]
    assert written[0] == "index.html"  # the biggest page goes first
    assert "# changed" in (tmp_path / "site" / "graph-g3.html").read_text()


def test_changed_templates_rewrite_every_page(tmp_path, monkeypatch):
    dump = make_dump(tmp_path / "dump", graphs=1)
    render(dump, tmp_path / "site", progress=False)
    monkeypatch.setattr(writer, "templates_digest", lambda: "something else")
    written = []
    original = writer.SiteWriter.write_page
    monkeypatch.setattr(
        writer.SiteWriter,
        "write_page",
        lambda self, plan: written.append(plan.path) or original(self, plan),
    )
    old_assets = set((tmp_path / "site" / "static").iterdir())
    theirs = tmp_path / "site" / "static" / "site-0123456789.css"
    theirs.write_text("a file of the user's, named like an asset")
    monkeypatch.setattr(writer, "site_assets", lambda: _changed(site_assets()))
    render(dump, tmp_path / "site", progress=False)
    assert "index.html" in written and "graph-g1.html" in written
    assert not any(path.exists() for path in old_assets)  # render's own, replaced
    assert theirs.exists()


def test_progress_bar_only_on_a_terminal(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=1)
    render(dump, tmp_path / "site", progress=True)
    assert "rendering [" not in capsys.readouterr().err


def test_pages_of_records_that_are_gone_are_removed(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=4)
    site = tmp_path / "site"
    render(dump, site, progress=False)
    (site / "notes.txt").write_text("mine")
    (dump / "graphs" / "g3.json").unlink()
    render(dump, site, progress=False)
    assert not (site / "graph-g3.html").exists() and (site / "graph-g2.html").exists()
    assert (site / "notes.txt").read_text() == "mine"


def test_progress_bar_draws_on_a_terminal():
    import io

    from depyf_report.render.progress import Progress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    bar = Progress(2, True, stream=stream)
    bar.step("a.html")
    bar.step("b.html")
    bar.close()
    assert "rendering [" in stream.getvalue() and "2/2 b.html" in stream.getvalue()
    quiet = Terminal()
    Progress(2, False, stream=quiet).step("a.html")
    assert quiet.getvalue() == ""


def test_function_page_says_where_to_set_a_breakpoint_under_prepare_debug(tmp_path):
    from depyf_report.dump import DebugIndex, DebugSource, Layout, load_dump, to_json, write_json

    dump = make_dump(tmp_path / "dump", graphs=2)
    (process,) = load_dump(dump).processes
    fn, other = sorted(process.functions.values(), key=lambda f: f.id)[:2]
    ran, refused = fn.entries[0].compile_id, other.entries[0].compile_id
    sources = [
        DebugSource("function", fn.name, ran, "/dumps/debug/f_0_0.py", 2, True),
        DebugSource("function", other.name, refused, "", 0, False, reason="cells differ"),
    ]
    write_json(Layout(dump).debug_index, to_json(DebugIndex(sources)))
    site = tmp_path / "site"
    render(dump, site, progress=False)
    page = (site / f"fn-{fn.id}.html").read_text()
    assert "b /dumps/debug/f_0_0.py:2" in page
    assert "own code runs here: cells differ" in (site / f"fn-{other.id}.html").read_text()


def _changed(assets):
    return {
        role: Asset(asset.path.replace("-", "-new", 1), asset.content + b"\n")
        for role, asset in assets.items()
    }


def test_rerender_of_an_unchanged_dump_loads_nothing(tmp_path, monkeypatch, capsys):
    dump = make_dump(tmp_path / "dump", graphs=2)
    (dump / "graphs" / "g9.json").write_text("{not json")  # a warning each render
    site = tmp_path / "site"
    render(dump, site, progress=False)
    first = capsys.readouterr().err
    assert "g9.json" in first
    status = (site / STATUS).read_bytes()

    def never(*args, **kwargs):
        raise AssertionError("an unchanged dump was loaded again")

    with monkeypatch.context() as patch:
        patch.setattr(render_module, "load_dump", never)
        render(dump, site, progress=False)
        assert capsys.readouterr().err == first  # its warnings again, from the status file
        assert (site / STATUS).read_bytes() == status
        (site / "graph-g1.html").unlink()  # a page gone: the full render puts it back
        with pytest.raises(AssertionError, match="loaded again"):
            render(dump, site, progress=False)
    render(dump, site, progress=False)
    assert (site / "graph-g1.html").is_file()
    with monkeypatch.context() as patch:
        patch.setattr(render_module, "load_dump", never)
        (dump / "graphs" / "g9.json").write_text("{}")  # any change to the dump: loaded
        with pytest.raises(AssertionError, match="loaded again"):
            render(dump, site, progress=False)
