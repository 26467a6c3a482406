"""Writes planned pages into the site folder, skipping those whose inputs are unchanged.

The status file records the format, the tool version, a hash of the templates
and a hash per page input, as coverage.py's HTML report does; when any of the
first three differ, every page is written again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import multiprocessing as mp
import os
import re
from collections.abc import Iterator
from pathlib import Path

import jinja2

from .._version import __version__
from ..errors import UserError
from ..files import is_folder, is_regular, read_regular, replacing, shown_path
from ..resources import templates
from . import urls
from .assets import Asset, site_assets, templates_digest
from .deferred import PART_NAME, SHARED_NAME, PageParts
from .plan import PagePlan
from .progress import Progress

STATUS_FORMAT = 2


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
    """Writes the site's files, and never any file that is not its own.

    The status file lists every file render wrote (path -> hash of its inputs).
    Only those are ever replaced or removed; a file is replaced by renaming a new
    one over it, so a link in the site is replaced, never written through.
    """

    def __init__(self, site: Path):
        self.site = site.resolve()  # the user may name the site through a link
        self.env = environment()
        self.assets = site_assets()
        self.config = templates_digest() + _render_code_digest()
        old = _read_status(site / urls.STATUS)
        # A site of an older format lists its pages only; what it wrote beside
        # them is unknown, so anything at the paths planned now counts as its own.
        self.previous: dict[str, str] | None = _owned(old)
        same = old.get("format") == STATUS_FORMAT and old.get("tool") == __version__
        self.old_pages = self.previous if same and old.get("config") == self.config else {}
        # The dump this site shows (unchanged.py) and the warnings its loading gave.
        self._old_dump = old.get("dump") if self.old_pages else None
        # The shared data files (deferred.SHARED_NAME) each page names, kept with a
        # page that is not written again.
        self.old_uses = _uses(old) if self.old_pages else {}
        self.uses: dict[str, list[str]] = {}
        self.dump: dict = {}
        self.pages: dict[str, str] = {}
        self.written: list[str] = []
        self.skipped: list[str] = []

    def shows(self, dump_digest: str | None) -> list[str] | None:
        """The warnings of the earlier render, where it rendered this very dump with
        this tool and these templates, and left every file in place; else None."""
        old = self._old_dump
        if dump_digest is None or not isinstance(old, dict) or old.get("digest") != dump_digest:
            return None
        warnings = old.get("warnings")
        if not isinstance(warnings, list) or not all(isinstance(w, str) for w in warnings):
            return None
        folders = {(self.site / p).parent for p in self.old_pages if "/" in p}
        if not all(is_folder(folder) for folder in folders):
            return None  # a folder replaced by a link: the full render refuses it
        if not all(is_regular(self.site / path) for path in self.old_pages):
            return None
        return warnings

    def keep(self) -> None:
        """Leave the site as it is: every file the status file lists is this render's."""
        self.pages = dict(self.old_pages)
        self.uses = dict(self.old_uses)
        self.skipped = [p for p in self.pages if p.endswith(".html")]

    def claim(self, paths: list[str]) -> None:
        """Before writing anything, check that every path is render's own, and
        record them all, so an interrupted render leaves a site render can replace."""
        if self.previous is not None:
            theirs = [p for p in paths if p not in self.previous and os.path.lexists(self.site / p)]
            if theirs:
                raise UserError(
                    f"{shown_path(self.site / theirs[0])}: exists and was not written by "
                    "depyf-report; move it, or choose another folder for the site"
                )
        for folder in {(self.site / p).parent for p in paths if "/" in p}:
            _real_folder(folder)
        claimed = {**(self.previous or {}), **dict.fromkeys(paths, "")}
        self._write_status(claimed)

    def asset_paths(self) -> list[str]:
        return [*(asset.path for asset in self.assets.values()), ".nojekyll"]

    def write_assets(self) -> None:
        for asset in self.assets.values():
            self.write_file(asset.path, asset.content)
        self.write_file(".nojekyll", b"")

    def write_file(self, path: str, content: bytes) -> None:
        """A file that is not a page: its content is its input."""
        self.pages[path] = hashlib.sha1(content).hexdigest()
        _write_if_changed(self.site / path, content)

    def write(self, plans: list[PagePlan], progress: Progress) -> None:
        todo = []
        data_files = _data_files_by_page(self.old_pages)
        for plan in plans:
            self.pages[plan.path] = plan.inputs
            if self.old_pages.get(plan.path) == plan.inputs and is_regular(self.site / plan.path):
                self.skipped.append(plan.path)
                self.pages.update(dict.fromkeys(data_files.get(plan.path, ()), plan.inputs))
                if plan.path in self.old_uses:
                    self.uses[plan.path] = self.old_uses[plan.path]
                    self.pages.update(dict.fromkeys(self.old_uses[plan.path], plan.inputs))
                progress.step(plan.path)
            else:
                todo.append(plan)
        inputs = {plan.path: plan.inputs for plan in todo}
        for path, data in _in_workers(self, todo):
            self.written.append(path)
            self.pages.update(dict.fromkeys(data, inputs[path]))
            shared = sorted(d for d in data if SHARED_NAME.fullmatch(d))
            if shared:
                self.uses[path] = shared
            progress.step(path)

    def write_page(self, plan: PagePlan) -> tuple[str, list[str]]:
        """Write one page and its data files (deferred.py); their paths."""
        parts = PageParts(plan.path)
        _write_if_changed(self.site / plan.path, _encode(self._render(plan.build(), parts)))
        files = parts.files
        for data in files:
            if SHARED_NAME.fullmatch(data.path) and _holds(self.site / data.path, data.content):
                continue  # another page of the site wrote it, now or before
            self._check_own(data.path, data.content)
            _write_if_changed(self.site / data.path, data.content)
        return plan.path, [data.path for data in files]

    def _check_own(self, path: str, content: bytes = b"") -> None:
        """A data file's name is known only once its page is built: checked then,
        as claim checks the pages, so a file render did not write is never replaced."""
        previous = self.previous
        if previous is not None and path not in previous and os.path.lexists(self.site / path):
            if SHARED_NAME.fullmatch(path) and _holds(self.site / path, content):
                return  # written by another page's worker since the caller looked
            raise UserError(
                f"{shown_path(self.site / path)}: exists and was not written by "
                "depyf-report; move it, or choose another folder for the site"
            )

    def _render(self, view, parts: PageParts) -> str:
        if isinstance(view, str):
            return view
        template = self.env.get_template(view.template)
        return template.render(page=view, assets=_asset_paths(self.assets), parts=parts)

    def finish(self) -> None:
        # Files an earlier render wrote for records that are gone now; only files
        # the status file lists are removed, never anything else in the folder.
        for path in set(self.previous or {}) - set(self.pages):
            if _is_own_path(path):
                with contextlib.suppress(OSError):
                    (self.site / path).unlink()
        # The dump is recorded last: a render cut short leaves a site that the
        # next render of the same dump writes again.
        self._write_status(self.pages, self.dump)

    def files(self) -> list[str]:
        """Every file of the site as this render left it, in a fixed order."""
        return sorted(self.pages)

    def _write_status(self, files: dict[str, str], dump: dict | None = None) -> None:
        status = {
            "format": STATUS_FORMAT,
            "tool": __version__,
            "config": self.config,
            **({"dump": dump} if dump else {}),
            "files": dict(sorted(files.items())),
            **({"uses": dict(sorted(self.uses.items()))} if self.uses else {}),
        }
        _replace(self.site / urls.STATUS, json.dumps(status, indent=1).encode())


