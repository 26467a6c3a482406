"""Dump -> static site. Needs jinja2, pygments and markdown; never torch."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

from ..dump import load_dump
from ..errors import UserError
from . import urls


def render(dump_dir: Path, site_dir: Path, *, zip: bool = False, progress: bool = True) -> Path:
    """Render the dump at ``dump_dir`` into ``site_dir``; return the index page."""
    from .plan import plan_pages, process_contexts
    from .progress import Progress
    from .summary import summary_markdown
    from .writer import SiteWriter

    dump_dir, site_dir = Path(dump_dir), Path(site_dir)
    dump = load_dump(dump_dir)
    _check_site(dump_dir, site_dir)
    for problem in dump.problems:
        print(f"depyf-report: warning: {problem}", file=sys.stderr)
    contexts = process_contexts(dump)
    plans = plan_pages(dump, contexts)
    site_dir.mkdir(parents=True, exist_ok=True)
    writer = SiteWriter(site_dir)
    writer.write_assets()
    bar = Progress(len(plans), progress)
    try:
        writer.write(plans, bar)
    finally:
        bar.close()
    (site_dir / urls.SUMMARY).write_text(summary_markdown(dump, contexts), encoding="utf-8")
    writer.finish()
    if zip:
        write_zip(site_dir)
    return site_dir / urls.INDEX


def _check_site(dump_dir: Path, site_dir: Path) -> None:
    """Refuse to write into the dump, or over a folder that is not a site of ours."""
    if site_dir.exists() and not site_dir.is_dir():
        raise UserError(f"{site_dir}: exists and is not a directory")
    if site_dir.resolve() == dump_dir.resolve():
        raise UserError(f"{site_dir}: the site must go to another folder than the dump")
    if site_dir.is_dir() and any(site_dir.iterdir()) and not (site_dir / urls.STATUS).exists():
        raise UserError(
            f"{site_dir}: folder is not empty and holds no depyf-report site; "
            "choose a new folder so nothing of yours is overwritten"
        )


def write_zip(site_dir: Path) -> Path:
    """SITE.zip beside SITE, with the site under one top folder, for a bug ticket."""
    archive = site_dir.with_name(site_dir.name + ".zip")
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for path in sorted(site_dir.rglob("*")):
            if path.is_file() and path.name != urls.STATUS:
                out.write(path, Path(site_dir.name) / path.relative_to(site_dir))
    return archive
