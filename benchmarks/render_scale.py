"""Pages of real models at scale: a 32-layer Llama-style transformers model and a
synthetic dump of 1,000 graphs and 10,000 guards, each at 1/2/4x, next to tlparse.

    .venv/bin/python benchmarks/render_scale.py [--capture-only] [--no-browser]

For each dump it prints the render time, the time of a second render of the
same dump into the same site, the site's size, its largest page, and
the DOM nodes and load time of the heaviest pages in headless Chromium
(/usr/bin/chromium through Playwright, as tests/render/test_browser.py does).
The Llama model (random weights from a tiny config, nothing downloaded) is
captured under eager and aot_eager with TORCH_TRACE set in the same run, so
tlparse 0.4.3 reads a log of that very run. tlparse is for comparison only:
`pip install tlparse==0.4.3` (into .venv, or any folder on PATH); without it
those columns say so. Captured dumps are cached under build/render-scale/, so
re-runs only render; delete that folder to capture again. Prints numbers; asserts nothing.
To measure another version of render on the same dumps, run this script with
PYTHONPATH pointing at that checkout and --sites at another folder.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "render"))

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from synthetic import make_dump  # noqa: E402

from depyf_report.render import render  # noqa: E402

WORK = REPO / "build" / "render-scale"
PROGRAM = REPO / "benchmarks" / "programs" / "llama_layers.py"
LAYERS = (8, 16, 32)  # 1/2/4x
BACKENDS = ("eager", "aot_eager")
GRAPHS = (250, 500, 1000)  # 1/2/4x, ten guards per graph
GUARDS_PER_GRAPH = 10
CHROMIUM = Path("/usr/bin/chromium")
HEAVIEST = 4  # pages opened in the browser per site, the largest first
SITES = WORK / "sites"


def capture_llama(layers: int, backend: str) -> tuple[Path, list[Path]]:
    """The dump and the TORCH_TRACE logs of one run, captured once and cached."""
    name = f"llama{layers}-{backend}"
    dump, trace = WORK / "dumps" / name, WORK / "traces" / name
    if not (dump / "manifest.json").is_file():
        shutil.rmtree(dump, ignore_errors=True)
        shutil.rmtree(trace, ignore_errors=True)
        env = {**os.environ, "TORCH_TRACE": str(trace), "PYTHONPATH": str(REPO)}
        command = [sys.executable, "-m", "depyf_report", "run", "-o", str(dump), "--"]
        start = time.perf_counter()
        subprocess.run(
            [*command, "python", str(PROGRAM), str(layers), backend],
            check=True,
            capture_output=True,
            env=env,
            cwd=REPO,
        )
        print(f"  captured {name} in {time.perf_counter() - start:.0f} s (cached for re-runs)")
    return dump, sorted(trace.glob("*.log"))


def synthetic_dump(graphs: int) -> Path:
    dump = WORK / "dumps" / f"synthetic{graphs}"
    if not (dump / "manifest.json").is_file():
        shutil.rmtree(dump, ignore_errors=True)
        make_dump(dump, graphs=graphs, guards=graphs * GUARDS_PER_GRAPH)
    return dump


def site_figures(site: Path) -> dict:
    files = [p for p in site.rglob("*") if p.is_file()]
    pages = [p for p in files if p.suffix == ".html"]
    data = [p for p in files if p.suffix == ".js" and p.parent == site]
    largest = max(pages, key=lambda p: p.stat().st_size)
    return {
        "bytes": sum(p.stat().st_size for p in files),
        "pages": len(pages),
        "data_files": len(data),
        "largest": largest,
        "largest_data": max((p.stat().st_size for p in data), default=0),
    }


def heaviest_pages(site: Path) -> list[Path]:
    """The largest page of each kind, then the largest pages overall."""
    pages = sorted(site.glob("*.html"), key=lambda p: -p.stat().st_size)
    kinds: dict[str, Path] = {}
    for page in pages:
        name = page.name
        kind = (
            "output code"
            if name.endswith("-code.html")
            else name.split("-")[0].removesuffix(".html")
        )
        kinds.setdefault(kind, page)
    chosen = list(dict.fromkeys([*kinds.values(), *pages[:HEAVIEST]]))
    return chosen


_TIMING = """(() => {
  const n = performance.getEntriesByType('navigation')[0];
  return [document.getElementsByTagName('*').length, n.domContentLoadedEventEnd, n.loadEventEnd];
})()"""


def browse(browser, pages: list[Path]) -> list[tuple[Path, int, float, float] | tuple[Path]]:
    """DOM nodes at load, and the median of three loads: until the page's scripts
    have run (DOMContentLoaded, when it answers input) and until load. A page that
    takes longer than a minute (a 16 MB page of an old version) is given up on."""
    found = []
    for path in pages:
        runs = []
        for _ in range(3):
            page = browser.new_page()
            try:
                page.goto(path.as_uri(), timeout=60_000)
                runs.append(page.evaluate(_TIMING))
            except PlaywrightTimeout:
                break
            finally:
                page.close()
        if len(runs) < 3:
            found.append((path,))
            continue
        runs.sort(key=lambda r: r[1])
        nodes, ready, loaded = runs[1]
        found.append((path, nodes, ready, loaded))
    return found


def tlparse_figures(logs: list[Path], out: Path) -> tuple[float, int] | None:
    tlparse = shutil.which("tlparse", path=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    if not tlparse or not logs:
        return None
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    for log in logs:
        command = [tlparse, str(log), "-o", str(out / log.stem), "--overwrite", "--no-browser"]
        subprocess.run(command, check=True, capture_output=True)
    seconds = time.perf_counter() - start
    return seconds, sum(p.stat().st_size for p in out.rglob("*") if p.is_file())


def measure(name: str, dump: Path, logs: list[Path], browser) -> float:
    site = SITES / name
    shutil.rmtree(site, ignore_errors=True)
    start = time.perf_counter()
    render(dump, site, progress=False)
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    render(dump, site, progress=False)  # the same dump again: nothing to do
    again = time.perf_counter() - start
    f = site_figures(site)
    print(
        f"  {name:22s} render {seconds:6.2f} s (unchanged re-render {again:.2f} s,"
        f" {again / seconds:.1%})   site {_mb(f['bytes'])} in {f['pages']} pages"
        f" + {f['data_files']} data files   largest page {f['largest'].stat().st_size / 1024:.0f} KB"
        f" ({f['largest'].name[:48]}), largest data file {f['largest_data'] / 1024:.0f} KB"
    )
    if browser is not None:
        for path, *timing in browse(browser, heaviest_pages(site)):
            if not timing:
                print(
                    f"      {path.stat().st_size / 1024:6.0f} KB did not load in 60 s  {path.name[:60]}"
                )
                continue
            nodes, ready, loaded = timing
            print(
                f"      {path.stat().st_size / 1024:6.0f} KB {nodes:6d} DOM nodes  "
                f"interactive {ready:5.0f} ms  loaded {loaded:5.0f} ms  {path.name[:60]}"
            )
    tl = tlparse_figures(logs, WORK / "tlparse" / name)
    if logs:
        if tl is None:
            print("      tlparse: not installed (pip install tlparse==0.4.3; for comparison only)")
        else:
            print(f"      tlparse 0.4.3 on the same run's TORCH_TRACE: {tl[0]:.2f} s, {_mb(tl[1])}")
    return seconds


def _mb(size: int) -> str:
    return f"{size / 1e6:6.2f} MB"


def growth(label: str, sizes: tuple[int, ...], seconds: list[float], unit: str) -> None:
    per = ", ".join(f"{s / n * 1000:.0f} ms/{unit} at {n}" for n, s in zip(sizes, seconds))
    print(f"  {label}: {per}; 4x the size took {seconds[-1] / seconds[0]:.2f}x the time")


def open_browser(stack: contextlib.ExitStack):
    if not CHROMIUM.exists():
        print("  (no /usr/bin/chromium: DOM nodes and load times are not measured)")
        return None
    playwright = stack.enter_context(sync_playwright())
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)


FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--capture-only", action="store_true", help="capture and cache, no render")
    parser.add_argument("--no-browser", action="store_true", help="skip DOM and load times")
    parser.add_argument(
        "--only", choices=("llama", "synthetic"), help="one of the two kinds of dump"
    )
    parser.add_argument(
        "--sites",
        type=Path,
        default=WORK / "sites",
        help="where the sites go (default: %(default)s)",
    )
    args = parser.parse_args()
    global SITES
    SITES = args.sites.resolve()
    WORK.mkdir(parents=True, exist_ok=True)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; work in {WORK}")
    captured = {(n, b): capture_llama(n, b) for b in BACKENDS for n in LAYERS}
    if args.capture_only:
        return
    with contextlib.ExitStack() as stack:
        browser = None if args.no_browser else open_browser(stack)
        for backend in BACKENDS if args.only != "synthetic" else ():
            print(f"Llama-style model, {backend}, calls (1, 8), (1, 12), (2, 12): two recompiles")
            times = [
                measure(f"llama{n}-{backend}", *captured[(n, backend)], browser) for n in LAYERS
            ]
            growth("render time", LAYERS, times, "layer")
        if args.only == "llama":
            return
        print(f"synthetic dumps, {GUARDS_PER_GRAPH} guards per graph")
        times = [measure(f"synthetic{g}", synthetic_dump(g), [], browser) for g in GRAPHS]
        growth("render time", GRAPHS, times, "graph")


if __name__ == "__main__":
    main()
