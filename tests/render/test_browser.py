"""The site in a real browser, from file://: Debian's Chromium through Playwright."""

import json
import re
from pathlib import Path

import pytest
from light_pages import MAX_DOM_NODES
from playwright.sync_api import expect, sync_playwright
from provenance_dump import (
    DYNAMO_LINES,
    HANDLE_LINE,
    KERNEL_LINES,
    POST_GRAD_LINES,
    make_provenance_dump,
)
from synthetic import UUID, make_dump, name_graph_one_with_uuid

from depyf_report.render import deferred, render

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        pytest.fail("needs Debian's chromium (apt-get install chromium); or -m 'not browser'")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A page that records console errors and every request that is not file://."""
    page = browser.new_page()
    page.errors = []
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("request", lambda r: r.url.startswith("file://") or page.errors.append(r.url))
    yield page
    page.close()


def test_every_page_loads_without_errors_or_network(site, page):
    for path in sorted(site.glob("*.html")):
        page.goto(path.as_uri())
        assert page.locator("main").count() == 1
    assert page.errors == []


def test_search_finds_a_function(site, page):
    page.goto((site / "index.html").as_uri())
    page.keyboard.press("/")
    page.keyboard.type("forward_1")
    result = page.locator("#search-results a").first
    assert result.inner_text() == "Model1.forward_1"
    result.click()
    assert page.url.endswith("fn-f1.html")
    assert page.errors == []


def test_search_from_another_page_opens_the_overview_with_results(site, page):
    page.goto((site / "graph-g1.html").as_uri())
    page.fill("#search", "check_type_id")
    page.keyboard.press("Enter")
    page.wait_for_url("**/index.html?q=check_type_id")
    assert page.locator("#search-results li .kind").first.inner_text().lower() == "guard"
    assert page.errors == []


def test_click_path_from_overview_to_graph_and_kernel(site, page):
    page.goto((site / "index.html").as_uri())
    page.locator('svg.flowchart a[href="graph-g1.html"]').click()
    assert page.url.endswith("graph-g1.html")
    assert page.locator("h1").inner_text().startswith("__compiled_fn_1")
    page.locator("nav.pills a.output").click()
    assert page.url.endswith("graph-g1-forward-code.html")
    page.locator('nav.pills a[href="#kernel-cpp_fused_mul_1_1"]').click()
    assert page.url.endswith("#kernel-cpp_fused_mul_1_1")
    assert page.locator("#kernel-cpp_fused_mul_1_1").is_visible()
    assert page.errors == []


def test_transformed_code_links_to_graph_and_resume_function(site, page):
    page.goto((site / "fn-f0.html").as_uri())
    page.locator("#entry-0 a.code-link", has_text="__resume_at_30_2").click()
    assert page.url.endswith("fn-f0r.html")
    page.go_back()
    page.locator("#entry-0 a.code-link", has_text="__compiled_fn_1").click()
    assert page.url.endswith("graph-g1.html")


def test_a_graph_is_shown_by_its_short_name_and_found_by_its_whole_one(tmp_path, page):
    dump = make_dump(tmp_path / "dump", graphs=2)
    full = name_graph_one_with_uuid(dump)
    site = render(dump, tmp_path / "site", progress=False).parent
    page.goto((site / "fn-f0.html").as_uri())
    link = page.locator("#entry-0 .src a.code-link", has_text="__compiled_fn_1")
    assert link.inner_text() == "__compiled_fn_1"
    assert link.get_attribute("title") == full
    assert UUID not in page.locator("#entry-0").inner_text()  # shown only on hover
    link.click()
    assert page.url.endswith("graph-g1.html")
    assert page.locator("h1 code").inner_text() == "__compiled_fn_1"
    page.goto((site / "index.html").as_uri() + f"?q={UUID}")
    result = page.locator("#search-results a").first
    assert result.inner_text() == "__compiled_fn_1"
    assert page.errors == []


def test_keyboard_shortcuts_and_help_panel(site, page):
    page.goto((site / "fn-f0.html").as_uri())
    assert page.locator("#help").is_hidden()
    page.keyboard.press("?")
    assert page.locator("#help").is_visible()
    page.keyboard.press("Escape")
    assert page.locator("#help").is_hidden()
    assert page.locator("details.dis").first.get_attribute("open") is None
    page.keyboard.press("d")
    assert page.locator("details.dis").first.get_attribute("open") is not None
    page.keyboard.press("n")
    page.keyboard.press("n")
    assert page.evaluate("window.scrollY") > 0  # moved on to the next section
    page.keyboard.press("i")
    page.wait_for_url("**/index.html")
    assert page.errors == []


