"""`depyf-report run -- torchrun`: four gloo ranks on CPU that diverge on purpose,
captured into one dump and rendered as one site with a divergence page."""

from __future__ import annotations

import html
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from depyf_report.capture.command import Program
from depyf_report.capture.torchrun import captured_ranks, console_script, is_torchrun
from depyf_report.dump import load_dump
from depyf_report.render import render

from .conftest import REPO, validate_dump

pytestmark = [pytest.mark.torch, pytest.mark.slow]

# Rank 2 prints (a graph break, and a guard on LOUD only it has); rank 1 calls
# with a second shape (a recompile). torch._dynamo is imported before the process
# group starts: see TORCHRUN_RANKS in test_processes.py.
DIVERGING = """
import torch
import torch._dynamo
import torch.distributed as dist

dist.init_process_group("gloo")
rank = dist.get_rank()
LOUD = rank == 2
WIDE = rank == 1


def step(x):
    y = x.sin()
    if LOUD:
        print("rank 2 says", y.sum().item())
    return y * 2


f = torch.compile(step, backend="eager")
f(torch.ones(4))
f(torch.ones(8 if WIDE else 4))
total = torch.ones(1)
dist.all_reduce(total)
assert total.item() == dist.get_world_size()
dist.destroy_process_group()
"""


