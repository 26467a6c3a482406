"""Whether a site already shows this very dump: then a re-render has nothing to do.

Render reads nothing but the dump, so a hash of the dump's files, kept in the
site's status file beside the tool version and the templates' hash (writer.py),
says whether any page could differ. Hashing a dump is a few hundredths of a
second; loading and planning it is most of a re-render.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from ..files import is_folder, read_regular


def dump_digest(dump_dir: Path) -> str | None:
    """A hash of every file of the dump, names included; None where the dump holds
    anything but folders and regular files (the loader then says what is wrong)."""
    if not is_folder(dump_dir):
        return None
    h = hashlib.sha1()
    for folder, folders, files in os.walk(dump_dir):
        folders.sort()
        for name in sorted(files):
            path = Path(folder, name)
            try:
                content = read_regular(path)
            except OSError:
                return None
            relative = path.relative_to(dump_dir).as_posix().encode("utf-8", "surrogateescape")
            h.update(b"%d:%s%d:" % (len(relative), relative, len(content)))
            h.update(content)
        if any(not is_folder(Path(folder, name)) for name in folders):
            return None  # a link to a folder: os.walk does not follow it, the loader might
    return h.hexdigest()
