"""Heavy parts of a page, moved into data files the page loads only when asked.

A page of a large model would otherwise hold megabytes of guards and code. The
page keeps what a reader looks at first (the first lines of each listing, the
first levels of each guard tree) and a placeholder for the rest; the rest goes
into ``<page>.<n>.js`` beside it, a script that hands its data to
``depyfPart(name, data)`` in site.js. Browsers refuse ``fetch`` of local files,
but a ``<script src>`` added on demand loads from ``file://`` too.

The data is JSON with every non-ASCII character escaped: JSON quotes every
string, so no text from a dump can end its string; and as a script file of its
own, no ``</script>`` in it can end anything.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup, escape

from .guard_tree import shown_lines
from .views import CodeLine, GuardTree, Link, RegionView, Row, Table

# DOM nodes the listings, guard trees and tables of one page may make at load, all
# together, and one listing or tree at most: the rest of a page takes a few hundred,
# so every page stays under 3,000 nodes whatever the model. A highlighted line is
# ten to thirty nodes.
PAGE_NODES = 1500
LISTING_NODES = 700
GUARD_NODES = 350
LISTING_LINES = 60
CHUNK_LINES = 400  # lines per data file of a long listing
TABLE_ROWS = 25  # rows a table shows at load, at most
TABLE_NODES = 100
CHUNK_ROWS = 500
CHARTS = 4  # flowcharts the overview shows at load


@dataclass(frozen=True)
class DataFile:
    path: str  # beside the page, named after it
    content: bytes


def nodes(html: str) -> int:
    """The elements a piece of our own markup makes: its start tags."""
    return html.count("<") - html.count("</")


def row_nodes(line: CodeLine) -> int:
    """``nodes(line.row)``, without drawing a row the page may never show: the
    row's div, number and source, and one node a mark."""
    return 3 + nodes(line.html) + len(line.marks)


def part_path(page: str, number: int) -> str:
    """``fn-f0.html`` -> ``fn-f0.3.js``: the data file stays next to its page."""
    return f"{page.removesuffix('.html')}.{number}.js"


# Data files of a page, as part_path names them; the writer keeps them with their page.
PART_NAME = re.compile(r"(?P<page>.+)\.(?P<number>\d{1,6})\.js")


def shared_path(digest: str) -> str:
    """A data file several pages may load, named by a hash of its content."""
    return f"listing-{digest}.js"


# Data files named by their content (shared_path); the writer keeps each with the
# pages that name it.
SHARED_NAME = re.compile(r"listing-[0-9a-f]{20}\.js")


def script(name: str, data) -> bytes:
    """A data file: one call that hands ``data`` to the page. JSON quotes every
    string, so no text in it can end the string; ASCII only, as a file read from
    disk has no charset of its own."""
    text = json.dumps([name, data], ensure_ascii=True, separators=(",", ":"))
    return f"depyfPart({text[1:-1]});\n".encode("ascii")


def _ascii(text: str) -> str:
    """JSON text with every non-ASCII character as a ``\\u`` escape (UTF-16, as JSON
    and JavaScript read them): a data file has no charset of its own."""
    return _NON_ASCII.sub(lambda m: _utf16_escape(m[0]), text)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _utf16_escape(char: str) -> str:
    units = char.encode("utf-16-be", "surrogatepass")
    return "".join(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))


