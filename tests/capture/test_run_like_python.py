"""`depyf-report run -o DUMP -- python ARGS` behaves as `python ARGS` does.

Each test runs the same command both ways, from the same folder, and compares
what the program saw and what the user sees: argv, ``__file__``, ``sys.path``,
interpreter options, exit status, tracebacks and signals.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from depyf_report.dump import load_dump
from depyf_report.render import render

pytestmark = [pytest.mark.torch, pytest.mark.slow]

SHOW = """
import json, os, sys
seen = {
    "file": __file__,
    "argv": sys.argv,
    "path": sys.path,
    "name": __name__,
    "debug": __debug__,
    "flags": [sys.flags.optimize, sys.flags.dont_write_bytecode, sys.flags.dev_mode,
              sys.flags.bytes_warning, sys.flags.no_user_site, sys.flags.verbose,
              sys.flags.quiet, sys.flags.ignore_environment],
    "warnoptions": sys.warnoptions,
    "xoptions": sys._xoptions,
    "unbuffered": [sys.stdout.write_through, type(sys.stdout.buffer).__name__],
}
os.chdir("/")  # then read a file beside the script, as programs do
seen["beside"] = open(os.path.join(os.path.dirname(__file__), "beside.txt")).read()
print(json.dumps(seen))
"""

RAISE = """
def fail():
    raise ValueError("the program's own error")

