"""Render a dump that capture wrote from a real torch.compile run."""

import subprocess
import sys
from pathlib import Path

import pytest
from linkcheck import broken_links

from depyf_report.render import render

REPO = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.torch, pytest.mark.slow]


@pytest.fixture(scope="module")
def toy_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("real")
    script = REPO / "examples" / "toy_example.py"
    cmd = [sys.executable, "-m", "depyf_report", "run", "-o", str(root / "dump"), "--"]
    subprocess.run([*cmd, "python", str(script), "eager"], check=True, capture_output=True)
    return render(root / "dump", root / "site", progress=False).parent


def test_toy_example_site_links_resolve(toy_site):
    assert broken_links(toy_site) == []


def test_toy_example_shows_the_break_and_both_resume_functions(toy_site):
    page = (toy_site / "fn-toy_example.html").read_text()
    # Line 14 broke the graph, and its sum and comparison went into graph 1.
    assert 'class="line marked break made" id="L14"' in page
    assert ">__compiled_fn_1: sum_1, lt</a>" in page
    resumes = [p.name for p in toy_site.glob("fn-torch_dynamo_resume_in_toy_example_at_14*.html")]
    assert len(resumes) == 2
    for name in resumes:  # the transformed code links each __resume_at_* to its page
        assert f'<a class="code-link" href="{name}">__resume_at_' in page


def test_toy_example_story_recompiles(toy_site):
    text = (toy_site / "fn-toy_example.py").read_text()
    compile(text, "fn-toy_example.py", "exec")
    assert "def toy_example(a, b):" in text and "def guard_0_for_toy_example(" in text
