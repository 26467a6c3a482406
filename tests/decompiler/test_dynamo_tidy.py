"""tidy/dynamo.py and its passes, rule by rule, on statements shaped like Dynamo's
simulated code; and where each must leave the code as it was.

Each case is a function body written with the decompiler's temporaries (``_tN``);
the pass's output must read as expected and, run against recording callables,
call the same things with the same arguments in the same order and return the same.
"""

import ast
import textwrap

import pytest

from depyf_report.decompiler.simulation import markers as m
from depyf_report.decompiler.simulation.machine import CodeContext
from depyf_report.decompiler.tidy.dynamo import simplify


class _Defs:
    def __init__(self):
        self.objects = m.ObjectConstants()
        self.lines = None


def _simplified(body: str) -> str:
    source = "def f(a, b):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    tree = ast.parse(source)
    # the code object of a function with the same parameters and no names of ours
    code = compile(
        "def f(a, b): x = out = kept = graph_out_0 = tmp_3 = 0", "<t>", "exec"
    ).co_consts[0]
    ctx = CodeContext(code, _Defs(), structured=True)
    fn = tree.body[0]
    fn.body = simplify(fn.body, ctx, None)
    return ast.unparse(ast.fix_missing_locations(tree))


GRAPH = "__compiled_fn_1_7e32b31e_ed83_40af_b2ba_f04884d4503d"


def _run(source: str):
    log = []

    def recorder(name):
        def call(*args, **kwargs):
            log.append((name, args, kwargs))
            return [name, len(log)]

        return call

    env = {n: recorder(n) for n in ("g", "h", "resume", "resume2", GRAPH)}
    env["__import_torch_dot__dynamo_dot_utils"] = None
    exec(compile(source, "<t>", "exec"), env)
    result = env["f"](1, 2)
    return result, log


def _same(body: str) -> str:
    original = "def f(a, b):\n" + textwrap.indent(textwrap.dedent(body), "    ")
    new = _simplified(body)
    assert _run(new) == _run(original), new
    return new.split("\n", 1)[1]


def test_resume_lists_are_evaluated_away():
    new = _same("""
        out = g(a, b)
        _t3 = out[0]
        _t4 = [out[1]]
        _t5 = _t4[0:1]
        _t5.extend([b])
        _t6 = [_t5]
        _t2 = [()]
        if _t3:
            _t6[0][0:0] = []
            _t7 = [_t6[0]]
            _t8 = [_t2[0]]
            _t9 = _t7[0]
            _t9[0:] = [_t9[1], _t9[0]]
            _t10 = []
            _t11 = resume
            _t12 = _t7[-1]
            del _t7[-1]
            return _t11(_t10, _t7, *_t12)
        return 0
    """)
    assert "resume([], [], b, " in new
    assert "extend" not in new and "_t2" not in new and "_t8" not in new


def test_a_once_used_temporary_is_inlined_next_to_its_use():
    assert _same("_t1 = g\nreturn _t1(a)\n").strip() == "return g(a)"


def test_an_empty_list_built_and_extended_by_nothing_is_dropped():
    new = _same("_t5 = []\n_t7 = []\n_t8 = []\n_t8.extend([])\n_t9 = [_t8]\nreturn g(a)\n")
    assert new.strip() == "return g(a)"


def test_star_of_a_display_in_a_call_is_spread():
    assert _same("_t1 = [a, b]\nreturn g(*_t1)\n").strip() == "return g(a, b)"


def test_a_returned_tuple_is_written_out_in_the_return():
    new = _same("_t3 = (g(a), b)\n_t4 = []\n_t4.extend([])\nreturn _t3\n")
    assert new.strip() == "return (g(a), b)"


def test_the_profiler_pair_becomes_one_comment():
    new = _simplified("""
        _t1 = g
        tmp_2 = (tmp_1 := __import_torch_dot__dynamo_dot_utils.record_pregraph_bytecode_enter)()
        (tmp_3 := __import_torch_dot__dynamo_dot_utils.record_pregraph_bytecode_exit)(tmp_2)
        graph_out_0 = _t1(a, b)
        del tmp_1
        del tmp_3
        return graph_out_0
    """)
    assert "record_pregraph_bytecode" in new and "tmp_" not in new
    assert "graph_out_0 = g(a, b)" in new


def test_a_del_just_before_a_return_goes_and_its_temporary_inlines():
    assert _same("x = g(a)\n_t3 = x[0]\ndel x\nreturn _t3\n").split() == (
        ["x", "=", "g(a)", "return", "x[0]"]
    )


def test_a_graph_outputs_entries_are_read_where_they_are_used():
    new = _same(f"""
        _t1 = {GRAPH}
        graph_out_0 = _t1(a, b)
        _t3 = graph_out_0[0]
        _t19 = graph_out_0[1]
        del graph_out_0
        if _t3:
            return resume([], [], b, _t19)
        return resume2([], [], b, _t19)
    """)
    assert new.split("\n") == [
        f"    graph_out_0 = {GRAPH}(a, b)",
        "    if graph_out_0[0]:",
        "        return resume([], [], b, graph_out_0[1])",
        "    return resume2([], [], b, graph_out_0[1])",
    ]


def test_a_graph_output_read_once_goes_into_its_use():
    new = _same(f"graph_out_0 = {GRAPH}(b, a)\n_t3 = graph_out_0[0]\ndel graph_out_0\nreturn _t3\n")
    assert new.strip() == f"return {GRAPH}(b, a)[0]"


