"""Dump -> static site. Needs jinja2, pygments and markdown; never torch."""

from pathlib import Path


def render(dump_dir: Path, site_dir: Path, *, zip: bool = False, progress: bool = True) -> Path:
    """Render the dump at ``dump_dir`` into ``site_dir``; return the index page."""
    raise NotImplementedError("render is being written")
