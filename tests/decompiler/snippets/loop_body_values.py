"""For loops whose body ends (returns, raises, breaks) with a value of its own still
on the stack above the loop's iterator, so that the block there starts by popping
that value, not the iterator: the for loop took it for a break.
- A comprehension thrown away (3.13 ends an inlined comprehension's loop on a pop of
  the value built, then restores the variable it saved; seeds 318, 1123, 11193 on
  3.13).
- A match statement whose case pops the subject (seeds 400, 11619; every Python),
  or, in a ``while True``, stores it with a capture pattern and breaks to a return:
  the case's code looked like the loop's way out, its test like the loop's (seed
  10321)."""

LOG = []


def list_before_a_return(rows):
    for row in rows:
        [LOG.append(i) for i in row]
        return len(LOG)
    return -1


def filtered_dict_before_a_raise(rows, x):
    for row in rows:
        {i: x for i in row if not i}
        raise KeyError(len(row))


def nested_before_a_return(rows):
    for row in rows:
        [LOG.append((i, j)) for i in row for j in range(i)]
        return len(LOG)


def set_before_a_return_in_an_if(rows):
    for row in rows:
        {LOG.append(i) for i in row}
        if row:
            return 2
    return 3


def list_before_a_break(rows):
    i = "kept"
    for row in rows:
        [LOG.append(i) for i in row]
        break
    else:
        return "else", i
    return i, len(LOG)


def raises_inside(rows):
    try:
        filtered_dict_before_a_raise(rows, 1)
    except KeyError as e:
        return e.args


def match_case_returns_after_the_match(rows, x):
    for row in rows:
        match x:
            case 1:
                LOG.append(row)
            case a:
                return a, 24
        return 3


def match_cases_return(rows, x):
    for row in rows:
        match x:
            case [1, *rest]:
                LOG.append(rest)
                return rest
            case {"k": v}:
                raise KeyError(v)
    return None


def match_case_breaks(rows, x):
    for row in rows:
        match x:
            case 1:
                continue
            case a:
                LOG.append(a)
                break
    else:
        return "else"
    return "broke"


def endless_match_breaks(x, y):
    n = 0
    while True:
        n += 1
        match [x, y]:
            case [0, *rest] if n < 3:
                continue
            case a:
                LOG.append(a)
                break
    return n


def endless_match_returns(items):
    while True:
        match items.pop():
            case 1:
                continue
            case a:
                return a


CASES = [
    ("endless_match_breaks", (0, 1)),
    ("endless_match_breaks", (1, 1)),
    ("endless_match_returns", ([5, 1, 1],)),
    ("match_case_returns_after_the_match", ([1, 2], 1)),
    ("match_case_returns_after_the_match", ([1, 2], 5)),
    ("match_case_returns_after_the_match", ([], 5)),
    ("match_cases_return", ([1], [1, 2, 3])),
    ("match_cases_return", ([1], {"k": 2})),
    ("match_cases_return", ([1], 0)),
    ("match_case_breaks", ([1, 2], 1)),
    ("match_case_breaks", ([1, 2], 3)),
    ("list_before_a_return", ([[1, 2], [3]],)),
    ("list_before_a_return", ([],)),
    ("filtered_dict_before_a_raise", ([],)),
    ("raises_inside", ([[0, 1, 0]],)),
    ("nested_before_a_return", ([[1, 2, 3]],)),
    ("set_before_a_return_in_an_if", ([[], [4, 5]],)),
    ("set_before_a_return_in_an_if", ([[]],)),
    ("list_before_a_break", ([[7, 8]],)),
    ("list_before_a_break", ([],)),
]
