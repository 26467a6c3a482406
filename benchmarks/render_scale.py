"""Pages of real models at scale: a 32-layer Llama-style transformers model and a
synthetic dump of 1,000 graphs and 10,000 guards, each at 1/2/4x, next to tlparse.

    .venv/bin/python benchmarks/render_scale.py [--runs 3] [--capture-only] [--no-browser]

For each dump it prints the median render time of ``--runs`` full renders (each
into an empty site) with the fastest and slowest, how busy the cores were (CPU
seconds of this process and its workers over wall seconds), the serial part
(loading the dump and planning the pages, before the workers start), the wall
time of the same render by the command line (Python's start and imports
included, as tlparse's time includes its own start), the time of
a second render of the same dump into the same site, the site's size, its
largest page, and the DOM nodes and load time of the heaviest pages in headless
Chromium (/usr/bin/chromium through Playwright, as tests/render/test_browser.py
does). Each kind of dump ends with a line per size: the median render time, its
ratio to the 1x size's (linear growth reads 1.00x, 2.00x, 4.00x) and tlparse's
median time on the same run. The Llama model (random weights from a tiny config,
nothing downloaded) is captured under eager and aot_eager with TORCH_TRACE set in
the same run, so tlparse 0.4.3 reads a log of that very run. tlparse is for
comparison only: `pip install tlparse==0.4.3` (into .venv, or any folder on PATH);
without it those columns say so. Captured dumps are cached under
build/render-scale/, so re-runs only render; delete that folder to capture again.
Prints numbers; asserts nothing. To measure another version of render on the same
dumps, run this script with PYTHONPATH pointing at that checkout and --sites at
another folder.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "render"))

from playwright.sync_api import TimeoutError as PlaywrightTimeout  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from synthetic import make_dump  # noqa: E402

from depyf_report.dump import load_dump  # noqa: E402
from depyf_report.render import render  # noqa: E402
from depyf_report.render.plan import plan_pages, process_contexts  # noqa: E402

WORK = REPO / "build" / "render-scale"
PROGRAM = REPO / "benchmarks" / "programs" / "llama_layers.py"
LAYERS = (8, 16, 32)  # 1/2/4x
BACKENDS = ("eager", "aot_eager")
GRAPHS = (250, 500, 1000)  # 1/2/4x, ten guards per graph
GUARDS_PER_GRAPH = 10
CHROMIUM = Path("/usr/bin/chromium")
HEAVIEST = 4  # pages opened in the browser per site, the largest first
SITES = WORK / "sites"
RUNS = 3


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
    """The median time of ``RUNS`` runs of tlparse over the logs, and its output's size."""
    tlparse = shutil.which("tlparse", path=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    if not tlparse or not logs:
        return None
    times = []
    for _ in range(RUNS):
        shutil.rmtree(out, ignore_errors=True)
        start = time.perf_counter()
        for log in logs:
            command = [tlparse, str(log), "-o", str(out / log.stem), "--overwrite", "--no-browser"]
            subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times), sum(p.stat().st_size for p in out.rglob("*") if p.is_file())


@dataclass
class Timing:
    median: float
    fastest: float
    slowest: float
    busy: float  # cores kept busy on average: CPU seconds over wall seconds
    cpu: float  # median CPU seconds of a render, workers included: the work, whatever
    # else the machine runs (wall time on a shared machine is mostly waiting)
    serial: float  # loading and planning, before any worker starts
    command: float  # the command line's wall time: what tlparse's time is, for us
    tlparse: float | None


def cpu_seconds() -> float:
    """CPU time of this process and of the workers it has waited for."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def full_renders(dump: Path, site: Path) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``RUNS`` renders, each into an empty site."""
    times, cpu = [], []
    for _ in range(RUNS):
        shutil.rmtree(site, ignore_errors=True)
        start, used = time.perf_counter(), cpu_seconds()
        render(dump, site, progress=False)
        times.append(time.perf_counter() - start)
        cpu.append(cpu_seconds() - used)
    return times, cpu


