import ast
import random
import subprocess
import sys

import pytest
from synthetic import make_dump

from depyf_report.dump import load_dump
from depyf_report.render.context import ProcessContext
from depyf_report.render.story import (
    function_story,
    guard_function,
    guard_tree_text,
    is_inert,
    is_simple_guard,
    parsed_expression,
    shown_code,
)


def _defs(tree: ast.AST) -> list[str]:
    return [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]


def test_story_file_is_valid_python_with_every_part(site):
    text = (site / "fn-f0.py").read_text()
    tree = ast.parse(text)  # it recompiles
    compile(text, "fn-f0.py", "exec")
    top = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert top[:3] == [
        "source_of_forward_0",
        "guard_0_for_forward_0",
        "transformed_code_0_of_forward_0",
    ]
    assert "guard_0_for_torch_dynamo_resume_in_forward_0_at_13" in top  # the resume function
    assert "forward_0" in _defs(tree) and "forward" in _defs(tree)  # inside, as written
    assert "__compiled_fn_1" in text and "__resume_at_30_2" in text
    assert is_inert(text)


def test_function_page_offers_the_story(site):
    assert 'href="fn-f0.py" download' in (site / "fn-f0.html").read_text()


def test_guard_function_keeps_unparsable_guards_as_comments():
    text = guard_function("g", ["L['x'] == 1", "not python ((", "___check(G['y'])"])
    namespace = {"___check": lambda value: value == 0}
    exec(compile(text, "g", "exec"), namespace)
    assert namespace["g"]({"x": 1}, {"y": 0}) is True
    assert namespace["g"]({"x": 2}, {"y": 0}) is False
    assert namespace["g"]({"x": 1}, {"y": 5}) is False
    assert "# not a Python expression: not python ((" in text
    assert "(L['x'] == 1)\n        and (___check(G['y']))" in text


def test_invalid_code_becomes_comments():
    text = shown_code("f_code", "def f(:\n    pass\n", "missing")
    compile(text, "x", "exec")
    assert text.startswith("# (not valid Python") and "# def f(:" in text
    assert shown_code("f_code", "", "not decompiled") == "# (not decompiled)"


def test_code_is_shown_inside_a_function_that_nothing_calls():
    source = 'def f(x):\n    s = """a\n  b"""\n    return s\n'
    text = shown_code("source_of_f", source, "missing")
    assert text.splitlines()[0].startswith("def source_of_f():")
    assert '    def f(x):\n        s = """a\n  b"""\n        return s' in text  # string kept


# --- a story from a stranger's dump runs nothing ----------------------------------

PWN = "print('pwned')"
HOSTILE_NAMES = [
    f'"""; {PWN}; """',
    f"x\n{PWN}\n",
    f"x\r{PWN}\r",
    f"x\x0c{PWN}",
    f"x\u2028{PWN}\x85{PWN}\x1c{PWN}\x0b{PWN}",
    "x\x00y",
    "# -*- coding: utf-7 -*-\n# -*- coding: utf-7 -*-\n+AAo-print('pwned')",
]
HOSTILE_CODE = [
    f"{PWN}\n",  # top-level statements in a "decompiled" text
    "@print\ndef f(x=print('pwned')) -> print('pwned'):\n    pass\n",
    f"def f():\n    pass\n\x0c{PWN}\n",  # a form feed resets the indentation count
    f"def f():\n    pass\n\r{PWN}\n",
    f"class C:\n    {PWN}\n",
    f"from os import *\n{PWN}\n",
    f"from __future__ import annotations\n{PWN}\n",
    f'x = """\n"""; {PWN}; """\n"""\n',
    "def f():\n    return 1\x00\n",
]


