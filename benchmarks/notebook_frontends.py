"""What a report's output cell does in real Jupyter frontends, driven in Chromium.

    python benchmarks/notebook_frontends.py make DIR
    jupyter trust DIR/report.ipynb      # with the frontend's own jupyter
    python benchmarks/notebook_frontends.py check URL ROUTE NOTEBOOK...

``make`` runs tests/test_notebook.py's notebook (the toy example captured with
``eager``, ``report``, ``show(f)``, two wrong ``show`` calls) in a kernel and saves
it as DIR/report.ipynb, and a copy the frontend does not trust as
DIR/untrusted.ipynb (a notebook shared with you). Serve DIR with the frontend to
measure, outside this project's dependencies, e.g. from a scratch venv:

    jupyter lab --port 8890 --IdentityProvider.token= --ServerApp.root_dir=DIR
    jupyter notebook --port 8891 --NotebookApp.token= --notebook-dir=DIR   # notebook<7

``check`` opens each notebook (ROUTE: ``lab/tree`` for JupyterLab, ``notebooks`` for
Notebook 7 and classic Notebook 6) and prints, per notebook: whether the summary
shows, whether the frame shows the styled overview, whether a link, the ``i``
shortcut, a search and "open in a new tab" work inside it, and the error lines.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
CHROMIUM = "/usr/bin/chromium"


def make(folder: Path) -> None:
    import nbformat
    from nbclient import NotebookClient
    from test_notebook import CELLS, RAISES

    folder.mkdir(parents=True, exist_ok=True)
    nb = nbformat.v4.new_notebook()
    for i, source in enumerate(CELLS):
        cell = nbformat.v4.new_code_cell(source)
        if i in RAISES:
            cell.metadata["tags"] = ["raises-exception"]
        nb.cells.append(cell)
    os.environ["PYTHONPATH"] = str(REPO)
    resources = {"metadata": {"path": str(folder)}}
    NotebookClient(nb, timeout=600, kernel_name="python3", resources=resources).execute()
    nbformat.write(nb, folder / "report.ipynb")
    shared = json.loads((folder / "report.ipynb").read_text())
    shared["metadata"]["shared"] = True  # another hash: not trusted by `jupyter trust`
    (folder / "untrusted.ipynb").write_text(json.dumps(shared))
    print(f"{folder / 'report.ipynb'}: {(folder / 'report.ipynb').stat().st_size:,} bytes")


def check(url: str, route: str, notebooks: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        context = browser.new_context(viewport={"width": 1400, "height": 1100})
        page = context.new_page()
        for name in notebooks:
            reset = "?reset" if route.startswith("lab") else ""  # no tabs of earlier runs
            page.goto(f"{url}/{route}/{name}{reset}")
            page.wait_for_timeout(7000)
            for label in ("No Kernel", "Cancel"):  # a kernel dialog, where one opens
                button = page.locator(f"button:has-text('{label}')")
                if button.count():
                    button.first.click(timeout=2000)
            print(f"== {route}/{name}")
            for line in _report(page):
                print("  ", line)
        browser.close()


def _report(page) -> list[str]:
    lines = [f"summary shown: {page.locator('.depyf-report-nb table.numbers').first.is_visible()}"]
    errors = {t.strip()[:90] for t in page.locator("pre").all_inner_texts() if "error:" in t}
    lines += [f"error line: {e}" for e in sorted(errors)]
    frame = page.locator("iframe.site")
    lines.append(f"frame in the output: {frame.count() == 1}")
    if frame.count() != 1:
        return lines
    frame.first.element_handle().scroll_into_view_if_needed()
    site = page.frame_locator("iframe.site").frame_locator("#view")
    site.locator(".stats").wait_for()
    styled = site.locator(".topbar").evaluate("e => getComputedStyle(e).position") == "sticky"
    lines.append(f"overview styled: {styled}, flowcharts: {site.locator('svg.flowchart').count()}")
    site.locator("svg.flowchart a[href='fn-toy_example.html']").first.click()
    lines.append(f"link opens: {site.locator('main h1').inner_text()[:40]!r}")
    site.locator("body").press("i")
    lines.append(f"'i' back to the overview: {site.locator('.stats').count() == 1}")
    site.locator("#search").fill("resumes at line 16")
    site.locator("#search").press("Enter")
    lines.append(f"search opens: {site.locator('main h1').inner_text()[:60]!r}")
    with page.context.expect_page() as opened:
        page.frame_locator("iframe.site").locator("#new-tab").click()
    tab = opened.value
    heading = tab.frame_locator("#view").locator("main h1")
    lines.append(f"new tab {tab.url[:30]}...: {heading.inner_text()[:60]!r}")
    tab.close()
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("make").add_argument("folder", type=Path)
    checking = commands.add_parser("check")
    checking.add_argument("url")
    checking.add_argument("route")
    checking.add_argument("notebooks", nargs="+")
    args = parser.parse_args()
    if args.command == "make":
        make(args.folder)
    else:
        check(args.url, args.route, args.notebooks)


if __name__ == "__main__":
    main()
