"""Pages compared with reviewed copies in gold/, after scrubbing what changes by itself.

On a mismatch the actual page is written beside the gold one as NAME.actual;
to accept a change on purpose, run with DEPYF_REPORT_UPDATE_GOLD=1 and review the diff.
"""

import os
import re
from pathlib import Path

import pytest
from synthetic import make_dump

from depyf_report.render import render

GOLD = Path(__file__).parent / "gold"
PAGES = [
    "index.html",
    "fn-f0.html",
    "fn-f0r.html",
    "fn-f0.py",
    "graph-g1.html",
    "graph-g1-forward-code.html",
    "concept-guard.html",
    "summary.md",
]
SCRUB = [
    (re.compile(r"static/(\w+)-[0-9a-f]{10}\.(css|js)"), r"static/\1-HASH.\2"),
    (re.compile(r"\d+\.\d\d s\b"), "N.NN s"),
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"), "TIME"),
]


def scrub(text: str) -> str:
    for pattern, replacement in SCRUB:
        text = pattern.sub(replacement, text)
    return text


@pytest.fixture(scope="module")
def gold_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("gold")
    return render(make_dump(root / "dump", graphs=3), root / "site", progress=False).parent


@pytest.mark.parametrize("name", PAGES)
def test_page_matches_gold(gold_site, name):
    actual = scrub((gold_site / name).read_text(encoding="utf-8"))
    gold = GOLD / (name + ".txt" if name.endswith(".py") else name)  # not linted as code
    if os.environ.get("DEPYF_REPORT_UPDATE_GOLD"):
        gold.parent.mkdir(exist_ok=True)
        gold.write_text(actual, encoding="utf-8")
    expected = gold.read_text(encoding="utf-8") if gold.exists() else None
    beside = gold.with_name(gold.name + ".actual")
    if actual != expected:
        beside.write_text(actual, encoding="utf-8")
        pytest.fail(f"{name} differs from gold; see {beside}")
    beside.unlink(missing_ok=True)
