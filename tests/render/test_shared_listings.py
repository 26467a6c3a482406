"""A graph's long listings are held once in the site: its graph page and its
provenance page name the same data files, which survive re-renders."""

import json
import re
from pathlib import Path

from light_pages import read_part
from synthetic import make_dump

from depyf_report.render import render, urls
from depyf_report.render.bundle import site_bundle
from depyf_report.render.deferred import CHUNK_LINES

LISTING = re.compile(r'data-part="(listing-[0-9a-f]{20}\.js)"')


def _long_graph(dump: Path, graph: str = "g1", op: str = "mul") -> None:
    path = dump / "graphs" / f"{graph}.json"
    record = json.loads(path.read_text())
    body = "".join(f"        v{i} = torch.ops.aten.{op}.Tensor(x, {i})\n" for i in range(1500))
    record["stages"][0]["text"] = f"class GraphModule(torch.nn.Module):\n{body}"
    path.write_text(json.dumps(record))


def _blocks(page: Path) -> list[str]:
    return list(dict.fromkeys(LISTING.findall(page.read_text())))


def test_the_graph_and_provenance_pages_share_the_blocks_of_a_listing(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=2)
    _long_graph(dump)
    site = render(dump, tmp_path / "site", progress=False).parent
    graph, provenance = _blocks(site / "graph-g1.html"), _blocks(site / "provenance-g1.html")
    assert len(graph) == -(-1501 // CHUNK_LINES)  # every block of the stage
    assert set(graph) <= set(provenance)
    # each block holds the listing's lines as text, the same for both pages
    first = read_part(site / graph[0])
    assert first["lines"][0] == "class GraphModule(torch.nn.Module):"
    assert len(first["lines"]) == CHUNK_LINES
    status = json.loads((site / urls.STATUS).read_text())
    assert set(graph) <= set(status["files"])
    assert set(status["uses"]["graph-g1.html"]) == set(graph)


def test_shared_blocks_survive_a_render_that_skips_their_pages(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=3)
    _long_graph(dump, "g1")
    site = render(dump, tmp_path / "site", progress=False).parent
    blocks = _blocks(site / "graph-g1.html")
    _long_graph(dump, "g3", "add")  # other pages change; g1's are skipped
    render(dump, tmp_path / "site", progress=False)
    assert all((site / name).is_file() for name in blocks)
    assert blocks == _blocks(site / "graph-g1.html")
    status = json.loads((site / urls.STATUS).read_text())
    assert set(blocks) <= set(status["files"])
    # a block no page names any more is removed
    record = json.loads((dump / "graphs" / "g1.json").read_text())
    record["stages"][0]["text"] = "class GraphModule(torch.nn.Module):\n    pass\n"
    (dump / "graphs" / "g1.json").write_text(json.dumps(record))
    render(dump, tmp_path / "site", progress=False)
    assert not any((site / name).exists() for name in blocks)


def test_graphs_with_the_same_code_share_its_blocks(tmp_path):
    """Identical listings (a layer compiled again, the same graph on another rank)
    are held once."""
    dump = make_dump(tmp_path / "dump", graphs=2)
    _long_graph(dump, "g1")
    _long_graph(dump, "g2")
    site = render(dump, tmp_path / "site", progress=False).parent
    assert _blocks(site / "graph-g1.html") == _blocks(site / "graph-g2.html")


def test_the_notebook_frame_carries_the_blocks_each_page_names(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=2)
    _long_graph(dump)
    site = render(dump, tmp_path / "site", progress=False).parent
    document = site_bundle(site, "site")
    found = re.search(r'<script type="application/json" id="site-data">(.*?)</script>', document)
    data = json.loads(found[1])
    for page in ("graph-g1.html", "provenance-g1.html"):
        assert set(_blocks(site / page)) <= set(data["parts"][page])
    assert all(name in data["data"] for name in _blocks(site / "provenance-g1.html"))
