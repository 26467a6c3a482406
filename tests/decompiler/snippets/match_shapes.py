"""More shapes of match statements: where the subject is not copied, captures in
every position, or-patterns that bind names, matches inside loops, try and with,
and captures that rebind the subject or a global."""

import contextlib


class Box:
    __match_args__ = ("content",)

    def __init__(self, content, label=None):
        self.content = content
        self.label = label


class Key:
    A = "a"
    B = "b"


SEEN = None


def first_case_uncopied(value):
    match value:  # one case and a default: the case tests the subject itself
        case [a, b]:
            return a + b
        case _:
            return None


def single_case(value):
    hit = False
    match value:
        case Box(label="x"):
            hit = True
    return hit


def star_in_the_middle(value):
    match value:
        case [first, *middle, last]:
            return first, middle, last
        case [*everything]:
            return everything
        case _:
            return "none"


def wildcards_around_a_star(value):
    match value:
        case [_, second, *_, _]:
            return second
        case [*_, last]:
            return last
        case _:
            return "short"


def or_binding_names(value):
    match value:
        case [x, 0] | [0, x]:
            return f"axis {x}"
        case {"a": a, "b": b} | [a, b, _]:
            return a, b
        case Box(content=[n]) | Box(content=n) if n is not None:
            return n
        case _:
            return "other"


def numbers(value):
    match value:
        case -1:
            return "minus one"
        case 1.5:
            return "one and a half"
        case 2j:
            return "imaginary"
        case b"raw":
            return "bytes"
        case False:
            return "false"
        case _:
            return "other"


def dotted_keys(value):
    match value:
        case {Key.A: a, Key.B: [*items]}:
            return a, items
        case {Key.A: a, **others} if others:
            return a, sorted(others)
        case {**everything}:
            return sorted(everything)
        case _:
            return "not a mapping"