class PageParts:
    """Collects one page's deferred parts while its template renders.

    Templates call ``code``, ``guards``, ``rows`` and ``later``; each returns the
    markup the page keeps and files away the rest. ``files`` is what to write.
    """

    def __init__(self, page: str):
        self.page = page
        self._files: list[DataFile] = []
        self.nodes_left = PAGE_NODES
        # The page's guard trees share one data file: each distinct line once, and
        # each tree as (depth, line) pairs. A function's cache entries differ in a
        # few checks, so three trees of 10,000 lines are about one tree's bytes.
        self._guard_file: int | None = None  # its place in _files, kept for it
        self._guard_lines: dict[str, int] = {}  # a line's data as JSON -> its number
        self._guard_trees: list[list[int]] = []
        self._shared_paths: set[str] = set()

    @property
    def files(self) -> list[DataFile]:
        """The page's data files, to write once its template has rendered."""
        files = list(self._files)
        if self._guard_file is not None:
            path = files[self._guard_file].path
            lines = [json.loads(line) for line in self._guard_lines]
            files[self._guard_file] = DataFile(
                path, script(path, {"lines": lines, "trees": self._guard_trees})
            )
        return files

    def _file(self, data) -> str:
        path = part_path(self.page, len(self._files) + 1)
        self._files.append(DataFile(path, script(path, data)))
        return path

    def json(self, text: Markup) -> str:
        """A data file of JSON already written safe for a script (the search index,
        a provenance page's mapping)."""
        path = part_path(self.page, len(self._files) + 1)
        content = f"depyfPart({json.dumps(path)},{_ascii(text)});\n".encode("ascii")
        self._files.append(DataFile(path, content))
        return path

    def _guard_tree(self, tree: GuardTree) -> tuple[str, int]:
        """Files a tree's lines in the page's guard data file: its path, the tree's number."""
        if self._guard_file is None:
            self._guard_file = len(self._files)
            self._file(None)  # its content is known once every tree is in
        flat: list[int] = []
        for depth, line in zip(tree.depths, tree.lines):
            key = json.dumps(_guard_data(line), separators=(",", ":"))
            flat += (depth, self._guard_lines.setdefault(key, len(self._guard_lines)))
        self._guard_trees.append(flat)
        return self._files[self._guard_file].path, len(self._guard_trees) - 1

    def code(self, lines: Sequence[CodeLine], label: str = "") -> Markup:
        """A listing: its first lines, then a button per chunk of the rest."""
        aria = f' aria-label="{escape(label)}"' if label else ""
        rows = self._listing(lines, min(LISTING_NODES, self.nodes_left))
        return Markup(f'<div class="code"{aria}>\n{rows}</div>')

    def pane(self, regions: Sequence[RegionView], share: int) -> Markup:
        """A provenance pane: each region's name and lines, within the pane's
        ``share`` of the page's nodes; the rest of each region in chunks."""
        out = ['<div class="code pane-code">\n']
        budget = min(share, self.nodes_left)
        for region in regions:
            if region.label:
                out.append(f'<p class="region-name">{escape(region.label)}</p>\n')
            before = self.nodes_left
            out.append(self._listing(region.lines, budget))
            budget = max(0, budget - (before - self.nodes_left))
        out.append("</div>")
        return Markup("".join(out))

    def _listing(self, lines: Sequence[CodeLine], budget: int) -> str:
        shown = 0
        for line in lines[:LISTING_LINES]:
            if nodes(line.row) > budget:
                break
            budget -= nodes(line.row)
            shown += 1
        if len(lines) - shown <= 3 and len(lines) <= LISTING_LINES:
            shown = len(lines)  # a button to show a few lines is not worth it
        self.nodes_left = max(0, self.nodes_left - sum(nodes(x.row) for x in lines[:shown]))
        out = [line.row for line in lines[:shown]]
        # Chunks are whole blocks of CHUNK_LINES lines, counted from the listing's
        # start whatever a page shows first, so pages that show the same listing (a
        # graph's page and its provenance page) name the same data files.
        start = shown
        while start < len(lines):
            block = lines[start - start % CHUNK_LINES : start - start % CHUNK_LINES + CHUNK_LINES]
            out.append(self._code_chunk(block, start % CHUNK_LINES, len(lines) - start))
            start += len(block) - start % CHUNK_LINES
        return "".join(out)

    def _code_chunk(self, block: Sequence[CodeLine], skip: int, left: int) -> str:
        """A button that draws ``block`` from its line ``skip`` on."""
        chunk = block[skip:]
        data = listing_data(block)
        if isinstance(data, str):  # markup with this page's ids: a data file of its own
            path, skip = self._file(listing_data(chunk)), 0
        else:
            path = self._shared(data)
        first, last = chunk[0], chunk[-1]
        more = f" of {left} more" if left > len(chunk) else ""
        text = f"show lines {first.number}\u2013{last.number}{more}"
        ids = _extra_ids(chunk)
        return (
            f'<button type="button" class="more-lines" data-part="{escape(path)}" '
            f'data-first="{escape(first.anchor)}" data-last="{escape(last.anchor)}"'
            f"{f' data-from={_attr(str(skip))}' if skip else ''}"
            f"{f' data-ids={_attr(ids)}' if ids else ''}>{escape(text)}</button>\n"
        )

    def _shared(self, data) -> str:
        """A data file named by its content, which any page may name: each listing
        block is written once for the whole site, however many pages show it."""
        text = json.dumps(data, ensure_ascii=True, separators=(",", ":"))
        path = shared_path(hashlib.sha1(text.encode("ascii")).hexdigest()[:20])
        if path not in self._shared_paths:
            self._shared_paths.add(path)
            self._files.append(DataFile(path, script(path, data)))
        return path

    def guards(self, tree: GuardTree, label: str = "guards") -> Markup:
        """A guard tree folded to its first levels and failed guards; the whole tree,
        one row a line with its depth and parts, goes into the page's guard data file
        read on the first unfold; site.js numbers the rows from the tree's ``data-first``."""
        if not tree.lines:
            return Markup(f'<div class="code" aria-label="{escape(label)}"></div>')
        budget = min(GUARD_NODES, self.nodes_left)
        shown = shown_lines(tree.depths, tree.failed, lambda i: row_nodes(tree.lines[i]), budget)
        self.nodes_left = max(0, self.nodes_left - sum(row_nodes(tree.lines[i]) for i in shown))
        path, number = self._guard_tree(tree)
        first, last = tree.lines[0].anchor, tree.lines[-1].anchor
        out = [
            f'<div class="code guard-tree" aria-label="{escape(label)}" data-part="{escape(path)}" '
            f'data-first="{escape(first)}" data-last="{escape(last)}" data-tree="{number}">\n'
        ]
        under = _subtree_sizes(tree.depths)
        for i in sorted(shown):
            folded = any(j not in shown for j in _children(tree.depths, i, under[i]))
            out.append(_guard_row(tree.lines[i], tree.depths[i], under[i], folded))
        out.append("</div>")
        return Markup("".join(out))

    def rows(self, table: Table) -> Markup:
        """A table's rows: the first ones, then a row with a button per chunk of the rest."""
        return self._rows([_row_html(row) for row in table.rows], len(table.headers))

    def code_rows(self, rows: Sequence[Sequence[str]]) -> Markup:
        """Rows of code cells (a graph's inputs and their shapes), as ``rows`` does."""
        cells = ["".join(f"<td><code>{escape(c)}</code></td>" for c in row) for row in rows]
        return self._rows([f"<tr>{c}</tr>" for c in cells], max((len(r) for r in rows), default=1))

    def _rows(self, rows: list[str], columns: int) -> Markup:
        budget, shown = min(TABLE_NODES, self.nodes_left), 0
        for row in rows[:TABLE_ROWS]:
            if nodes(row) > budget and shown >= 3:
                break
            budget -= nodes(row)
            shown += 1
        self.nodes_left = max(0, self.nodes_left - sum(nodes(r) for r in rows[:shown]))
        out = rows[:shown]
        for start in range(shown, len(rows), CHUNK_ROWS):
            chunk = rows[start : start + CHUNK_ROWS]
            path = self._file("".join(chunk))
            text = f"show rows {start + 1}\u2013{start + len(chunk)} of {len(rows)}"
            out.append(
                f'<tr class="more-rows"><td colspan="{int(columns)}"><button type="button" '
                f'class="more-lines" data-part="{escape(path)}">{escape(text)}</button></td></tr>'
            )
        return Markup("".join(out))

    def charts(
        self, charts: Sequence[Markup], summary: str, css: str, shown: int = CHARTS
    ) -> Markup:
        """Flowcharts: the first ``shown``, the rest folded under ``summary`` and read
        when opened; with none shown the summary is the folded block's whole title."""
        figures = [f'<figure class="chart">{chart}</figure>' for chart in charts]
        out = figures[:shown]
        if len(figures) > shown:
            title = f"{len(figures) - shown} {summary}" if shown else summary
            out.append(self.later(Markup("".join(figures[shown:])), title, css))
        return Markup("".join(out))

    def later(self, html: Markup, summary: str, css: str = "") -> Markup:
        """A block shown folded: its content is read when it is first opened, or
        when a link names one of the ids in it (``data-ids``)."""
        path = self._file(str(html))
        ids = " ".join(dict.fromkeys(m[1] for m in _ID.finditer(str(html))))
        return Markup(
            f'<details class="deferred {escape(css)}" data-part="{escape(path)}"'
            f"{f' data-ids={_attr(ids)}' if ids else ''}>"
            f"<summary>{escape(summary)}</summary></details>"
        )

    def text(self, text: str, summary: str, css: str = "") -> Markup:
        """Plain text (a bytecode listing) shown folded, read when first opened."""
        if len(text) < 2000:
            return Markup(
                f'<details class="{escape(css)}"><summary>{escape(summary)}</summary>'
                f"<pre>{escape(text)}</pre></details>"
            )
        return self.later(Markup(f"<pre>{escape(text)}</pre>"), summary, css)


