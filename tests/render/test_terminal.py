"""Text from a dump printed on a terminal: escapes and controls show as text."""

from synthetic import make_dump

from depyf_report.cli import main
from depyf_report.render import render
from depyf_report.terminal import terminal_safe


def test_escape_sequences_and_controls_are_shown_not_run():
    name = "dump/\x1b]8;;http://evil\x07click\x1b]8;;\x07\x1b[2J\r\n\tx\x00\x7f\x9b.json"
    assert terminal_safe(name) == (
        "dump/\\x1b]8;;http://evil\\x07click\\x1b]8;;\\x07\\x1b[2J\\x0d\\x0a\\x09x\\x00\\x7f\\x9b.json"
    )


def test_bidi_overrides_separators_and_undecodable_bytes_are_escaped():
    assert terminal_safe("a\u202egnp.exe") == "a\\u202egnp.exe"
    assert terminal_safe("a\u2028b\u2029c\u200bd\ufeff") == "a\\u2028b\\u2029c\\u200bd\\ufeff"
    assert terminal_safe("bad\udcff.json") == "bad\\udcff.json"  # os.fsdecode of byte 0xff
    assert terminal_safe("\U000e0001tag") == "\\U000e0001tag"


def test_printable_text_is_kept_as_it_is():
    for text in ("model.py:12 in forward", "模型/données Ünïcode ✓ 🙂", "C:\\dump\\a b"):
        assert terminal_safe(text) == text
    assert terminal_safe(Exception("x\ny")) == "x\\x0ay"


def test_render_warnings_name_a_hostile_file_safely(tmp_path, capsys):
    dump = make_dump(tmp_path / "dump", graphs=1)
    (dump / "functions" / "\x1b]0;pwned\x07\x1b[2J.json").write_text("{")
    render(dump, tmp_path / "site", progress=False)
    err = capsys.readouterr().err
    assert "\\x1b]0;pwned\\x07" in err
    assert "\x1b" not in err and "\x07" not in err


def test_cli_errors_name_a_hostile_path_safely(tmp_path, capsys):
    assert main([str(tmp_path / "no\x1b[2Jdump"), "-o", str(tmp_path / "site")]) == 2
    err = capsys.readouterr().err
    assert "no\\x1b[2Jdump" in err and "\x1b" not in err