def _run(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def context(tmp_path_factory) -> ProcessContext:
    dump = load_dump(make_dump(tmp_path_factory.mktemp("story") / "dump", graphs=2))
    return ProcessContext.build(dump.processes[0], "")


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_names_from_the_dump_stay_in_comments(context, tmp_path, name):
    fn = context.function("f0")
    fn.qualname = fn.filename = fn.entries[0].compile_id = fn.entries[0].guards.tree = name
    fn.entries[0].guards.guards[0].expression = name
    fn.entries[0].code.decompile_error = fn.name = name
    fn.entries[0].code.decompiled = None
    path = tmp_path / "story.py"
    path.write_text(function_story(context, fn), encoding="utf-8")
    assert is_inert(path.read_text(encoding="utf-8"))
    result = _run(path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@pytest.mark.parametrize("code", HOSTILE_CODE)
def test_code_from_the_dump_is_never_run(context, tmp_path, code):
    fn = context.function("f0")
    fn.source = fn.entries[0].code.decompiled = code
    fn.entries[0].guards.guards[0].expression = "__import__('os').system('echo pwned')"
    fn.entries[0].guards.shape_guards = [f"1 # )\n{PWN}", f"(1,\r{PWN})"]
    path = tmp_path / "story.py"
    path.write_text(function_story(context, fn), encoding="utf-8")
    result = _run(path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


def test_a_guard_is_code_only_where_it_compiles_in_the_guard_function():
    # Each parses alone, but none compiles inside the function: kept as comments,
    # since the story is not compiled again as a whole.
    refused = ["await x", "(__debug__ := 1)", "[(y := 1) for y in x]", "(" * 199 + "1" + ")" * 199]
    text = guard_function("g", ["L['x'] == '#1'", *refused])
    compile(text, "g", "exec")
    assert "(L['x'] == '#1')" in text
    assert text.count("# not a Python expression:") == len(refused)


def test_a_tree_much_like_the_entry_befores_is_written_as_its_changes():
    old = "\n".join(f"| +- CHECK: L['x{i}'] == {i}" for i in range(100))
    new = old.replace("L['x50'] == 50", "L['x50'] == 51")
    text = guard_tree_text(new, old, 1)
    assert text.startswith("the guard tree of cache entry 0 with these changes")
    assert "\n-| +- CHECK: L['x50'] == 50\n+| +- CHECK: L['x50'] == 51\n" in text
    assert len(text) < len(new) / 5
    assert guard_tree_text(old, old, 1) == "the same guard tree as cache entry 0"
    assert guard_tree_text(new, None, 0) == new  # the first entry: the whole tree
    other = "\n".join(f"| +- CHECK: G['y{i}'] == {i}" for i in range(100))
    assert guard_tree_text(other, old, 1) == other  # little in common: the whole tree


SIMPLE_GUARDS = [
    "___check_type_id(L['args'][0]._modules['model'], 94893981848592)",
    "hasattr(L['x'], '_dynamo_dynamic_indices') == False",
    "L['self'].training == True",
    "not ___dict_contains('x', G['y'])",
    "list(dict.keys(L['m']._modules))[11] == '11'",
    "L['m'].variance_epsilon == 1e-06",
    "___check_obj_id(G['torch'].float32, -1)",
    "len(L['xs']) is not None",
]


@pytest.mark.parametrize("text", SIMPLE_GUARDS)
def test_guards_torch_prints_skip_the_parse(text):
    assert is_simple_guard(text)
    assert parsed_expression(text) == text  # what the parse would have given


# Pieces of guard-like text, valid and not: keywords where names go, integers
# with leading zeros, brackets that do not close, a comma too many.
_PIECES = [
    "L", "G", "x", "f", "___check_type_id", "match", "_", "True", "False", "None",
    "if", "not", "is", "in", "lambda", "await", "yield", "and", "or", "class",
    "0", "1", "01", "007", "1e5", "1.5", "-1", "0x1", "1.", "'a'", '"b"', "'it\"s'",
    ".", "[", "]", "(", ")", ", ", ",", " == ", " is ", " is not ", " not in ", " in ",
    "not ", " ", "=", " < ",
]  # fmt: skip


def test_a_guard_the_fast_path_accepts_is_what_the_parse_accepts():
    """Whatever text is_simple_guard takes as a guard, the parse and the compile
    in place take as the same code: the fast path never lets in text that is not
    one expression, and it takes most guards of the simple shape."""
    rng = random.Random(20261126)
    accepted = 0
    for _ in range(60_000):
        text = "".join(rng.choice(_PIECES) for _ in range(rng.randint(1, 12)))
        if is_simple_guard(text):
            accepted += 1
            assert parsed_expression(text) == text, text
    assert accepted > 1_000  # the check saw many texts the fast path took
    for text in ["x.None", "x.if", "not.x", "is(1)", "f(x,)", "01", "f(a) b", "x == 007", "x.True"]:
        assert not (is_simple_guard(text) and parsed_expression(text) != text), text