def test_escaped_markup_runs_no_script(markup_site, page):
    dialogs = []
    page.on("dialog", lambda d: dialogs.append(d.message) or d.dismiss())
    for name in ("index.html", "graph-g1.html", "fn-f0.html", "p-rank1-graph-g1.html"):
        page.goto((markup_site / name).as_uri())
    assert dialogs == [] and page.errors == []
    page.goto((markup_site / "fn-f0.html").as_uri())
    assert "forward_0<b>&amp;" in page.locator("main").inner_text()


def test_search_ranks_exact_names_first(tmp_path, page):
    dump = make_dump(tmp_path / "dump", graphs=4)
    for fn_id, qualname in (("f0", "forward_helper"), ("f1", "forward")):
        path = dump / "functions" / f"{fn_id}.json"
        path.write_text(
            path.read_text().replace(f'"Model{fn_id[1]}.forward_{fn_id[1]}"', f'"{qualname}"')
        )
    site = render(dump, tmp_path / "site", progress=False).parent
    page.goto((site / "index.html").as_uri())
    page.keyboard.press("/")
    page.keyboard.type("forward")
    page.locator("#search-results li").nth(5).wait_for()
    names = page.locator("#search-results li a").all_inner_texts()
    assert names[:2] == ["forward", "forward_helper"]  # exact, then starts with it
    assert len(names) > 5
    assert page.errors == []


def test_arrow_keys_move_through_results_and_enter_follows(site, page):
    page.goto((site / "index.html").as_uri())
    page.keyboard.press("/")
    page.keyboard.type("forward")
    # the index is a data file read on the first search: wait for the results
    page.locator("#search-results li").nth(3).wait_for()
    for key in ("ArrowDown", "ArrowDown", "ArrowDown", "ArrowUp"):
        page.keyboard.press(key)
    items = page.locator("#search-results li")
    assert items.count() > 3
    assert items.nth(2).get_attribute("class") == "active"
    assert page.locator("#search-results li.active").count() == 1
    href = items.nth(2).locator("a").get_attribute("href")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/{href}")
    assert page.errors == []


# --- the provenance view ------------------------------------------------------------


@pytest.fixture(scope="module")
def provenance_sites(tmp_path_factory):
    """The toy-shaped provenance dump rendered with its mapping, and without it."""
    sites = {}
    for recorded in (True, False):
        root = tmp_path_factory.mktemp(f"provenance-{recorded}")
        dump = make_provenance_dump(root / "dump", recorded=recorded)
        sites[recorded] = render(dump, root / "site", progress=False).parent
    return sites


def _lit(page, css):
    return sorted(
        page.locator(f"[data-pane] .line.{css}").evaluate_all("els => els.map(e => e.id)")
    )


def test_selecting_a_source_line_lights_what_it_became(provenance_sites, page):
    page.goto((provenance_sites[True] / "provenance-g0.html").as_uri())
    page.locator("#source-L13").click()
    assert _lit(page, "selected") == ["source-L13"]
    assert _lit(page, "came-from") == []
    kernel = [f"output_inference-L{n}" for n in KERNEL_LINES]
    nodes = [f"dynamo-L{DYNAMO_LINES[n]}" for n in ("abs_1", "add", "x")]
    post = [f"post_grad_inference-L{POST_GRAD_LINES[n]}" for n in ("abs_1", "add", "div")]
    assert _lit(page, "became") == sorted(nodes + post + kernel)
    assert page.url.endswith("#source-L13")
    assert page.errors == []


def test_keyboard_selects_a_kernel_and_lights_where_it_came_from(provenance_sites, page):
    page.goto((provenance_sites[True] / "provenance-g0.html").as_uri())
    page.locator(f"#output_inference-L{HANDLE_LINE + 1}").focus()
    page.keyboard.press("ArrowUp")  # to the handle comment: the same call
    assert page.evaluate("document.activeElement.id") == f"output_inference-L{HANDLE_LINE}"
    page.keyboard.press("Enter")
    assert f"output_inference-L{HANDLE_LINE + 1}" in _lit(page, "selected")
    came = _lit(page, "came-from")
    assert [c for c in came if c.startswith("source-")] == ["source-L13", "source-L14"]
    assert len([c for c in came if c.startswith("dynamo-")]) == 5
    page.keyboard.press("ArrowLeft")  # to the post-grad pane, on a line it lit
    assert page.evaluate("document.activeElement.id") in came
    assert page.errors == []