def guards(values):
    out = []
    for value in values:
        match value:
            case int(n) if (half := n // 2) > 1:
                out.append(half)
            case str() if not value:
                continue
            case str(text):
                out.append(text.upper())
            case None:
                break
            case x if x:
                out.append(("true", x))
    return out


def nested(value):
    match value:
        case Box(inner):
            match inner:
                case [Box(deep)]:
                    return f"deep {deep}"
                case Box(label=str(name)) as box:
                    return f"labelled {name} {box.content}"
                case _:
                    return f"box {inner}"
        case _:
            return "no box"


def rebinds_subject(value):
    match value:
        case [value] if value > 0:
            return ("one positive", value)
        case [*_]:
            return ("sequence", value)
        case _:
            return ("other", value)


def stores_a_global(value):
    global SEEN
    match value:
        case [SEEN, *_]:
            return SEEN
        case _:
            return None


def captures_a_cell(values):
    found = []

    def record(value):
        nonlocal found
        match value:
            case [*found]:
                pass
            case _:
                found = [value]

    for value in values:
        record(value)
    return found


def inside_try_and_with(value):
    with contextlib.suppress(KeyError):
        try:
            match value:
                case {"key": k}:
                    return {}[k]
                case [k, *_]:
                    raise ValueError(k)
        except ValueError as error:
            return f"value error {error}"
    return "suppressed or unmatched"


def subject_expression(values, index):
    match values[index], index:
        case (0, _):
            return "zero"
        case (x, 1) | (1, x):
            return f"one and {x}"
        case _:
            return "else"



def captures_what_is_left(x, t):
    # a last ``case name:`` on a computed subject: it stores the subject, which the
    # compiler keeps on the stack (read back as a temporary and ``case _: name = _t1``)
    match (x, t % 3):
        case [1, 2]:
            return "pair"
        case (a, b) if a > b:
            return "falling", a, b
        case rest:
            return "rest", rest



def guarded_capture_first(y, g):
    # a first ``case name if guard:`` stores the subject before the guard: read back as
    # ``name = _t1 = y``, an if on the guard and ``match _t1:`` for the other cases
    match y:
        case a if g:
            r = ("a", a)
        case [0, *_]:
            r = "zero"
        case 1 | 2:
            r = "small"
        case _:
            r = "other"
    return r


def match_in_an_if(value, check):
    # the case tests keep the subject on the stack for the next case: the last case
    # goes on to the code after the if, which the if's other branch reaches too
    if not (check and value):
        match value:
            case [first, [second, *rest]]:
                return first, second, rest
            case other:
                pass
    return "end", check


def match_in_a_while(values):
    values, count = list(values), 0
    while values.pop() if len(values) > 1 else count < 3:
        match len(values):
            case 0 | 1:
                count += 1
            case []:
                pass
            case _:
                break
        count += 10
    return count, values


def guarded_capture_later(y, flag):
    # ``case a if flag:`` after another case keeps the subject in a temporary, which
    # the last ``case other:`` stores after cases that raise: a case, not ``other = _t1``
    match y:
        case 5:
            r = "five"
        case a if flag:
            raise ValueError(a)
        case [1, 2]:
            raise KeyError(y)
        case other:
            r = ("other", other)
    return r


def empty_case_then_if(value, log):
    # a case with an empty body, then an if in the default case: two cases, not
    # ``if <pattern> or log:`` (3.10), nor the if's end reached twice (3.11)
    match value:
        case {"k": 0, **rest}:
            pass
        case _:
            if not log:
                log.append("empty")
    return log



def guarded_case_after_a_clause(value, log):
    # the inner clause and the inner body meet at the match, which then meets the
    # outer clause at the return: not a way out of the inner try, which is its else
    try:
        try:
            log.append(len(value))
        except TypeError:
            pass
        match value:
            case [first, *_] if first:
                log.append(first)
    except KeyError:
        log.append("key")
    return ("end", log)


def guarded_capture_then_a_return(value, check, flag, log):
    # the subject stays on the stack under ``case a if flag:``'s guard, and the cases
    # meet at the code after the match, not as a value's branches (seed 96)
    if check:
        match value:
            case a if flag:
                log.append(a)
            case 2:
                return 22
        log.append("after")
    return log


def literal_cases_after_a_guarded_capture(value, flag, log):
    # after ``case a if flag:`` the subject is kept in a temporary, and a literal case
    # compiles to the one test it spells (``_t1 == 2``, ``_t1 is None``): cases again,
    # not an if chain on a local the function never had (random seeds 17, 42)
    match value:
        case (0 | 1) as a:
            log.append(("small", a))
        case a if flag:
            log.append(("flagged", a))
        case 2:
            log.append("two")
        case None:
            log.append("none")
        case -3:
            log.append("minus three")
        case 1 + 2j:
            log.append("complex")
        case "s":
            log.append("string")
        case _:
            log.append("other")
    return log


def literal_cases_after_a_first_guarded_capture(value, flag):
    match value:
        case a if flag:
            r = ("flagged", a)
        case None:
            r = "none"
        case True:
            r = "true"
        case 2.5:
            r = "two and a half"
    return r


def guarded_capture_before_cases_that_end(value, flag):
    # the cases after ``case a if flag:`` come back as a match with another in its
    # default case, both on the kept subject: one match, before the guarded capture
    # is read back (random seed 112)
    match str(value):
        case a if flag:
            raise ValueError(a)
        case "3":
            pass
        case [0, *_]:
            raise KeyError(value)


def guarded_capture_then_a_capture(value, flag, log):
    # ``case a if flag:`` then a last ``case a:``: the second capture stores the kept
    # subject again, in the guard's else (3.10, 3.11) or after a guard that returns
    # (3.12+): the match's last case, not ``a = _t1`` (random seed 408)
    match value % 6:
        case a if flag:
            log.append(("flagged", a))
        case a:
            log.append(("any", a))


def cases_that_end_then_a_guarded_capture(value, flag, log):
    # a literal case that raises, then ``case a if flag:``: the capture's match is the
    # same match, not a second one on the subject kept in a local (random seed 318)
    match str(value % 5):
        case "3":
            raise KeyError(value)
        case a if flag:
            log.append(("flagged", a))
        case [a, [b, *c]]:
            log.append(("nested", a, b, c))
    log.append("after")


def case_that_loops_until_it_returns(value, log):
    # a case whose body is ``while True:`` with no break never goes on: the cases
    # after it are the same match, not a second one (random seed 90)
    match value:
        case [a]:
            while True:
                log.append(a)
                if len(log) > 2:
                    return log
        case [a, [b, *c]]:
            log.append((a, b, c))
    log.append("after")


def alternatives_captured_in_a_nested_match(x, y, log):
    # each alternative of the inner case runs its own copy of the capture and the
    # return (3.10, 3.12+), which read as cases of their own on a temporary (seed 282)
    match x:
        case (0 | 1) as a:
            log.append(a)
            match y:
                case (2 | 3 | "s") as a:
                    return 9
    log.append("after")
    return log


CASES = [
    ("alternatives_captured_in_a_nested_match", (0, 2, [])),
    ("alternatives_captured_in_a_nested_match", (1, "s", [])),
    ("alternatives_captured_in_a_nested_match", (1, 5, [])),
    ("alternatives_captured_in_a_nested_match", (7, 3, [])),
    ("case_that_loops_until_it_returns", ([1], [])),
    ("case_that_loops_until_it_returns", ([1, [2, 3]], [])),
    ("case_that_loops_until_it_returns", (5, [])),
    ("cases_that_end_then_a_guarded_capture", (3, True, [])),
    ("cases_that_end_then_a_guarded_capture", (4, True, [])),
    ("cases_that_end_then_a_guarded_capture", (4, False, [])),
    ("guarded_capture_then_a_capture", (8, True, [])),
    ("guarded_capture_then_a_capture", (8, False, [])),
    ("guarded_capture_before_cases_that_end", (3, False)),
    ("guarded_capture_before_cases_that_end", (3, True)),
    ("guarded_capture_before_cases_that_end", (4, False)),
    ("literal_cases_after_a_guarded_capture", (0, False, [])),
    ("literal_cases_after_a_guarded_capture", (1, False, [])),
    ("literal_cases_after_a_guarded_capture", (2, False, [])),
    ("literal_cases_after_a_guarded_capture", (2.0, False, [])),
    ("literal_cases_after_a_guarded_capture", (None, False, [])),
    ("literal_cases_after_a_guarded_capture", (-3, False, [])),
    ("literal_cases_after_a_guarded_capture", (1 + 2j, False, [])),
    ("literal_cases_after_a_guarded_capture", ("s", False, [])),
    ("literal_cases_after_a_guarded_capture", ([2], False, [])),
    ("literal_cases_after_a_guarded_capture", (2, True, [])),
    ("literal_cases_after_a_first_guarded_capture", (None, False)),
    ("literal_cases_after_a_first_guarded_capture", (True, False)),
    ("literal_cases_after_a_first_guarded_capture", (2.5, False)),
    ("literal_cases_after_a_first_guarded_capture", (2.5, True)),
    ("literal_cases_after_a_first_guarded_capture", (1, False)),
    ("guarded_capture_then_a_return", (2, True, False, [])),
    ("guarded_capture_then_a_return", (2, True, True, [])),
    ("guarded_capture_then_a_return", (3, True, False, [])),
    ("guarded_capture_then_a_return", (3, False, False, [])),
    ("guarded_case_after_a_clause", ([3, 4], [])),
    ("guarded_case_after_a_clause", ([0], [])),
    ("guarded_case_after_a_clause", (5, [])),
    ("guarded_case_after_a_clause", ({}, [])),
    ("first_case_uncopied", ([1, 2],)), ("first_case_uncopied", ((3,),)),
    ("first_case_uncopied", ("ab",)),
    ("single_case", (Box(1, "x"),)), ("single_case", (Box(1, "y"),)), ("single_case", (1,)),
    ("star_in_the_middle", ([1, 2, 3, 4],)), ("star_in_the_middle", ([1],)),
    ("star_in_the_middle", ([],)), ("star_in_the_middle", (3,)),
    ("wildcards_around_a_star", ([1, 2, 3],)), ("wildcards_around_a_star", ([1, 2, 3, 4, 5],)),
    ("wildcards_around_a_star", ([9],)), ("wildcards_around_a_star", ([],)),
    ("or_binding_names", ([5, 0],)), ("or_binding_names", ([0, 7],)),
    ("or_binding_names", ({"a": 1, "b": 2},)), ("or_binding_names", ([1, 2, 3],)),
    ("or_binding_names", (Box([4]),)), ("or_binding_names", (Box(5),)),
    ("or_binding_names", (Box(None),)), ("or_binding_names", ("x",)),
    ("numbers", (-1,)), ("numbers", (1.5,)), ("numbers", (2j,)), ("numbers", (b"raw",)),
    ("numbers", (False,)), ("numbers", (0,)),
    ("dotted_keys", ({"a": 1, "b": [2, 3]},)), ("dotted_keys", ({"a": 1, "c": 2},)),
    ("dotted_keys", ({"a": 1},)), ("dotted_keys", ({"z": 1},)), ("dotted_keys", (5,)),
    ("guards", ([7, 2, "", "ab", 0, [], 3.5, None, 9],)),
    ("nested", (Box([Box(1)]),)), ("nested", (Box(Box(2, "n")),)), ("nested", (Box(3),)),
    ("nested", (4,)),
    ("rebinds_subject", ([5],)), ("rebinds_subject", ([-5],)), ("rebinds_subject", (7,)),
    ("stores_a_global", ([1, 2],)), ("stores_a_global", ("",)),
    ("captures_a_cell", ([[1, 2], 3],)), ("captures_a_cell", ([3, [1, 2]],)),
    ("inside_try_and_with", ({"key": "k"},)), ("inside_try_and_with", ([1, 2],)),
    ("inside_try_and_with", (5,)),
    ("subject_expression", ([0, 1], 0)), ("subject_expression", ([5, 1], 1)),
    ("subject_expression", ([1, 9, 3], 2)), ("subject_expression", ([4, 4, 4], 2)),
    ("match_in_an_if", ([1, [2, 3, 4]], False)), ("match_in_an_if", ([1, 2], False)),
    ("match_in_an_if", ([1, [2]], True)), ("match_in_an_if", ([], True)),
    ("match_in_a_while", ([],)), ("match_in_a_while", ([1, 2, 3],)),
    ("match_in_a_while", ([1, 7],)), ("match_in_a_while", ([1, 0],)),
    ("match_in_a_while", ([4, 0, 0],)), ("match_in_a_while", ([0],)),
    ("guarded_capture_later", (5, True)), ("guarded_capture_later", (6, True)),
    ("guarded_capture_later", ([1, 2], False)), ("guarded_capture_later", ([3], False)),
    ("empty_case_then_if", ({"k": 0}, [])), ("empty_case_then_if", (5, [])),
    ("empty_case_then_if", (5, [1])),
]
