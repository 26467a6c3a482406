"""Every page's file name and every link in the site, built in one place.

The site is one flat folder, so a link from any page to any other is just the
other page's file name, which keeps it working from ``file://`` and GitHub Pages.
Records of a second process (a rank, a worker) get that process's prefix.
"""

from __future__ import annotations

import functools
import hashlib
import re

INDEX = "index.html"
SUMMARY = "summary.md"
STATUS = ".depyf-report-status.json"
DIVERGENCE = "divergence.html"  # what the ranks of a distributed run compiled differently

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")
# What slug leaves as it is: safe characters, neither starting nor ending with "-" or ".".
_SLUG = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?")


def slug(text: str) -> str:
    """A file-name-safe form of an id; a hash keeps two ids that clean alike apart."""
    if _SLUG.fullmatch(text):  # most ids and every line number: a page makes thousands
        return text
    clean = _UNSAFE.sub("-", text).strip("-.") or "x"
    if clean == text:
        return clean
    return f"{clean[:60]}-{hashlib.sha1(text.encode()).hexdigest()[:6]}"


def process_prefix(process: str) -> str:
    """The file-name prefix of one process's pages; none for the first process."""
    return f"p-{slug(process)}-" if process else ""


def function_page(process: str, function_id: str) -> str:
    return f"{process_prefix(process)}fn-{slug(function_id)}.html"


def function_story(process: str, function_id: str) -> str:
    """The downloadable Python file with a function's whole story."""
    return f"{process_prefix(process)}fn-{slug(function_id)}.py"


def graph_page(process: str, graph_id: str) -> str:
    return f"{process_prefix(process)}graph-{slug(graph_id)}.html"


def output_page(process: str, graph_id: str, part: str) -> str:
    return f"{process_prefix(process)}graph-{slug(graph_id)}-{slug(part)}-code.html"


def provenance_page(process: str, graph_id: str) -> str:
    return f"{process_prefix(process)}provenance-{slug(graph_id)}.html"


def concept_page(concept: str) -> str:
    return f"concept-{concept}.html"


def divergence_section(function_id: str) -> str:
    """A function's part of the divergence page."""
    return f"{DIVERGENCE}#{anchor('diverged', function_id)}"


def process_section(process: str) -> str:
    """A process's part of the overview."""
    return f"{INDEX}#{process_anchor(process)}"


# --- anchors inside a page -------------------------------------------------------
# Every id and #fragment on every page comes from ``anchor``: its parts are
# slugs, so a record id or a stage kind from a stranger's dump cannot close the
# attribute it lands in, whatever the code that writes the attribute does.


def anchor(*parts: str | int) -> str:
    """An id attribute; stable across renders because it is built from record ids."""
    return "-".join([slug(p if type(p) is str else str(p)) for p in parts if p != ""]) or "x"


def safe_anchor(text: str) -> str:
    """``text`` if it is already an anchor this module could have built, else its slug.

    For code that is handed an anchor and must not trust its caller.
    """
    return text if _ANCHOR.fullmatch(text) else anchor(text)


_ANCHOR = re.compile(r"[A-Za-z0-9_.-]+")


def process_anchor(process: str) -> str:
    return anchor("process", process or "main")


def source_line(line: int) -> str:
    """The anchor of a line of the function's original source."""
    return anchor(f"L{line}")


@functools.lru_cache(maxsize=1 << 17)  # a provenance mapping names each line many times
def line_anchor(block: str, line: int) -> str:
    """The anchor of a line of a block of code that has its own anchor."""
    return anchor(block, f"L{line}")


def resume_code_line(line: int) -> str:
    """A line of a resume function's own decompiled code."""
    return anchor(f"R{line}")


def entry_anchor(index: int) -> str:
    return anchor("entry", index)


def entry_line(index: int, part: str, line: int) -> str:
    """A line of a cache entry's guards ("g") or transformed code ("t")."""
    return anchor("entry", index, f"{part}{line}")


def compile_anchor(compile_id: str) -> str:
    return anchor("compile", compile_id)


def stage_anchor(kind: str) -> str:
    return anchor("stage", kind)


def kernel_anchor(name: str) -> str:
    return anchor("kernel", name)


def fragment(anchor_text: str) -> str:
    """A link to an anchor on the same page."""
    return f"#{safe_anchor(anchor_text)}"


def with_anchor(page: str, fragment_text: str) -> str:
    return f"{page}#{safe_anchor(fragment_text)}"


# --- links out of the site ---------------------------------------------------------
# The only links built from dump text: the graph-break and troubleshooting pages
# torch names. Anything else a reason holds is shown as text.
_TORCH_DOCS = re.compile(
    r"https://(?:(?:[a-z0-9-]+\.)*pytorch\.org/"
    r"|github\.com/pytorch/"
    r"|meta-pytorch\.github\.io/compile-graph-break-site/)"
    r"[A-Za-z0-9_./#%~+-]*"
)


def torch_doc(url: str | None) -> str | None:
    """``url`` if it is an https page of pytorch.org, github.com/pytorch or torch's
    graph-break site, in a plain alphabet (no quotes, spaces or query); else None."""
    if not url or len(url) > 300 or not _TORCH_DOCS.fullmatch(url):
        return None
    return url