@pytest.fixture(scope="module")
def folded_provenance_site(tmp_path_factory):
    """The provenance page with a node budget so small each pane shows a line or two."""
    root = tmp_path_factory.mktemp("provenance-folded")
    dump = make_provenance_dump(root / "dump")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(deferred, "PAGE_NODES", 24)
        return render(dump, root / "site", progress=False).parent


def test_selecting_a_line_loads_the_folded_lines_it_lights(folded_provenance_site, page):
    page.goto((folded_provenance_site / "provenance-g0.html").as_uri())
    assert page.locator(f"#output_inference-L{KERNEL_LINES[0]}").count() == 0  # folded
    page.locator("#source-L13").click()
    kernel = [f"output_inference-L{n}" for n in KERNEL_LINES]
    nodes = [f"dynamo-L{DYNAMO_LINES[n]}" for n in ("abs_1", "add", "x")]
    post = [f"post_grad_inference-L{POST_GRAD_LINES[n]}" for n in ("abs_1", "add", "div")]
    expect(page.locator(f"#{kernel[0]}")).to_have_class(re.compile("became"))
    assert _lit(page, "became") == sorted(nodes + post + kernel)
    page.goto("about:blank")
    page.goto((folded_provenance_site / "provenance-g0.html").as_uri() + f"#{kernel[0]}")
    expect(page.locator(f"#{kernel[0]}")).to_have_class(re.compile("selected"))
    assert page.errors == []


def test_a_link_to_a_line_selects_it_on_load(provenance_sites, page):
    page.goto((provenance_sites[True] / "provenance-g0.html").as_uri() + "#source-L14")
    assert _lit(page, "selected") == ["source-L14"]
    assert f"output_inference-L{HANDLE_LINE}" in _lit(page, "became")
    assert page.errors == []


def test_a_pane_with_no_mapping_says_so(provenance_sites, page):
    page.goto((provenance_sites[False] / "provenance-g0.html").as_uri())
    page.locator("#source-L13").click()
    status = page.locator('[data-pane="output_inference"] .pane-status')
    assert status.inner_text().startswith("Nothing here is recorded")
    note = page.locator('[data-pane="output_inference"] .pane-note').inner_text()
    assert note.startswith("No provenance was recorded")
    assert page.errors == []


def test_nodes_linked_by_source_line_light_each_other(provenance_sites, page):
    # No node map: abs_1 reaches line 13's post-grad nodes through the line's hub.
    page.goto((provenance_sites[False] / "provenance-g0.html").as_uri())
    page.locator(f"#dynamo-L{DYNAMO_LINES['abs_1']}").click()
    post = [f"post_grad_inference-L{POST_GRAD_LINES[n]}" for n in ("abs_1", "add", "div")]
    assert set(post) <= set(_lit(page, "became"))
    assert f"post_grad_inference-L{POST_GRAD_LINES['sum_1']}" not in _lit(page, "became")
    page.locator(f"#post_grad_inference-L{POST_GRAD_LINES['div']}").click()
    nodes = [f"dynamo-L{DYNAMO_LINES[n]}" for n in ("abs_1", "add", "x")]
    assert set(nodes) <= set(_lit(page, "came-from"))
    assert page.errors == []


@pytest.fixture(scope="module")
def helper_sites(tmp_path_factory):
    """Line 13's work done in ``helpers.py:scale``: a dump that holds its source
    (schema 4) and one made before capture stored it (schema 3)."""
    sites = {}
    for schema in (4, 3):
        root = tmp_path_factory.mktemp(f"provenance-helper-{schema}")
        dump = make_provenance_dump(root / "dump", helper=True, schema=schema)
        sites[schema] = render(dump, root / "site", progress=False).parent
    return sites


def test_a_line_of_another_function_lights_both_ways(helper_sites, page):
    page.goto((helper_sites[4] / "provenance-g0.html").as_uri())
    names = page.locator('[data-pane="source"] .region-name').all_inner_texts()
    assert names == ["toy.py:toy_example", "helpers.py:scale"]
    page.locator("#source_1-L5").click()
    kernel = [f"output_inference-L{n}" for n in KERNEL_LINES]
    nodes = [f"dynamo-L{DYNAMO_LINES[n]}" for n in ("abs_1", "add", "x")]
    post = [f"post_grad_inference-L{POST_GRAD_LINES[n]}" for n in ("abs_1", "add", "div")]
    assert _lit(page, "became") == sorted(nodes + post + kernel)
    assert _lit(page, "came-from") == ["source-L13"]  # the line that calls scale
    page.locator(f"#output_inference-L{HANDLE_LINE}").click()
    came = _lit(page, "came-from")
    assert [c for c in came if c.startswith("source")] == [
        "source-L13",
        "source-L14",
        "source_1-L5",
    ]
    assert page.errors == []


