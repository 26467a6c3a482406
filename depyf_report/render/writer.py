"""Writes planned pages into the site folder, skipping those whose inputs are unchanged.

The status file records the format, the tool version, a hash of the templates
and a hash per page input, as coverage.py's HTML report does; when any of the
first three differ, every page is written again.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
from collections.abc import Iterator
from pathlib import Path

import jinja2

from .._version import __version__
from ..resources import templates
from . import urls
from .assets import Asset, site_assets, templates_digest
from .plan import PagePlan
from .progress import Progress

STATUS_FORMAT = 1


def environment() -> jinja2.Environment:
    root = templates()
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(lambda name: root.joinpath(name).read_text(encoding="utf-8")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["concept_url"] = urls.concept_page
    env.globals["INDEX"] = urls.INDEX
    return env


class SiteWriter:
    def __init__(self, site: Path):
        self.site = site
        self.env = environment()
        self.assets = site_assets()
        self.config = templates_digest() + _render_code_digest()
        old = _read_status(site / urls.STATUS)
        same = old.get("format") == STATUS_FORMAT and old.get("tool") == __version__
        same = same and old.get("config") == self.config
        self.previous: dict[str, str] = (
            old.get("pages", {}) if isinstance(old.get("pages"), dict) else {}
        )
        self.old_pages = self.previous if same else {}
        self.pages: dict[str, str] = {}
        self.written: list[str] = []
        self.skipped: list[str] = []

    def write_assets(self) -> None:
        for asset in self.assets.values():
            _write_if_changed(self.site / asset.path, asset.content)
        _write_if_changed(self.site / ".nojekyll", b"")
        # Assets of an earlier version carry another hash in their name: drop them.
        current = {self.site / a.path for a in self.assets.values()}
        for old in (self.site / "static").glob("*-*.*"):
            if old not in current and old.name.startswith(("site-", "pygments-")):
                old.unlink()

    def write(self, plans: list[PagePlan], progress: Progress) -> None:
        todo = []
        for plan in plans:
            self.pages[plan.path] = plan.inputs
            if self.old_pages.get(plan.path) == plan.inputs and (self.site / plan.path).exists():
                self.skipped.append(plan.path)
                progress.step(plan.path)
            else:
                todo.append(plan)
        for path in _in_workers(self, todo):
            self.written.append(path)
            progress.step(path)

    def write_page(self, plan: PagePlan) -> str:
        _write_if_changed(self.site / plan.path, self._render(plan.build()).encode("utf-8"))
        return plan.path

    def _render(self, view) -> str:
        if isinstance(view, str):
            return view
        template = self.env.get_template(view.template)
        return template.render(page=view, assets=_asset_paths(self.assets))

    def finish(self) -> None:
        # Pages an earlier render wrote for records that are gone now; only files
        # the status file lists are removed, never anything else in the folder.
        for path in set(self.previous) - set(self.pages):
            target = (self.site / path).resolve()
            if target.parent == self.site.resolve() and target.is_file():
                target.unlink()
        status = {
            "format": STATUS_FORMAT,
            "tool": __version__,
            "config": self.config,
            "pages": dict(sorted(self.pages.items())),
        }
        (self.site / urls.STATUS).write_text(json.dumps(status, indent=1), encoding="utf-8")


# Pages are independent, so big sites are written by forked workers, one per
# core; fork shares the loaded dump with them and needs nothing pickled.
_JOB: tuple[SiteWriter, list[PagePlan]] | None = None
PARALLEL_FROM = 200  # pages; below this, starting workers costs more than it saves


def _in_workers(writer: SiteWriter, plans: list[PagePlan]) -> Iterator[str]:
    global _JOB
    cores = min(os.cpu_count() or 1, 8)
    if cores < 2 or len(plans) < PARALLEL_FROM or "fork" not in mp.get_all_start_methods():
        yield from (writer.write_page(plan) for plan in plans)
        return
    _JOB = (writer, plans)
    chunks = [range(i, min(i + 25, len(plans))) for i in range(0, len(plans), 25)]
    try:
        with mp.get_context("fork").Pool(cores) as pool:
            for paths in pool.imap_unordered(_write_chunk, chunks):
                yield from paths
    finally:
        _JOB = None


def _write_chunk(indices: range) -> list[str]:
    writer, plans = _JOB
    return [writer.write_page(plans[i]) for i in indices]


def _asset_paths(assets: dict[str, Asset]) -> dict[str, str]:
    return {role: asset.path for role, asset in assets.items()}


def _read_status(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _write_if_changed(path: Path, content: bytes) -> None:
    if path.exists() and path.read_bytes() == content:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)


def _render_code_digest() -> str:
    """Render's own source is part of the config: a new version rewrites every page."""
    import hashlib

    h = hashlib.sha1()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()[:16]