def _torchrun(tmp_path: Path, ranks: int) -> Path:
    script, dump = tmp_path / "prog.py", tmp_path / "dump"
    script.write_text(textwrap.dedent(DIVERGING).lstrip())  # print() on line 14
    command = [sys.executable, "-m", "depyf_report", "run", "-o", str(dump), "--", "python"]
    command += ["-m", "torch.distributed.run", "--nproc-per-node", str(ranks), "--standalone"]
    result = subprocess.run(
        [*command, str(script)], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return dump


@pytest.fixture(scope="module")
def four_ranks(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("torchrun")
    dump = _torchrun(root, 4)
    return dump, render(dump, root / "site", progress=False).parent


def _text(page: Path) -> str:
    words = re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8"))
    return " ".join(html.unescape(words).split()).replace(" ,", ",")


def test_each_rank_records_into_its_own_folder(four_ranks):
    dump, _ = four_ranks
    loaded = load_dump(dump)
    assert loaded.problems == []
    found = [(p.name, p.manifest.rank, p.manifest.world_size) for p in loaded.processes]
    assert found == [("", None, None)] + [(f"rank-{n}", n, 4) for n in range(4)]
    launcher, *ranks = loaded.processes
    assert launcher.manifest.argv[1:4] == ["--nproc-per-node", "4", "--standalone"]
    assert "--no-python" not in launcher.manifest.argv  # as the user gave it
    for process in ranks:
        assert process.manifest.status == "complete"
        assert process.manifest.argv[0].endswith("prog.py")
        assert [e.compile_id for e in process.functions["step"].entries][:1] in (["0/0"], ["0/0_1"])
    assert len(ranks[1].functions["step"].entries) == 2  # the recompile
    assert sorted(ranks[2].functions) == [
        "step",
        "torch_dynamo_resume_in_step_at_14",
        "torch_dynamo_resume_in_step_at_14-2",
    ]
    validate_dump(dump)


def test_the_divergence_page_shows_exactly_what_differs(four_ranks):
    _, site = four_ranks
    text = _text(site / "divergence.html")
    assert "Ranks diverged in 3 functions: ranks 0, 3 agree; rank 1 differs; rank 2 differs." in (
        text
    )
    step = text[text.index("step ranks 0, 3 agree · rank 1 · rank 2") :]
    assert (
        "compiles and recompiles ranks 0, 2, 3 : rank 0, rank 2, rank 3 ranks 0, 2, 3: "
        "the whole text compile 0: ok rank 1 : rank 1 — differs from ranks 0, 2, 3: "
        "@@ -1 +1,2 @@ compile 0: ok +compile 1: ok, recompiled: tensor 'x' size mismatch "
        "at index 0. expected 4, actual 8"
    ) in step
    assert (
        "graph breaks Compared on ranks 0, 1, 2, 3; only some of them have these: only on what "
        "rank 2 Unsupported Tensor.item() call with capture_scalar_outputs=False at prog.py:14"
    ) in step
    guards = step[step.index("guards of cache entry 0") : step.index("graph __compiled_fn")]
    assert "ranks 0, 1, 3 G['LOUD'] == False" in guards
    assert "rank 2 G['LOUD'] == True" in guards
    # the print on rank 2 is looked up through the builtins: its id differs by process
    assert "rank 2 ___check_obj_id(G['__builtins_dict___1']['print'], <id>)" in guards
    assert (
        "graph __compiled_fn_1 (compile 0, graph 0; rank 2 names it differently): Dynamo graph"
    ) in step
    assert "rank 2 : rank 2 — differs from ranks 0, 1, 3:" in step
    assert "graph __compiled_fn_3 (compile 1, graph 0): made on some ranks only" in step
    page = (site / "divergence.html").read_text(encoding="utf-8")
    assert '<span class="del">-        # File: ' in page and "prog.py:15 in step" in page
    assert re.search(
        r'<span class="add">\+ +sum_1: "f32\[\]\[\]cpu" = y.sum\(\)', html.unescape(page)
    )
    assert "step, resumes at line 14 after the break at line 14" in text


def test_function_pages_switch_ranks(four_ranks):
    _, site = four_ranks
    page = (site / "p-rank-0-fn-step.html").read_text(encoding="utf-8")
    switch = page[page.index('<nav class="rank-switch"') :]
    switch = switch[: switch.index("</nav>")]
    assert '<span class="rank current" aria-current="page">rank 0</span>' in switch
    assert '<a class="rank differs" href="p-rank-1-fn-step.html"' in switch
    assert '<a class="rank differs" href="p-rank-2-fn-step.html"' in switch
    assert '<a class="rank" href="p-rank-3-fn-step.html">rank 3</a>' in switch
    assert 'href="divergence.html#diverged-step"' in switch
    resume = _text(site / "p-rank-2-fn-torch_dynamo_resume_in_step_at_14.html")
    assert "Not compiled on ranks 0, 1, 3." in resume
    assert "this graph on" in _text(site / "p-rank-1-graph-graph-0-1.html")
    assert "Not made on ranks 0, 2, 3." in _text(site / "p-rank-1-graph-graph-0-1.html")


def test_the_overview_says_ranks_diverged(four_ranks):
    _, site = four_ranks
    text = _text(site / "index.html")
    assert "Ranks: rank 0 rank 1 rank 2 rank 3 Ranks diverged in 3 functions" in text


def test_a_single_rank_shows_no_ranks(tmp_path):
    dump = _torchrun(tmp_path, 1)
    assert [p.manifest.rank for p in load_dump(dump).processes] == [None, 0]
    site = render(dump, tmp_path / "site", progress=False).parent
    assert not (site / "divergence.html").exists()
    for page in site.glob("*.html"):
        assert "rank-switch" not in page.read_text(encoding="utf-8"), page.name


def _program(*args: str) -> Program:
    return Program("module", "torch.distributed.run", args)


def _rank(program: list[str]) -> list[str]:
    return ["PY", "-c", "START", *program]


def test_torchrun_starts_each_rank_under_capture():
    assert is_torchrun(_program()) and is_torchrun(Program("script", "/venv/bin/torchrun"))
    assert not is_torchrun(Program("script", "train.py"))
    rewritten = captured_ranks(_program("--nproc-per-node", "2", "t.py", "--lr", "1"), _rank)
    assert rewritten.args == (
        "--nproc-per-node", "2", "--no-python", "PY", "-c", "START", "--", "t.py", "--lr", "1"
    )  # fmt: skip
    module = captured_ranks(_program("-m", "--nproc-per-node=2", "pkg.train", "-x"), _rank)
    assert module.args == ("--nproc-per-node=2", "--no-python", "PY", "-c", "START", "-m", "pkg.train", "-x")  # fmt: skip
    for unchanged in (("--no-python", "bash", "x.sh"), ("--run-path", "/abs/t.py"), ("--bogus",)):
        assert captured_ranks(_program(*unchanged), _rank) == _program(*unchanged)


def test_a_bare_torchrun_is_the_console_script_on_path(tmp_path, monkeypatch):
    script = tmp_path / "torchrun"
    script.write_text("#!/usr/bin/env python\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.chdir(tmp_path.parent)
    assert console_script(["torchrun", "t.py"]) == [str(script), "t.py"]
    assert console_script(["python", "torchrun"]) == ["python", "torchrun"]
