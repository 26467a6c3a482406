"""site.js draws a long listing's data-file lines and guard lines from their text:
each line it draws must be the markup render's Python code gives that line."""

from pathlib import Path

import pytest
from test_browser import browser, page  # noqa: F401  (fixtures)

from depyf_report.render.codeview import guard_data, guard_link, line_parts, parts_html
from depyf_report.render.highlight import highlighted

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]

HOSTILE = """\
x = "</script><script>alert(1)</script>"  # <b>&amp;</b>
y = '<img src=x onerror=alert(1)>' + f'{a!r}' + r'\\' + b"\\"" + '\\
z = 0x1F + 0X1e + 1_000.5e-3j + .5 + 7j + 0o17 + 0b101
def f(self, cls): return None and True or not False is x in y
class  C: pass
def
g = 1
éa = ñ + 中文 + 𝔘𝔫𝔦 + x\x1c y\x85z\u2028w\ufeff
s = '''one line''' + \"\"\"doc\"\"\" + 'a\\'b' + "unterminated
t = '''starts here
and ends ''' + "ok"
@decorator
async def h(*a, **k) -> None: await x; yield from y; lambda: (x := 1)
constructor = __proto__ + hasOwnProperty + toString
"""

CPP = """\
#include <cstdint>
  #pragma omp parallel for
extern "C" void kernel(const float* __restrict__ in_ptr0, float* out_ptr0) {
    /* a comment */ int64_t x0 = 0x1Fu + 1.5e3f + .5; // tail </script>
    /* starts
       ends */ auto tmp = in_ptr0[x0] ? 'c' : '\\'';
    char* s = "a\\"b" "unterminated
}
"""


def _texts():
    python = [p.read_text() for p in sorted((REPO / "depyf_report" / "render").glob("*.py"))]
    return [(t, "python") for t in [HOSTILE, *python]] + [
        (CPP, "cpp"),
        (CPP, "cuda"),
        (HOSTILE, "triton"),
        (HOSTILE, "text"),
        ("<b>not code</b> & more\n", "html"),
    ]


def test_site_js_highlights_each_plain_line_as_render_does(site, page):  # noqa: F811
    page.goto((site / "index.html").as_uri())
    cases = []
    for text, language in _texts():
        found = highlighted(text, language)
        lines = text.split("\n")
        for line, html, plain in zip(lines, found.lines, found.plain):
            if plain is not None:
                cases.append((line, plain, str(html)))
    assert len(cases) > 3000
    drawn = page.evaluate(
        "cases => cases.map(c => window.depyfHighlight(c[0], c[1]))",
        [[line, language] for line, language, _ in cases],
    )
    wrong = [(c[0], c[2], d) for c, d in zip(cases, drawn) if c[2] != d]
    assert wrong == []


def test_lines_inside_a_multi_line_string_are_drawn_by_render():
    found = highlighted("t = '''a\nb\nc''' + 'd'\ne = 1\n", "python")
    assert found.plain == [None, None, None, "python"]


GUARDS = """\
TREE_GUARD_MANAGER:
+- RootGuardManager
| +- LAMBDA_GUARD: torch._functorch.aot_autograd.utils.top_saved_tensors_hooks ids == None  # _dynamo/output_graph.py:1135 in init_ambient_guards
| +- GuardManager: source=L['args'], accessed_by=FrameLocalsGuardAccessor(key='args', framelocals_idx=0), type=<class 'tuple'>
| | +- LENGTH_CHECK: len(L['args']) == 2                                         # func_name = f"{args[0].__class__.__name__}.{func_name}"  # transformers/utils/deprecation.py:126 in wrapped_func
| | +- TYPE_MATCH: ___check_type_id(L['args'], 1399), type=<class 'tuple'>  # y = f(x)  # model.py:12 in forward (HINT: type tuple)
| | +- ID_MATCH: ___check_obj_id(L['<b>&amp;'], 7)  # </script><img src=x onerror=alert(1)>  # é/model.py:12
| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU), torch.float32)  # model.py:12 model.py:12 in f
|   +- DICT_CONTAINS: not ___dict_contains('a  # b', G['c'])  #   # C:/x/model.py:7
+- no kind here  #
   |  +-   \t
"""


def test_site_js_draws_each_guard_line_as_render_does(site, page):  # noqa: F811
    page.goto((site / "index.html").as_uri())

    def source_href(filename, line):
        return f"fn-f0.html#L{line}" if filename.endswith(("model.py", "deprecation.py")) else None

    cases = []
    for text in GUARDS.splitlines() + HOSTILE.splitlines():
        link = guard_link(text, source_href)
        parts = line_parts(text, link)
        data = guard_data(text, link)
        assert not isinstance(data, dict)
        cases.append((data, str(parts_html(parts))))
    assert any(isinstance(data, list) for data, _ in cases)
    drawn = page.evaluate("cases => cases.map(window.depyfGuardHtml)", [d for d, _ in cases])
    wrong = [(c[0], c[1], d) for c, d in zip(cases, drawn) if c[1] != d]
    assert wrong == []