def _data_files_by_page(files: dict[str, str]) -> dict[str, list[str]]:
    """The data files an earlier render wrote for each page, by their names."""
    found: dict[str, list[str]] = {}
    for path in files:
        match = PART_NAME.fullmatch(path)
        if match:
            found.setdefault(f"{match['page']}.html", []).append(path)
    return found


def _uses(status: dict) -> dict[str, list[str]]:
    """Each page -> the shared data files it names, as the status file lists them."""
    uses = status.get("uses")
    if not isinstance(uses, dict):
        return {}
    return {
        page: [f for f in files if isinstance(f, str) and SHARED_NAME.fullmatch(f)]
        for page, files in uses.items()
        if isinstance(page, str) and isinstance(files, list)
    }


def _holds(path: Path, content: bytes) -> bool:
    try:
        return read_regular(path) == content
    except OSError:
        return False


def site_files(site: Path) -> list[str]:
    """The files render wrote into ``site``, as its status file lists them."""
    return sorted(_owned(_read_status(site / urls.STATUS)) or {})


def _owned(status: dict) -> dict[str, str] | None:
    """The files an earlier render wrote, by its status file; None if not known."""
    files = status.get("files") if status.get("format") == STATUS_FORMAT else None
    if not isinstance(files, dict):
        return None
    return {p: h for p, h in files.items() if _is_own_path(p) and isinstance(h, str)}


