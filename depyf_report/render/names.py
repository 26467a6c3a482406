"""How pages show the names Dynamo makes up for the graphs it extracts.

Dynamo calls each graph through a global named ``__compiled_fn_<n>_<uuid>``
(torch 2.13; the uuid, dashes written as underscores, keeps names of different
processes apart). Pages show ``__compiled_fn_<n>``; the whole name stays in a
tooltip (``title``) and in the search index, and links go where they went.

Display only: the dump, the story file (Python a reader may compile, whose code
reads the real global) and any code that runs, such as the debugger's, keep the
real name.
"""

from __future__ import annotations

import re

from .views import Link

# What every such name starts with; highlight.py tests it before the pattern.
COMPILED_FN = "__compiled_fn_"
_COMPILED_FN = re.compile(
    r"(__compiled_fn_\d{1,18})_[0-9a-f]{8}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{4}_[0-9a-f]{12}"
)


def short_name(name: str) -> str:
    """``__compiled_fn_1`` for ``__compiled_fn_1_<uuid>``; any other name as it is.

    Only a whole name of exactly that form is shortened, so two names a page shows
    alike differ only in their uuid, which the tooltip shows.
    """
    if not name.startswith(COMPILED_FN):
        return name
    match = _COMPILED_FN.fullmatch(name)
    return match[1] if match else name


def name_link(name: str, href: str | None) -> Link:
    """A link showing ``short_name(name)``, with the whole name as its tooltip when
    the two differ."""
    shown = short_name(name)
    return Link(shown, href, name if shown != name else "")
