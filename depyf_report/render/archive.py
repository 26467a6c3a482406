"""SITE.zip: the site as one file to attach to a bug ticket."""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

from ..files import read_regular, replacing

# The same site gives the same archive, byte for byte: fixed times and modes.
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def write_zip(site_dir: Path, files: list[str]) -> Path:
    """SITE.zip beside SITE, with ``files`` (the site render wrote) under one top
    folder, for a bug ticket."""
    site = site_dir.resolve()
    archive = site.with_name(site.name + ".zip")
    with replacing(archive) as raw, zipfile.ZipFile(raw, "w") as out:
        for path in sorted(files):
            info = zipfile.ZipInfo(f"{site.name}/{path}", _ZIP_TIME)
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            info.create_system = 3  # Unix, whatever system made it, for the modes
            info.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(info, read_regular(site / path))
    return archive
