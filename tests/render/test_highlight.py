import time
import tracemalloc
import xml.etree.ElementTree as ET

from synthetic import make_dump

from depyf_report.dump import load_dump
from depyf_report.render.build_graph import _inputs
from depyf_report.render.codeview import guard_lines
from depyf_report.render.context import ProcessContext
from depyf_report.render.fastlex import clike_tokens, python_tokens
from depyf_report.render.flowchart import flowchart
from depyf_report.render.highlight import highlight_embedded, highlight_lines


def test_each_line_is_closed_markup_even_inside_a_multiline_string():
    lines = highlight_lines('x = """a\nb <c>\n"""\ny = 1\n')
    assert len(lines) == 4
    assert lines[1] == '<span class="sd">b &lt;c&gt;</span>'
    assert all(line.count("<span") == line.count("</span>") for line in lines)


def test_known_names_become_links_and_others_stay_text():
    links = {"__compiled_fn_1": "graph-g1.html"}.get
    (line,) = highlight_lines("__temp, = __compiled_fn_1(x)", link=links)
    assert '<a class="code-link" href="graph-g1.html">__compiled_fn_1</a>' in line
    assert "__temp" in line and line.count("<a ") == 1


def test_python_classes_match_pygments_names():
    kinds = {v: c for c, v, _ in python_tokens("def f(self): return None  # hi\n@x\nclass C: pass")}
    assert kinds["def"] == "k" and kinds["f"] == "nf" and kinds["self"] == "bp"
    assert kinds["None"] == "kc" and kinds["# hi"] == "c1" and kinds["C"] == "nc"


def test_cpp_tokens():
    text = '#include "x.h"\nextern "C" void k(const float* p) { /* a\nb */ p[0] = 1.5f; // end\n}'
    kinds = {v: c for c, v, _ in clike_tokens(text)}
    assert kinds['#include "x.h"'] == "cp" and kinds["float"] == "kt" and kinds["const"] == "k"
    assert kinds["/* a\nb */"] == "cm" and kinds["1.5f"] == "m" and kinds["// end"] == "c1"
    assert "".join(v for _, v, _ in clike_tokens(text)) == text


def test_tokenizers_lose_no_text():
    text = "a = b'\\x00' + 0x1F * 1e-3 if x else r'\\d' @ m\nprint(f\"{a!r}\")\n"
    assert "".join(v for _, v, _ in python_tokens(text)) == text


def test_guard_comment_links_back_to_the_source_line():
    tree = "| +- TYPE_MATCH: ___check_type_id(L['b'], 9)  # if b < 0:  # /p/model.py:13 in forward"
    (line,) = guard_lines(tree, anchor=lambda n: f"g{n}", source_href=lambda f, n: f"#L{n}")
    assert '<a href="#L13"><span class="c1">/p/model.py:13</span></a>' in line.html
    assert '<span class="guard-kind">TYPE_MATCH:</span>' in line.html


def test_flowchart_is_valid_svg_and_every_box_links(tmp_path):
    dump = load_dump(make_dump(tmp_path / "dump", graphs=5, markup=True))
    ctx = ProcessContext.build(dump.processes[0], "")
    svg = ET.fromstring(str(flowchart(ctx, ctx.roots()[0])))
    ns = "{http://www.w3.org/2000/svg}"
    boxes = svg.iter(f"{ns}rect")
    links = [a.get("href") for a in svg.iter(f"{ns}a")]
    assert len(links) == len(list(boxes))
    assert "fn-f0.html" in links and "fn-f0r.html" in links and "graph-g1.html" in links
    assert "graph-g1.html#stage-aot_forward" in links and "graph-g1-forward-code.html" in links
    assert "fn-f0.html#entry-0" in links
    assert any("resume" in (p.get("class") or "") for p in svg.iter(f"{ns}path"))


def _peak_bytes(tokenizer, text: str) -> int:
    tracemalloc.start()
    try:
        list(tokenizer(text))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_long_string_costs_memory_in_proportion_to_its_size():
    # A repeated group in the string pattern kept ~150 bytes per character.
    for text in ("x = '" + "a" * 400_000 + "'\n", 'x = "' + "\\n" * 200_000 + '"\n'):
        tokens = list(python_tokens(text))
        assert "".join(v for _, v, _ in tokens) == text
        assert [c for c, v, _ in tokens if len(v) > 1000] == ["s1"]
        assert _peak_bytes(python_tokens, text) < 3 * len(text)
        assert _peak_bytes(clike_tokens, text[4:]) < 3 * len(text)


