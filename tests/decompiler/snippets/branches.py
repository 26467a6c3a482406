"""if/elif/else, conditional expressions, and/or, not, chained comparisons, walrus."""


def grade(score):
    if score >= 90:
        letter = "A"
    elif score >= 80:
        letter = "B"
    elif score >= 70:
        letter = "C"
    else:
        letter = "F"
    return letter


def nested_if(a, b):
    if a:
        if b:
            return "both"
        return "a only"
    elif b:
        return "b only"
    return "neither"


def if_without_else(x):
    result = []
    if x > 0:
        result.append("positive")
    if x % 2 == 0:
        result.append("even")
    return result


def conditional_expression(x):
    sign = "neg" if x < 0 else "zero" if x == 0 else "pos"
    return sign, (x if x else -1)


def conditional_last_in_return(value, scale, flag):
    # 3.10 and 3.12+ copy what follows each of these (the call, the operators, the
    # return) into both arms, which then never meet
    if scale > 9:
        return max(0, value if flag else -value)
    if scale > 5:
        return value + (scale if flag else 2) * 3
    if scale > 2:
        return value, ("neg" if value < 0 else "zero" if value == 0 else "pos")
    if scale < 0:
        raise ValueError(scale, "flagged" if flag else None)
    return [scale, str(value) if flag else None]


def conditional_argument_at_the_end(log, flag):
    # 3.10 and 3.12+ copy the call, the POP_TOP and the return into both arms
    log.append("on" if flag else "off")


def and_or_values(a, b, c):
    return a and b, a or b, a and b or c, (a or b) and c, not a, a and not b


def and_or_conditions(a, b, c):
    if a and b:
        return 1
    if a or c:
        return 2
    if not (b or c):
        return 3
    if (a and b) or (b and c):
        return 4
    return 5


def and_or_values(a, b, c, d):
    first = a and b or c
    second = (a or b) and c
    table = {0: "zero", 1: "one", "": "empty"}
    return first, second, a and b or c and d, table[a and 1 or 0]


def negated_conditional_values(a, b, c):
    first = a if not c else b
    second = a if c is not None else b
    third = [a if not (b and c) else b]
    return first, second, third


def chained_comparison_guard(box, value, limit):
    if not -box["low"] <= int(value) <= limit:
        box["out"] = True
        return "out of range"
    box["count"] = box.get("count", 0) + 1
    return box


def returned_conditionals(x, y):
    if x is None:
        return y if y else None
    return 0 if x == y else 1 if x > y else -1


def returned_from_branches(x, y):
    if x == y:
        return 0
    if x > y:
        return 1
    return -1


def chained_comparison(x, y, z):
    return 0 < x < 10, x < y <= z, x == y == z, x < y > z != 0


def chained_in_condition(lo, x, hi):
    if lo <= x < hi:
        return "inside"
    elif x < lo:
        return "below"
    return "above"


def chained_condition(values, lo, hi):
    calls = []
    if not lo <= (calls.append(values) or len(values)) < hi:
        return "outside", calls
    inside = []
    for v in values:
        if lo < v <= hi:
            inside.append(v)
    if lo <= len(inside) <= hi:
        return "few", inside
    return "many", inside


def chained_evaluates_once(items):
    calls = []

    def middle():
        calls.append("middle")
        return len(items)

    ok = 0 < middle() < 5
    return ok, calls


def chained_values(name, low, high):
    dunder = len(name) > 4 and name[:2] == name[-2:] == "__" and name[2] != "_"
    inside = [low <= len(name) < high, name[:1] == name[-1:] == "_" or not name]
    written = name[:1] == name[-1:] and name[-1:] == "_"
    return dunder, inside, written


def chains_in_conditions(r, g, b, limit):
    if not ((0 <= r <= 255) and (0 <= g <= 255) and (0 <= b <= 255)):
        raise ValueError("bad color")
    assert isinstance(limit, int) and 0 <= limit <= 9
    if limit is not None and 0 <= limit <= r:
        return "below"
    if 0 <= r < g and b < limit <= 9:
        return "inside"
    return "other"


def returned_chain(flag, name):
    return flag and name[:2] == name[-2:] == "__"


def returned_chains(c):
    return b"0" <= c <= b"9" or b"a" <= c <= b"f" or b"A" <= c[:1] <= b"F"


def conditional_conditions(items, strict):
    chosen = [x for x in items if (x > 0 if strict else x)]
    if len(chosen) > 2 if strict else not chosen:
        chosen.append(0)
    return chosen


def generator_in_condition(line, keys):
    if line and all(word in keys for word in line.split()):
        result = sorted(line.split())
    else:
        result = None
    return result


def chain_then_falls_through(p, x):
    if p >= 0.004 < 0.499:
        x += 1
    if 0 <= p < x:
        x -= 3
    return x


