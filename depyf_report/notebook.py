"""The report in Jupyter: an object that displays inline, and ``show(fn)``.

    with depyf_report.capture("dump/") as report:
        train()
    report                      # the overview's numbers, breaks, recompiles, and the site

    depyf_report.load("dump/")  # the same for a dump made earlier
    depyf_report.show(fn)       # what torch's cache holds for fn, no capture needed

``show`` lives in capture (``capture/cached.py``), which alone reads torch; this
module holds what displays. Displaying a report renders the dump into a site beside it ("dump-site/") and shows
that site in the output cell as one self-contained document (``render/bundle.py``):
nothing to install, no server of ours, no file route.

Render (jinja2, pygments) is imported when something is displayed, as the command
line imports it per command, so that ``import depyf_report`` stays light.
"""

from __future__ import annotations

import os
from pathlib import Path

from .dump import load_dump, require_dump
from .errors import UserError
from .files import shown_path
from .terminal import terminal_safe

SITE_SUFFIX = "-site"


class Report:
    """A dump on disk that shows itself in a notebook.

    It stands for the dump's folder wherever a path is expected (``Path(report)``,
    ``report / "manifest.json"``, ``report == Path("dump")``), as ``capture`` gave
    the folder before it gave a report.
    """

    def __init__(self, dump_dir, site_dir=None) -> None:
        self.path = Path(dump_dir)
        self.site = Path(site_dir) if site_dir is not None else default_site(self.path)

    def render(self) -> Path:
        """Write (or bring up to date) the site; return its index page."""
        from .render import render  # jinja2 and pygments: only when a report is shown

        return render(self.path, self.site, progress=False)

    def _repr_html_(self) -> str:
        from .render.bundle import site_bundle
        from .render.notebook import report_html

        try:
            self.render()
            folder = _shown_folder(self.site)
            return report_html(load_dump(self.path), folder, site_bundle(self.site, folder))
        except UserError as error:
            return _error_html(str(error))

    def __repr__(self) -> str:
        return f"<depyf-report of {shown_path(self.path)}: site {shown_path(self.site)}>"

    # --- the dump's folder, as capture gave it before ---------------------------

    def __fspath__(self) -> str:
        return os.fspath(self.path)

    def __truediv__(self, other) -> Path:
        return self.path / other

    def __eq__(self, other) -> bool:
        if isinstance(other, Report):
            return self.path == other.path
        if isinstance(other, str | os.PathLike):
            return self.path == Path(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.path)


class CachedCode:
    """What torch's cache holds for one function, shown in a notebook."""

    def __init__(self, functions) -> None:
        self.functions = functions  # dump ``Function`` records, the function first

    def _repr_html_(self) -> str:
        from .render.notebook import cache_html

        return cache_html(self.functions)

    def __repr__(self) -> str:
        """The same, as text, for a terminal or a frontend that shows no HTML."""
        lines = []
        for fn in self.functions:
            lines.append(terminal_safe(f"{fn.qualname} ({fn.filename}:{fn.first_line})"))
            for entry in fn.entries:
                guards = len(entry.guards.guards)
                lines.append(terminal_safe(f"  cache entry {entry.compile_id}: {guards} guards"))
                code = entry.code.decompiled or f"(not decompiled: {entry.code.decompile_error})"
                lines += [f"    {terminal_safe(line)}" for line in code.splitlines()]
        return "\n".join(lines)


def load(dump_dir, site_dir=None) -> Report:
    """A dump written earlier, to display in a notebook (``site_dir``: where to render)."""
    path = Path(dump_dir)
    require_dump(path)
    return Report(path, site_dir)


def default_site(dump_dir: Path) -> Path:
    """``dump/`` renders into ``dump-site/`` beside it (never inside: render refuses)."""
    name = dump_dir.resolve().name or "dump"
    return dump_dir.parent / f"{name}{SITE_SUFFIX}"


def _shown_folder(site: Path) -> str:
    """The site's folder as the notebook's user knows it: relative to the notebook's
    folder (the kernel's) when it is inside it."""
    try:
        relative = os.path.relpath(site, Path.cwd())
    except ValueError:  # another drive, on Windows
        return shown_path(site)
    return shown_path(site if relative.startswith("..") else relative)


def _error_html(message: str) -> str:
    escaped = message.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f'<p class="depyf-report-error">depyf-report: error: {escaped}</p>'