fail()
"""

WAIT_FOR_CTRL_C = """
import time
print("ready", flush=True)
time.sleep(60)
"""


def _python(words, cwd, **kwargs):
    return subprocess.run(
        [sys.executable, *words], cwd=cwd, capture_output=True, text=True, timeout=300, **kwargs
    )


def _run(dump: Path, words, cwd, **kwargs):
    command = ["-m", "depyf_report", "run", "-o", str(dump), "--"]
    return _python([*command, *words], cwd, **kwargs)


def _project(tmp_path: Path, text: str, name: str = "prog.py") -> Path:
    """``tmp_path/work/sub/<name>``, with ``beside.txt`` next to it; returns ``work``."""
    sub = tmp_path / "work" / "sub"
    sub.mkdir(parents=True, exist_ok=True)
    (sub / name).write_text(textwrap.dedent(text))
    (sub / "beside.txt").write_text("found")
    return tmp_path / "work"


def _seen(result) -> dict:
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.splitlines()[-1])


def test_the_script_sees_the_same_file_argv_and_path(tmp_path):
    work = _project(tmp_path, SHOW)
    plain = _seen(_python(["sub/prog.py", "a", "b c"], work))
    captured = _seen(_run(tmp_path / "d", ["python", "sub/prog.py", "a", "b c"], work))
    assert captured == plain
    assert Path(plain["file"]).is_absolute() and plain["beside"] == "found"
    assert load_dump(tmp_path / "d").processes[0].manifest.status == "complete"


@pytest.mark.parametrize(
    "options",
    [
        ["-u"],
        ["-O"],
        ["-OO", "-B"],
        ["-W", "error::DeprecationWarning"],
        ["-Wignore", "-X", "dev"],
        ["-uBs"],
        ["-bb", "-q", "-E"],
        ["-I"],
        [
            "--",
        ],
    ],
    ids=lambda options: " ".join(options),
)
def test_interpreter_options_take_effect(tmp_path, options):
    work = _project(tmp_path, SHOW)
    plain = _seen(_python([*options, "sub/prog.py", "x"], work))
    captured = _seen(_run(tmp_path / "d", ["python", *options, "sub/prog.py", "x"], work))
    assert captured == plain


def test_code_given_with_c_runs_as_python_c_runs_it(tmp_path):
    code = "import json, sys; print(json.dumps([sys.argv, sys.path, __name__]))"
    work = _project(tmp_path, "")
    plain = _python(["-c", code, "x", "-y"], work)
    captured = _run(tmp_path / "d", ["python", "-c", code, "x", "-y"], work)
    assert (captured.returncode, captured.stdout) == (plain.returncode, plain.stdout)
    assert json.loads(plain.stdout)[0] == ["-c", "x", "-y"]


def test_a_module_given_with_m_sees_the_same_argv_and_path(tmp_path):
    work = _project(tmp_path, SHOW)
    (work / "sub" / "__init__.py").write_text("")
    plain = _seen(_python(["-m", "sub.prog", "x"], work))
    captured = _seen(_run(tmp_path / "d", ["python", "-m", "sub.prog", "x"], work))
    assert captured == plain


def test_an_uncaught_exception_prints_the_same_traceback_and_exits_1(tmp_path):
    work = _project(tmp_path, RAISE)
    plain = _python(["sub/prog.py"], work)
    captured = _run(tmp_path / "d", ["python", "sub/prog.py"], work)
    assert plain.returncode == 1 and "ValueError: the program's own error" in plain.stderr
    assert (captured.returncode, captured.stderr) == (plain.returncode, plain.stderr)
    assert load_dump(tmp_path / "d").processes[0].manifest.status == "failed"


def test_a_syntax_error_is_reported_as_python_reports_it(tmp_path):
    work = _project(tmp_path, "def broken(:\n    pass\n")
    plain = _python(["sub/prog.py"], work)
    captured = _run(tmp_path / "d", ["python", "sub/prog.py"], work)
    assert plain.returncode == 1 and "SyntaxError" in plain.stderr
    assert (captured.returncode, captured.stderr) == (plain.returncode, plain.stderr)


def test_sys_exit_with_a_message_prints_it_and_exits_1(tmp_path):
    work = _project(tmp_path, "import sys\nsys.exit('stopped: bad input')\n")
    plain = _python(["sub/prog.py"], work)
    captured = _run(tmp_path / "d", ["python", "sub/prog.py"], work)
    assert (plain.returncode, plain.stderr) == (1, "stopped: bad input\n")
    assert (captured.returncode, captured.stderr) == (plain.returncode, plain.stderr)


def _interrupted(command: list[str], cwd: Path) -> tuple[int, str]:
    """Start ``command``, press Ctrl-C once it says "ready"; its exit status and stderr."""
    # A runner started in the background ignores SIGINT, and so would its children.
    process = subprocess.Popen(
        command,
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert process.stdout.readline() == "ready\n", process.stderr.read()[-3000:]
        time.sleep(0.5)  # into the sleep, so both tracebacks end on the same line
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, stderr


def test_ctrl_c_shows_the_traceback_and_ends_by_sigint(tmp_path):
    work = _project(tmp_path, WAIT_FOR_CTRL_C)
    dump = tmp_path / "d"
    plain = _interrupted([sys.executable, "sub/prog.py"], work)
    run = [sys.executable, "-m", "depyf_report", "run", "-o", str(dump), "--", "python"]
    captured = _interrupted([*run, "sub/prog.py"], work)
    assert plain[0] == -signal.SIGINT and "KeyboardInterrupt" in plain[1]
    assert captured == plain
    manifest = load_dump(dump).processes[0].manifest
    assert manifest.status == "failed" and manifest.ended is not None
    assert render(dump, tmp_path / "site", progress=False).is_file()


@pytest.mark.parametrize("interpreter", [[], ["python"], [sys.executable]])
def test_a_script_whose_name_starts_with_python_is_the_script(tmp_path, interpreter):
    work = _project(tmp_path, "print('the job ran')\n", name="python_job.py")
    captured = _run(tmp_path / "d", [*interpreter, "sub/python_job.py"], work)
    assert (captured.returncode, captured.stdout) == (0, "the job ran\n"), captured.stderr
    (work / "sub" / "python_job.py").rename(work / "python_job.py")
    captured = _run(tmp_path / "e", [*interpreter, "python_job.py"], work)
    assert (captured.returncode, captured.stdout) == (0, "the job ran\n"), captured.stderr


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["-i", "sub/prog.py"], "-i"),
        (["-V", "sub/prog.py"], "-V"),
        (["-S", "sub/prog.py"], "-S (no site-packages)"),
        (["-q", "-X"], "-X needs a value"),
        (["-c"], "-c needs code"),
        (["--no-such-option", "sub/prog.py"], "--no-such-option"),
        (["-Z", "sub/prog.py"], "-Z"),
        (["-u"], "nothing to run"),
    ],
)
def test_what_cannot_run_under_capture_is_one_clear_error(tmp_path, words, message):
    work = _project(tmp_path, SHOW)
    captured = _run(tmp_path / "d", ["python", *words], work)
    assert captured.returncode == 2
    assert captured.stderr.startswith("depyf-report: error: ") and message in captured.stderr
    assert "Traceback" not in captured.stderr
    assert not (tmp_path / "d").exists()
