"""Dump -> static site. Needs jinja2, pygments and markdown; never torch."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..dump import load_dump
from ..errors import UserError
from ..files import shown_path
from ..terminal import terminal_safe
from . import urls
from .archive import write_zip
from .plan import plan_pages, process_contexts
from .progress import Progress
from .summary import summary_markdown
from .unchanged import dump_digest
from .writer import SiteWriter


def render(dump_dir: Path, site_dir: Path, *, zip: bool = False, progress: bool = True) -> Path:
    """Render the dump at ``dump_dir`` into ``site_dir``; return the index page."""
    dump_dir, site_dir = Path(dump_dir), Path(site_dir)
    _check_site(dump_dir, site_dir)
    digest = dump_digest(dump_dir)
    writer = SiteWriter(site_dir)
    warnings = writer.shows(digest)
    if warnings is not None:  # the site shows this very dump already
        _warn(warnings)
        writer.keep()
        if zip:
            write_zip(writer.site, writer.files())
        return site_dir / urls.INDEX
    dump = load_dump(dump_dir)
    warnings = [str(problem) for problem in dump.problems]
    _warn(warnings)
    contexts = process_contexts(dump)
    plans = plan_pages(dump, contexts)
    site_dir.mkdir(parents=True, exist_ok=True)
    writer.dump = {"digest": digest, "warnings": warnings} if digest else {}
    writer.claim([*writer.asset_paths(), urls.SUMMARY, *(plan.path for plan in plans)])
    writer.write_assets()
    bar = Progress(len(plans), progress)
    try:
        writer.write(plans, bar)
    finally:
        bar.close()
    writer.write_file(urls.SUMMARY, summary_markdown(dump, contexts).encode("utf-8", "replace"))
    writer.finish()
    if zip:
        write_zip(writer.site, writer.files())
    return site_dir / urls.INDEX


def _warn(warnings: list[str]) -> None:
    for warning in warnings:
        print(f"depyf-report: warning: {terminal_safe(warning)}", file=sys.stderr)


def _check_site(dump_dir: Path, site_dir: Path) -> None:
    """Refuse to write into the dump, or over a folder that is not a site of ours."""
    if os.path.lexists(site_dir) and not site_dir.is_dir():
        raise UserError(f"{shown_path(site_dir)}: exists and is not a directory")
    site, dump = site_dir.resolve(), dump_dir.resolve()
    if site == dump or dump in site.parents:
        raise UserError(
            f"{shown_path(site_dir)}: the site must go outside the dump, "
            "so that rendering never changes what it reads"
        )
    if not site.name:
        raise UserError(f"{shown_path(site_dir)}: choose a folder for the site, not the root")
    if site_dir.is_dir() and any(site_dir.iterdir()) and not (site_dir / urls.STATUS).is_file():
        raise UserError(
            f"{shown_path(site_dir)}: folder is not empty and holds no depyf-report site; "
            "choose a new folder so nothing of yours is overwritten"
        )