def walrus(values):
    if (n := len(values)) > 3:
        return f"long {n}"
    while (item := values.pop() if values else None) is not None:
        if item == "stop":
            break
    return n, item, values


def identity_and_membership(x, seq):
    return x is None, x is not None, x in seq, x not in seq


def early_returns(x):
    if x is None:
        return "none"
    if isinstance(x, str):
        if not x:
            return "empty string"
        return "string"
    return "other"


def ternary_in_call(flag, value):
    return str(value if flag else -value), [value] if flag else []


def value_in_condition(module, value, found, owner):
    # a condition that tests a value made by its own `or` / `and` (pydoc's docmodule)
    if module is not None or (owner(value) or found) is found:
        found.append(value)
    if module and (value and owner(value)) in found:
        found.append("and")
    return found


def value_in_loop_test(found, value):
    while not found or (found[-1] or value) == value:
        found.append(len(found))
        if len(found) > 3:
            break
    return found



def set_mode(mode, box):
    # the body laid out first, the else raising: written so, not as a guard
    if mode == "new" or mode == "cur":
        box["mode"] = mode
    else:
        raise ValueError(mode)


def seek_by(offset, whence, pos):
    # ``if c: pass`` then an elif: a jump past the else, unlike ``if not c:``
    if whence == 0:
        pass
    elif whence == 1:
        offset = pos + offset
    else:
        raise ValueError(whence)
    return offset


def empty_if_body(a, b, log):
    # ``if a: pass`` leaves nothing on the stack: no value for the branches to merge
    if a:
        pass
    log.append(b)
    if a and b:
        pass
    else:
        log.append("else")
    for x in b or ():
        if x:
            pass
        log.append(x)
    return log


def conditional_condition_raises(flag, strict, items):
    # the if's false branches end in copies of the function's return (3.11, 3.13)
    if flag is True:
        if len(items) > 2 if strict else not items:
            raise ValueError(items)


def or_choice_stored(a, d):
    # the store and return copied into the first arm (3.10: the store), so neither
    # arm met the ``or`` (seed 81)
    x = a or ("c" if d else "e")
    return x


def or_choice_returned(a, d):
    return a or ("c" if d else "e")


def or_choice_logged(a, d, log):
    # the call, its pop and the return copied (3.10: the call and its pop)
    log.append(a or ("c" if d else "e"))