@pytest.mark.parametrize(
    "body",
    [
        # not a compiled graph's call: its result may be anything, its entries may change
        "graph_out_0 = g(a)\n_t3 = graph_out_0[0]\nh(b)\ndel graph_out_0\nreturn _t3\n",
        # stored twice
        f"graph_out_0 = {GRAPH}(a)\n_t3 = graph_out_0[0]\nh(b)\ngraph_out_0 = g(b)\n"
        "return (_t3, graph_out_0)\n",
    ],
)
def test_what_is_not_a_graph_output_keeps_its_order(body):
    new = _same(body)
    assert "graph_out_0_0 = graph_out_0[0]\n    h(b)" in new  # read before the call


def test_dynamos_cached_values_are_freed_at_the_return():
    new = _same(
        f"graph_out_0 = {GRAPH}((tmp_3 := g(a))[0], tmp_3[1])\ndel tmp_3\nreturn graph_out_0[0]\n"
    )
    assert new.strip() == f"return {GRAPH}((tmp_3 := g(a))[0], tmp_3[1])[0]"


def test_a_del_of_a_name_not_bound_by_a_walrus_stays():
    new = _same("tmp_3 = g(a)\ndel tmp_3\nh(b)\nreturn b\n")
    assert "del tmp_3" in new


def test_a_discarded_list_filled_with_nothing_goes():
    assert _same("[].extend([])\n[a].append(b)\nreturn g(a)\n").strip() == "return g(a)"


def test_a_list_extended_by_something_unknown_stays():
    assert "[].extend(g(a))" in _same("[].extend(g(a))\nreturn b\n")


def test_a_temporary_that_stays_is_named_after_what_it_holds():
    new = _same("_t4 = a.real\ng(b)\nx = _t4\n_t5 = g(x)\nreturn (_t5, _t5)\n")
    assert new.split("\n") == [
        "    real = a.real",
        "    g(b)",
        "    x = real",
        "    g_result = g(x)",
        "    return (g_result, g_result)",
    ]


def test_a_new_name_is_new_to_the_function():
    # taken by a local, by a global the code reads, and by a builtin
    new = _same("real = 1\n_t4 = a.real\ng(real)\nprint_ = 2\n_t5 = len\ng(b)\nreturn (_t4, _t5)\n")
    assert "real_2 = a.real" in new and "len_2 = len" in new


def test_an_empty_dict_read_once_is_unpacked_as_nothing():
    assert _same("_t3 = {}\nh(b)\nreturn g(*[], **_t3)\n").split("\n") == [
        "    h(b)",
        "    return g()",
    ]


def test_a_display_read_in_a_loop_is_not_made_there():
    new = _same("_t1 = {}\nfor x in (a, b):\n    h(_t1)\nreturn b\n")
    assert new.split("\n")[0].endswith("= {}")


def test_a_temporary_moves_past_the_unpacking_of_varargs_not_of_any_value():
    def shaped(star: str) -> str:
        source = f"def f(a, *args):\n    _t2 = g\n    _t3 = h(b)\n    return _t2(*{star}, **_t3)\n"
        tree = ast.parse(source)
        code = compile("def f(a, *args): x = 0", "<t>", "exec").co_consts[0]
        fn = tree.body[0]
        fn.body = simplify(fn.body, CodeContext(code, _Defs(), structured=True), None)
        return ast.unparse(tree)

    assert "return g(*args, **h(b))" in shaped("args")
    assert "h_result = h(b)" in shaped("a")  # iterating ``a`` may run code


def test_a_display_read_twice_is_not_built_twice():
    new = _same("_t1 = (a, b)\nh(_t1)\nreturn g(_t1)\n")
    assert "_t1 = (a, b)" in new


# -- where nothing may change --------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        # the list escapes: stored into a name that is not a temporary
        "_t1 = [a]\nkept = _t1\n_t1.append(b)\nreturn h(kept)\n",
        # the list reaches a call that is not the last use, then is read again
        "_t1 = [a]\nh(_t1)\nreturn g(*_t1)\n",
        # an operation the model does not know
        "_t1 = [b, a]\n_t1.sort()\nreturn g(*_t1)\n",
        # read in a loop: written out there, it would be a new list each time round
        "_t1 = [a]\nfor x in (a, b):\n    h(_t1)\nreturn b\n",
    ],
)
def test_lists_that_escape_are_left_alone(body):
    new = _simplified(body)
    assert new == ast.unparse(ast.parse("def f(a, b):\n" + textwrap.indent(body, "    ")))


def test_an_index_out_of_range_still_raises():
    new = _simplified("_t1 = []\n_t2 = _t1[0]\nreturn g(_t2)\n")
    with pytest.raises(IndexError):
        _run(new)


def test_a_call_between_keeps_a_temporary_in_place():
    new = _same("_t1 = g(a)\nh(b)\nreturn _t1\n")
    assert "g_result = g(a)" in new


def test_a_global_load_does_not_move_past_a_call():
    new = _same("_t1 = g\nh(b)\nreturn _t1(a)\n")
    assert "g_2 = g\n" in new


def test_a_temporary_read_twice_stays():
    new = _same("_t1 = g(a)\nh(_t1)\nreturn _t1\n")
    assert "g_result = g(a)" in new


def test_a_temporary_does_not_move_past_what_its_use_evaluates_first():
    new = _same("_t1 = g(a)\nreturn h(b.real, _t1)\n")
    assert "g_result = g(a)" in new


def test_a_temporary_under_a_short_circuit_stays():
    new = _same("_t1 = g(a)\nreturn b and _t1\n")
    assert "g_result = g(a)" in new


def test_a_list_changed_in_a_branch_that_goes_on_is_left_alone():
    body = "_t1 = [a]\nif b:\n    _t1.append(b)\nreturn g(*_t1)\n"
    assert "_t1.append(b)" in _same(body)
