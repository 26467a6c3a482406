import ast

from depyf_report.render.story import guard_function, python_or_comment


def test_story_file_is_valid_python_with_every_part(site):
    text = (site / "fn-f0.py").read_text()
    tree = ast.parse(text)  # it recompiles
    compile(text, "fn-f0.py", "exec")
    defs = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert "forward_0" in defs  # the original source
    assert "guard_0_for_forward_0" in defs  # the guards, as a function
    assert "forward" in defs  # the transformed code
    assert "guard_0_for_torch_dynamo_resume_in_forward_0_at_13" in defs  # the resume function
    assert "__compiled_fn_1" in text and "__resume_at_30_2" in text


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
    text = python_or_comment("def f(:\n    pass\n", "missing")
    compile(text, "x", "exec")
    assert text.startswith("# (not valid Python here") and "# def f(:" in text
    assert python_or_comment("", "not decompiled") == "# (not decompiled)"