# Render names every file it writes from this alphabet, one folder deep at most,
# so a path from a status file someone edited can never point out of the site.
_OWN_PATH = re.compile(r"(?:static/)?[A-Za-z0-9_.-]+")


def _is_own_path(path: str) -> bool:
    return bool(_OWN_PATH.fullmatch(path)) and path.split("/")[-1] not in (".", "..")


# Pages are independent, so big sites are written by forked workers, one per
# core; fork shares the loaded dump with them and needs nothing pickled.
_JOB: tuple[SiteWriter, list[PagePlan]] | None = None
# Below this much page input (bytes of records), starting workers costs more
# than it saves: the test suite's small dumps are written in this process.
PARALLEL_FROM = 2_000_000
CHUNKS_PER_CORE = 16  # small enough that the cores finish together


def _in_workers(writer: SiteWriter, plans: list[PagePlan]) -> Iterator[tuple[str, list[str]]]:
    global _JOB
    cores = min(os.cpu_count() or 1, 8)
    total = sum(plan.weight for plan in plans)
    parallel = cores > 1 and len(plans) > 1 and total >= PARALLEL_FROM
    if not parallel or "fork" not in mp.get_all_start_methods():
        yield from (writer.write_page(plan) for plan in plans)
        return
    _JOB = (writer, plans)
    try:
        with mp.get_context("fork").Pool(cores) as pool:
            chunks = work_chunks([plan.weight for plan in plans], total / cores / CHUNKS_PER_CORE)
            for paths in pool.imap_unordered(_write_chunk, chunks):
                yield from paths
    finally:
        _JOB = None


def work_chunks(weights: list[int], share: float) -> list[list[int]]:
    """Indexes of the pages in chunks for the workers. Pages heavier than ``share``
    come first, the heaviest first, each alone: a worker that took the largest page
    last would keep the others waiting for it. The others follow in chunks of about
    ``share``, in the planned order, which keeps a graph's pages together, so a
    worker finds the listings and provenance they share in its caches."""
    heavy = sorted((i for i, w in enumerate(weights) if w >= share), key=lambda i: -weights[i])
    chunks: list[list[int]] = [[i] for i in heavy]
    light: list[int] = []
    load = 0
    for index, weight in enumerate(weights):
        if weight >= share:
            continue
        light.append(index)
        load += weight
        if load >= share:
            chunks.append(light)
            light, load = [], 0
    return chunks + ([light] if light else [])


def _write_chunk(indices: list[int]) -> list[tuple[str, list[str]]]:
    writer, plans = _JOB
    return [writer.write_page(plans[i]) for i in indices]


def _asset_paths(assets: dict[str, Asset]) -> dict[str, str]:
    return {role: asset.path for role, asset in assets.items()}


def _read_status(path: Path) -> dict:
    try:
        data = json.loads(read_regular(path))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _encode(page: str) -> bytes:
    return page.encode("utf-8", "replace")


def _write_if_changed(path: Path, content: bytes) -> None:
    with contextlib.suppress(OSError):
        if read_regular(path) == content:
            return
    _replace(path, content)


def _replace(path: Path, content: bytes) -> None:
    _real_folder(path.parent)
    with replacing(path) as out:
        out.write(content)


def _real_folder(folder: Path) -> None:
    """``folder``, made if missing; a link there is refused, as writing into it
    would write wherever it points."""
    if os.path.islink(folder):
        raise UserError(f"{shown_path(folder)}: is a link; depyf-report writes no file through one")
    folder.mkdir(parents=True, exist_ok=True)


def _render_code_digest() -> str:
    """Render's own source is part of the config: a new version rewrites every page."""
    h = hashlib.sha1()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()[:16]