CASES = [
    ("conditional_condition_raises", (True, True, [1, 2, 3])),
    ("conditional_condition_raises", (True, True, [1])),
    ("conditional_condition_raises", (True, False, [])),
    ("conditional_condition_raises", (True, False, [1])),
    ("conditional_condition_raises", (False, False, [])),
    ("chained_condition", ([1, 2, 3], 0, 5)), ("chained_condition", ([1, 5, 9], 2, 3)),
    ("chained_condition", ([4], 0, 5)), ("chained_condition", ([], 0, 5)),
    ("grade", (95,)), ("grade", (85,)), ("grade", (75,)), ("grade", (10,)),
    ("nested_if", (1, 1)), ("nested_if", (1, 0)), ("nested_if", (0, 1)), ("nested_if", (0, 0)),
    ("if_without_else", (4,)), ("if_without_else", (-3,)), ("if_without_else", (3,)),
    ("conditional_expression", (-2,)), ("conditional_expression", (0,)),
    ("conditional_expression", (7,)),
    ("conditional_last_in_return", (4, 10, True)), ("conditional_last_in_return", (4, 10, False)),
    ("conditional_last_in_return", (4, 6, True)), ("conditional_last_in_return", (4, 6, False)),
    ("conditional_last_in_return", (-1, 3, 0)), ("conditional_last_in_return", (0, 3, 0)),
    ("conditional_last_in_return", (2, 3, 0)), ("conditional_last_in_return", (2, 1, 1)),
    ("conditional_last_in_return", (2, 1, 0)), ("conditional_last_in_return", (2, -1, 1)),
    ("conditional_last_in_return", (2, -1, 0)),
    ("conditional_argument_at_the_end", ([], 1)), ("conditional_argument_at_the_end", ([], 0)),
    ("and_or_values", (0, 1, 2)), ("and_or_values", (3, 0, 2)), ("and_or_values", ("", [], 5)),
    ("and_or_values", (1, 2, 3)),
    ("chains_in_conditions", (1, 2, 3, 4)), ("chains_in_conditions", (5, 2, 3, 4)),
    ("chains_in_conditions", (1, 2, 3, 9)), ("chains_in_conditions", (1, 300, 3, 4)),
    ("chains_in_conditions", (-1, 2, 3, 4)), ("chains_in_conditions", (1, 2, 3, 10)),
    ("chains_in_conditions", (1, 2, 3, "x")), ("chains_in_conditions", (0, 0, 0, 0)),
    ("conditional_conditions", ([1, -1, 0, 2], True)),
    ("conditional_conditions", ([1, 2, 3], True)),
    ("conditional_conditions", ([1, -1, 0, 2], False)),
    ("conditional_conditions", ([0, 0], False)),
    ("generator_in_condition", ("a b", {"a", "b"})), ("generator_in_condition", ("a c", {"a"})),
    ("generator_in_condition", ("", {"a"})),
    ("chain_then_falls_through", (0.1, 1)), ("chain_then_falls_through", (0.001, 1)),
    ("chain_then_falls_through", (0.5, 0)), ("chain_then_falls_through", (-1, 1)),
    ("returned_chain", (1, "__x__")), ("returned_chain", (1, "_x__")),
    ("returned_chain", (0, "__x__")), ("returned_chain", ("", "")),
    ("returned_chains", (b"5",)), ("returned_chains", (b"c",)), ("returned_chains", (b"Cx",)),
    ("returned_chains", (b"x",)), ("returned_chains", (b"",)),
    ("chained_values", ("__init__", 2, 9)), ("chained_values", ("_x_", 4, 5)),
    ("chained_values", ("", 0, 1)), ("chained_values", ("___", 0, 9)),
    ("chained_comparison_guard", ({"low": 2}, "1", 3)),
    ("chained_comparison_guard", ({"low": 2}, "5", 3)),
    ("chained_comparison_guard", ({"low": 2}, "-3", 3)),
    ("negated_conditional_values", (1, 2, 0)), ("negated_conditional_values", (1, 2, None)),
    ("negated_conditional_values", (1, 2, 3)),
    ("and_or_values", (1, 2, 3, 4)), ("and_or_values", (0, 2, 3, 0)),
    ("and_or_values", (1, 0, "", 4)), ("and_or_values", ("", 0, 3, 4)),
    ("and_or_conditions", (1, 1, 0)), ("and_or_conditions", (1, 0, 0)),
    ("and_or_conditions", (0, 0, 1)), ("and_or_conditions", (0, 0, 0)),
    ("and_or_conditions", (0, 1, 1)), ("and_or_conditions", (0, 1, 0)),
    ("chained_comparison", (5, 6, 6)), ("chained_comparison", (11, 2, 2)),
    ("chained_comparison", (1, 1, 1)),
    ("chained_in_condition", (0, 5, 10)), ("chained_in_condition", (0, -1, 10)),
    ("chained_in_condition", (0, 10, 10)),
    ("chained_evaluates_once", ([1, 2],)), ("chained_evaluates_once", ([],)),
    ("walrus", ([1, 2, 3, 4],)), ("walrus", (["a", "stop", "b"],)), ("walrus", ([],)),
    ("identity_and_membership", (None, [None])), ("identity_and_membership", (2, (1, 3))),
    ("early_returns", (None,)), ("early_returns", ("",)), ("early_returns", ("x",)),
    ("early_returns", (3,)),
    ("ternary_in_call", (True, 3)), ("ternary_in_call", (False, 3)),
    ("returned_conditionals", (None, 2)), ("returned_conditionals", (None, 0)),
    ("returned_conditionals", (1, 1)), ("returned_conditionals", (2, 1)),
    ("returned_conditionals", (0, 1)),
    ("returned_from_branches", (1, 1)), ("returned_from_branches", (2, 1)),
    ("returned_from_branches", (0, 1)),
    ("value_in_condition", (None, 1, [], lambda v: v)),
    ("value_in_condition", ("m", 0, [], lambda v: None)),
    ("value_in_condition", (None, 0, [5], lambda v: None)),
    ("value_in_condition", ("m", 2, [2, 0], lambda v: v)),
    ("value_in_loop_test", ([], 0)), ("value_in_loop_test", ([0], 1)),
    ("value_in_loop_test", ([5], 5)),
    ("set_mode", ("new", {})), ("set_mode", ("cur", {})), ("set_mode", ("x", {})),
    ("seek_by", (3, 0, 10)), ("seek_by", (3, 1, 10)), ("seek_by", (3, 2, 10)),
    ("empty_if_body", (0, 1, [])), ("empty_if_body", (1, 0, [])),
    ("empty_if_body", (1, [0, 2], [])),
    ("or_choice_stored", (0, 1)), ("or_choice_stored", (0, 0)), ("or_choice_stored", (2, 0)),
    ("or_choice_returned", ([], 1)), ("or_choice_returned", ("", 0)),
    ("or_choice_returned", ("a", 0)),
    ("or_choice_logged", (0, 1, [])), ("or_choice_logged", (0, 0, [])),
    ("or_choice_logged", (3, 0, [])),
]