def command_renders(dump: Path, site: Path) -> float:
    """The median wall time of ``RUNS`` renders by the command line, each into an
    empty site: Python's start and imports included, as tlparse's time includes its
    own start."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    }
    times = []
    for _ in range(RUNS):
        shutil.rmtree(site, ignore_errors=True)
        start = time.perf_counter()
        command = [sys.executable, "-m", "depyf_report", "render", str(dump), "-o", str(site)]
        command.append("--no-progress")
        subprocess.run(command, check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def serial_part(dump: Path) -> float:
    """Loading and planning, which one core does before the workers start."""
    start = time.perf_counter()
    loaded = load_dump(dump)
    plan_pages(loaded, process_contexts(loaded))
    return time.perf_counter() - start


def measure(name: str, dump: Path, logs: list[Path], browser) -> Timing:
    site = SITES / name
    times, cpu = full_renders(dump, site)
    busy = sum(cpu) / sum(times)
    command = command_renders(dump, site)
    serial = serial_part(dump)
    start = time.perf_counter()
    render(dump, site, progress=False)  # the same dump again: nothing to do
    again = time.perf_counter() - start
    seconds = statistics.median(times)
    f = site_figures(site)
    print(
        f"  {name:22s} render {seconds:6.2f} s (median of {len(times)}: {min(times):.2f}-"
        f"{max(times):.2f} s; CPU {statistics.median(cpu):.2f} s, {busy:.1f} cores busy; serial part {serial:.2f} s;"
        f" unchanged re-render {again:.2f} s, {again / seconds:.1%})"
    )
    print(f"      by the command line, Python's start and imports included: {command:.2f} s")
    print(
        f"      site {_mb(f['bytes'])} in {f['pages']} pages + {f['data_files']} data files"
        f"   largest page {f['largest'].stat().st_size / 1024:.0f} KB"
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
            print(
                f"      tlparse 0.4.3 on the same run's TORCH_TRACE: {tl[0]:.2f} s"
                f" (median of {RUNS}), {_mb(tl[1])}"
            )
    tlparse = tl[0] if tl else None
    return Timing(
        seconds, min(times), max(times), busy, statistics.median(cpu), serial, command, tlparse
    )


def _mb(size: int) -> str:
    return f"{size / 1e6:6.2f} MB"


def growth(label: str, sizes: tuple[int, ...], timings: list[Timing], unit: str) -> None:
    """Render time per size and its ratio to the smallest size's: linear reads 1x, 2x, 4x."""
    wall, cpu = timings[0].median, timings[0].cpu
    print(f"  {label}, median of {RUNS} renders per size (ratio to the {sizes[0]} {unit}s):")
    for n, t in zip(sizes, timings):
        versus = (
            f"; tlparse {t.tlparse:.2f} s, ours {t.median / t.tlparse:.1f}x"
            f" (command line {t.command:.2f} s, {t.command / t.tlparse:.1f}x)"
            if t.tlparse
            else f"; command line {t.command:.2f} s"
        )
        print(
            f"    {n:5d} {unit}s ({n / sizes[0]:.0f}x): wall {t.median:6.2f} s = {t.median / wall:.2f}x,"
            f" CPU {t.cpu:6.2f} s = {t.cpu / cpu:.2f}x, serial part {t.serial:.2f} s{versus}"
        )


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
    parser.add_argument("--backend", choices=BACKENDS, help="the Llama dumps of one backend only")
    parser.add_argument(
        "--runs", type=int, default=3, help="renders per dump, for the median (%(default)s)"
    )
    parser.add_argument(
        "--sites",
        type=Path,
        default=WORK / "sites",
        help="where the sites go (default: %(default)s)",
    )
    args = parser.parse_args()
    global SITES, RUNS
    SITES, RUNS = args.sites.resolve(), max(1, args.runs)
    WORK.mkdir(parents=True, exist_ok=True)
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; work in {WORK}")
    backends = [] if args.only == "synthetic" else [args.backend] if args.backend else BACKENDS
    captured = {(n, b): capture_llama(n, b) for b in backends for n in LAYERS}
    if args.capture_only:
        return
    with contextlib.ExitStack() as stack:
        browser = None if args.no_browser else open_browser(stack)
        for backend in backends:
            print(f"Llama-style model, {backend}, calls (1, 8), (1, 12), (2, 12): two recompiles")
            times = [
                measure(f"llama{n}-{backend}", *captured[(n, backend)], browser) for n in LAYERS
            ]
            growth(f"Llama {backend}", LAYERS, times, "layer")
        if args.only == "llama":
            return
        print(f"synthetic dumps, {GUARDS_PER_GRAPH} guards per graph")
        times = [measure(f"synthetic{g}", synthetic_dump(g), [], browser) for g in GRAPHS]
        growth("synthetic", GRAPHS, times, "graph")


if __name__ == "__main__":
    main()