def test_strings_with_escapes_end_where_python_ends_them():
    kinds = [(c, v) for c, v, _ in python_tokens("f('a\\'b', \"c\\\"\", 'open\\\nx')")]
    assert ("s1", "'a\\'b'") in kinds and ("s1", '"c\\""') in kinds
    assert ("s1", "'open") in kinds  # a backslash before the line's end ends it, unclosed


def test_a_long_line_is_shown_whole_without_colours():
    line = "x = [" + "a, " * 30_000 + "]"
    (html,) = highlight_lines(line + "\n")
    assert html == line and "<span" not in html
    (html,) = highlight_lines("x <&> y\n")
    assert html == 'x <span class="o">&lt;&amp;&gt;</span> y'


def test_places_in_long_comments_are_found_in_one_pass():
    # Each regular expression that searches dump text must not restart a scan of
    # the same run of characters at every position: 40,000 characters took 6 s.
    comment = "# " + "x.py" * 10_000 + " model.py:12\n"
    start = time.perf_counter()
    (html,) = highlight_lines(comment, where=lambda f, n: f"#L{n}")
    assert '<a href="#L12">model.py:12</a>' in html
    guard = "| +- TYPE_MATCH: f(x)  # " + "a:1" * 10_000 + " b.py:3"
    (line,) = guard_lines(guard, anchor=str, source_href=lambda f, n: f"#L{n}")
    assert '<a href="#L3"><span class="c1">b.py:3</span></a>' in line.html
    assert _inputs("def forward(" + "a" * 40_000) == ()
    assert time.perf_counter() - start < 1.0


def test_unknown_languages_are_plain_text():
    # A dump names a kernel's language; no Pygments lexer is picked from it.
    assert highlight_lines("<x> = 1\n", "html") == ["&lt;x&gt; = 1"]


def test_a_long_source_line_is_cut_in_the_search_index_and_the_summary(tmp_path):
    from depyf_report.render.search import search_rows
    from depyf_report.render.summary import summary_markdown

    dump = load_dump(make_dump(tmp_path / "dump", graphs=1))
    ctx = ProcessContext.build(dump.processes[0], "")
    ctx.function("f0").source = "def f():\n    x = '" + "a" * 1_000_000 + "'\n"
    assert max(len(text) for row in search_rows(ctx) for text in row) <= 300
    assert len(summary_markdown(dump, [ctx])) < 30_000  # an issue holds 65,536


# Inductor's module, as it writes one: each kernel's source inside a string.
MODULE = """from torch._inductor.async_compile import AsyncCompile
async_compile = AsyncCompile()
cpp_fused_add_0 = async_compile.cpp_pybinding(['const float*', 'float*'], r'''
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C" void kernel(const float* in_ptr0, float* out_ptr0)
{
    out_ptr0[0] = in_ptr0[0] + 1.0f;
}
''')
triton_poi_fused_mul_1 = async_compile.triton('triton_poi_fused_mul_1', '''
import triton
@triton.jit
def triton_poi_fused_mul_1(in_ptr0, xnumel):
    x0 = tl.program_id(0)
''', device_str='cuda')
def call(args):
    cpp_fused_add_0(args[0])
"""


def test_kernels_inside_output_code_are_highlighted_in_their_language():
    cpp = MODULE.split("r'''\n")[1].split("'''")[0]
    triton = MODULE.split("'triton_poi_fused_mul_1', '''\n")[1].split("'''")[0]
    found = highlight_embedded(MODULE, "python", [(cpp, "cpp"), (triton, "triton")])
    lines = found.lines
    plain = highlight_lines(MODULE, "python")
    # site.js may draw a kernel's lines from their text, in the kernel's language
    assert found.plain[4] == "cpp" and found.plain[12] == "triton"
    assert len(lines) == len(plain) == MODULE.count("\n")
    assert '<span class="kt">float</span>' in lines[4]  # C++ types, not one string
    assert (
        '<span class="k">import</span>' in lines[10]
        or '<span class="kn">import</span>' in lines[10]
    )
    assert '<span class="nf">triton_poi_fused_mul_1</span>' in lines[12]
    assert lines[9] == plain[9] and lines[15:] == plain[15:]  # the Python around them
    assert "sd" in plain[4] or "s1" in plain[4]  # highlighted alone, it is one string