def test_the_keyboard_walks_across_regions_of_the_source_pane(helper_sites, page):
    page.goto((helper_sites[4] / "provenance-g0.html").as_uri())
    page.locator("#source-L16").focus()
    page.keyboard.press("ArrowDown")  # past the last line of toy_example: into scale
    assert page.evaluate("document.activeElement.id") == "source_1-L4"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert _lit(page, "selected") == ["source_1-L5"]
    page.keyboard.press("ArrowRight")  # to the Dynamo pane, on a line it lit
    assert page.evaluate("document.activeElement.id") in {
        f"dynamo-L{DYNAMO_LINES[n]}" for n in ("abs_1", "add", "x")
    }
    assert page.errors == []


def test_an_old_dump_names_the_functions_it_holds_no_source_for(helper_sites, page):
    page.goto((helper_sites[3] / "provenance-g0.html").as_uri())
    note = page.locator('[data-pane="source"] .pane-note').inner_text()
    assert note.startswith("No source is shown for helpers.py:5: this dump was made before")
    assert page.locator('[data-pane="source"] .region-name').count() == 1
    page.locator(f"#dynamo-L{DYNAMO_LINES['abs_1']}").click()
    status = page.locator('[data-pane="source"] .pane-status').inner_text()
    assert status.startswith("Nothing here is recorded")


# --- light pages (issue 27): folded guard trees, chunked listings, lazy search ------

HOSTILE_GUARD = (
    "___check_obj_id(L['s'], 1)  \"); alert(1); (\" </script><script>alert(2)</script>\u2028"
)


def _patch(path: Path, change) -> None:
    record = json.loads(path.read_text())
    change(record)
    path.write_text(json.dumps(record))


def _hostile_and_long(record_root: Path) -> None:
    """A hostile guard deep in f0's first tree, and a Dynamo graph of 2,000 lines."""

    def guard(fn):
        guards = fn["entries"][0]["guards"]
        guards["tree"] += f"| | | | +- ID_MATCH: {HOSTILE_GUARD}  # x\n"
        guards["guards"].append({"expression": HOSTILE_GUARD, "kind": "ID_MATCH"})

    def stage(graph):
        lines = [f"        v{i} = torch.ops.aten.mul.Tensor(x, {i})\n" for i in range(2000)]
        lines[997:1001] = HOSTILE_LISTING  # lines 999-1002, in a chunk site.js draws
        graph["stages"][0]["text"] = f"class GraphModule(torch.nn.Module):\n{''.join(lines)}"

    _patch(record_root / "functions" / "f0.json", guard)
    _patch(record_root / "graphs" / "g1.json", stage)


@pytest.fixture(scope="module")
def deep_site(tmp_path_factory):
    """24 graphs, 200 guards a cache entry twenty layers deep, a hostile guard, a long graph."""
    root = tmp_path_factory.mktemp("deep")
    dump = make_dump(root / "dump", graphs=24, guards=4800)
    _hostile_and_long(dump)
    return render(dump, root / "site", progress=False).parent


def _dom_nodes(page) -> int:
    return page.evaluate("document.getElementsByTagName('*').length")


def test_every_page_loads_with_at_most_3000_dom_nodes(deep_site, page):
    for path in sorted(deep_site.glob("*.html")):
        page.goto(path.as_uri())
        assert _dom_nodes(page) <= MAX_DOM_NODES, path.name
    assert page.errors == []


def test_a_folded_guard_tree_unfolds_from_its_data_file(deep_site, page):
    loaded = []
    page.on("request", lambda r: loaded.append(r.url.rsplit("/", 1)[-1]))
    page.goto((deep_site / "fn-f0.html").as_uri())
    tree = page.locator("#entry-0 .guard-tree")
    part = tree.get_attribute("data-part")
    assert part not in loaded  # nothing is read before it is asked for
    layers = tree.locator(".line", has_text="_modules['layers']._modules['")
    weights = tree.locator(".line", has_text="._parameters['weight_")
    assert layers.count() == 20 and weights.count() == 0  # the layers show, folded
    layer = layers.nth(3)
    assert layer.locator("button.unfold").inner_text() == "+10"
    layer.locator("button.unfold").click()
    expect(weights).to_have_count(10)
    assert part in loaded
    assert "._modules['3']._parameters['weight_7']" in weights.nth(7).inner_text()
    layer.locator("button.unfold").click()  # folds again
    expect(weights).to_have_count(0)
    modules = tree.locator(".line", has_text="source=L['self']._modules,")
    modules.locator("button.unfold").click()  # folding a level hides all under it
    expect(layers).to_have_count(0)
    modules.locator("button.unfold").click()
    expect(layers).to_have_count(20)
    assert page.errors == []