def listing_data(chunk: Sequence[CodeLine]):
    """A chunk of a listing as site.js's ``listingHtml`` reads it: ``{"language",
    "lines"}``, each line its text where site.js highlights it as render would
    (``[language, text]`` in another language), ``{"html": markup}`` where its
    markup holds links, and ``{"row": markup}`` where it has marks. Its numbers and
    ids come from the button's ``data-first``, so the data names no page. The
    text is a third to a fifth of the bytes of the markup. A chunk whose ids are
    not a prefix and consecutive numbers stays markup."""
    if not _numbered(chunk):
        return "".join(line.row for line in chunk)
    languages = Counter(line.language for line in chunk if line.language and not line.marks)
    main = languages.most_common(1)[0][0] if languages else "text"
    lines = []
    for line in chunk:
        if line.marks:
            lines.append({"row": str(line.row)})
        elif line.language is None:
            lines.append({"html": str(line.html)})
        else:
            lines.append(line.text if line.language == main else [line.language, line.text])
    return {"language": main, "lines": lines}


_NUMBERED = re.compile(r"(.*?)([0-9]+)")  # as site.js's number() reads an id


def _numbered(chunk: Sequence[CodeLine]) -> bool:
    first = _NUMBERED.fullmatch(chunk[0].anchor)
    if first is None:
        return False
    prefix, start = first[1], chunk[0].number
    return all(
        line.number == start + i and line.anchor == f"{prefix}{line.number}"
        for i, line in enumerate(chunk)
    )


