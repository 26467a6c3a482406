"""The rank switcher and the divergence page in Chromium, from file://."""

from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright
from ranks_dump import diverging_dump
from test_browser import CHROMIUM, FLAGS

from depyf_report.render import render

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def ranks_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("ranks-browser")
    return render(diverging_dump(root / "dump"), root / "site", progress=False).parent


@pytest.fixture(scope="module")
def page():
    if not CHROMIUM.exists():
        pytest.fail("needs Debian's chromium (apt-get install chromium); or -m 'not browser'")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        page = browser.new_page()
        page.errors = []
        page.on("pageerror", lambda e: page.errors.append(str(e)))
        page.on("request", lambda r: r.url.startswith("file://") or page.errors.append(r.url))
        yield page
        browser.close()


def test_switching_ranks_and_reading_what_differs(ranks_site, page):
    page.goto((ranks_site / "p-rank3-fn-f0.html").as_uri())
    switch = page.locator("nav.rank-switch")
    assert switch.is_visible()
    switch.get_by_role("link", name="rank 2").click()
    assert page.url.endswith("/p-rank2-fn-f0.html")
    assert page.locator("nav.rank-switch [aria-current=page]").inner_text() == "rank 2"
    page.locator("nav.rank-switch").get_by_role(
        "link", name="what differs between the ranks"
    ).click()
    assert page.url.endswith("/divergence.html#diverged-f0")
    assert page.locator("#diverged-f0").is_visible()
    assert page.locator("#diverged-f0 pre.diff .add").first.inner_text().startswith("+")
    page.goto((ranks_site / "index.html").as_uri())
    assert "Ranks diverged in 2 functions" in page.locator("nav.rank-switch").inner_text()
    assert page.errors == []