def test_search_finds_a_deep_guard_and_opens_the_tree_at_it(deep_site, page):
    page.goto((deep_site / "index.html").as_uri())
    page.keyboard.press("/")
    page.keyboard.type("_modules['18']._parameters['weight_9']")
    result = page.locator("#search-results a").first
    expect(result).to_contain_text("weight_9")
    result.click()
    page.wait_for_url("**/fn-*.html#entry-*-g*")
    line = page.locator(".line.targeted")
    expect(line).to_be_visible()
    assert "_modules['18']._parameters['weight_9']" in line.inner_text()
    assert line.get_attribute("id") == page.url.split("#")[1]
    assert page.errors == []


def test_a_hostile_guard_shows_as_text_and_runs_nothing(deep_site, page):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto((deep_site / "index.html").as_uri() + "?q=___check_obj_id(L['s']")
    page.locator("#search-results a").first.click()
    line = page.locator(".line.targeted")
    expect(line).to_be_visible()
    assert '"); alert(1); ("' in line.inner_text()
    assert "</script><script>alert(2)</script>" in line.inner_text()
    assert dialogs == [] and page.errors == []


def test_a_long_listing_loads_its_chunks_and_links_into_them_work(deep_site, page):
    page.goto((deep_site / "graph-g1.html").as_uri())
    listing = page.locator("#stage-dynamo .code")
    shown = listing.locator(".line").count()
    assert 10 < shown < 100
    listing.locator("button.more-lines").first.click()
    # chunks are whole blocks of the listing: the first one ends at the first block's end
    expect(listing.locator(".line")).to_have_count(deferred.CHUNK_LINES)
    listing.locator("button.more-lines").first.click()
    expect(listing.locator(".line")).to_have_count(2 * deferred.CHUNK_LINES)
    assert "v798 = " in page.locator("#stage-dynamo-L800").inner_text()
    page.goto((deep_site / "graph-g1.html").as_uri() + "#stage-dynamo-L1900")
    line = page.locator("#stage-dynamo-L1900")
    expect(line).to_be_visible()
    assert "v1898 = " in line.inner_text()
    assert page.errors == []


# Listing lines a data file holds as text (and two inside a multi-line string,
# which it holds as render's markup): site.js must draw them as text.
HOSTILE_LISTING = [
    '        h = "</script><img src=x onerror=window.pwned=1>"  # <b>bold</b> & </div>\n',
    "        d = '''<img src=y onerror=window.pwned=2>\n",
    "        </span></div><img src=z onerror=window.pwned=3>'''\n",
    "        e = 1 <b>2</b> &amp; 3\n",
]


def test_hostile_text_in_a_long_listing_is_shown_as_text(deep_site, page):
    page.goto((deep_site / "graph-g1.html").as_uri() + "#stage-dynamo-L999")
    expect(page.locator("#stage-dynamo-L999")).to_be_visible()
    for n, text in enumerate(HOSTILE_LISTING, start=999):
        assert page.locator(f"#stage-dynamo-L{n} .src").inner_text() == text.rstrip("\n")
    assert page.locator("#stage-dynamo img, #stage-dynamo b").count() == 0
    assert page.evaluate("window.pwned") is None
    assert page.errors == []


def test_a_link_to_a_folded_compile_opens_it(tmp_path, page):
    """A function compiled twenty times shows twelve compiles; a link to the
    seventeenth opens the folded rest."""
    dump = make_dump(tmp_path / "dump", graphs=2)
    first = json.loads((dump / "compiles" / "0-0.json").read_text())
    for k in range(1, 20):
        record = {**first, "id": f"0/{k}", "frame_compile_id": k, "graphs": []}
        (dump / "compiles" / f"0-{k}.json").write_text(json.dumps(record))
    site = render(dump, tmp_path / "site", progress=False).parent
    page.goto((site / "fn-f0.html").as_uri())
    assert page.locator("article.compile").count() == 12
    folded = "".join(p.read_text() for p in site.glob("fn-f0.*.js"))
    anchor = re.search(r'id=\\"(compile-0-17-\w+)\\"', folded)[1]
    page.goto("about:blank")
    page.goto((site / "fn-f0.html").as_uri() + f"#{anchor}")
    expect(page.locator(f"#{anchor}")).to_be_visible()
    assert page.locator("article.compile").count() == 20
    assert page.errors == []