def _guard_data(line: CodeLine):
    """A guard line as site.js draws it (codeview.guard_data), or ``{"row": markup}``
    where it has marks (a failed guard), which are few."""
    return line.parts if line.parts is not None and not line.marks else {"row": str(line.row)}


def _row_html(row: Row) -> str:
    cells = []
    for cell in row.cells:
        cells.append("<td>" + ", ".join(_link_html(link) for link in cell) + "</td>")
    return "<tr>" + "".join(cells) + "</tr>"


def _link_html(link: Link) -> str:
    if not link.href:
        return str(escape(link.text))
    title = f' title="{escape(link.title)}"' if link.title else ""
    return f'<a href="{escape(link.href)}"{title}>{escape(link.text)}</a>'


def _subtree_sizes(depths: Sequence[int]) -> list[int]:
    """How many lines sit under each line of a tree."""
    under, open_lines = [0] * len(depths), []
    for j, depth in enumerate(depths):
        while open_lines and depths[open_lines[-1]] >= depth:
            open_lines.pop()
        for k in open_lines:
            under[k] += 1
        open_lines.append(j)
    return under


def _children(depths: Sequence[int], index: int, under: int) -> list[int]:
    depth = depths[index] + 1
    return [j for j in range(index + 1, index + under + 1) if depths[j] == depth]


def _guard_row(line: CodeLine, depth: int, under: int, folded: bool) -> str:
    """A guard line as shown at load, with the button that unfolds or folds its
    children; site.js draws the same rows after an unfold."""
    if not under:
        button = ""
    elif folded:
        button = (
            '<button type="button" class="unfold" aria-expanded="false" '
            f'title="show the {under} checks under this one">+{under}</button>'
        )
    else:
        button = (
            '<button type="button" class="unfold" aria-expanded="true" '
            'title="fold the checks under this one">\u2212</button>'
        )
    row = str(line.row)
    # The row is ours (codeview.code_line): the depth goes on it, the button after its number.
    head, sep, rest = row.partition("</a>")
    head = head.replace("<div ", f'<div data-depth="{int(depth)}" ', 1)
    return f"{head}{sep}{button}{rest}"


_ID = re.compile(r' id="([A-Za-z0-9_.-]+)"')


def _extra_ids(chunk: Sequence[CodeLine]) -> str:
    """Ids inside a chunk other than its lines' own: links to them load the chunk."""
    own = {line.anchor for line in chunk}
    found = {m[1] for line in chunk if line.language is None for m in _ID.finditer(line.html)}
    return " ".join(sorted(found - own))


def _attr(value: str) -> str:
    return f'"{escape(value)}"'
