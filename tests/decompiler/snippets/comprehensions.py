"""List, set, dict and generator comprehensions: nested, filtered, scoped."""

SCALE = 3


def list_comp(items):
    return [item * 2 for item in items]


def filtered(items):
    return [item for item in items if item > 0 if item % 2 == 0]


def set_and_dict(words):
    lengths = {len(word) for word in words}
    index = {word: position for position, word in enumerate(words) if word}
    return lengths, index


def nested_for(rows):
    return [cell for row in rows for cell in row if cell is not None]


def nested_comprehension(n):
    return [[i * j for j in range(i)] for i in range(n)]


def comprehension_uses_locals(items, offset):
    limit = offset * 2
    return [item + offset for item in items if item < limit]


def comprehension_uses_globals(items):
    return {item: item * SCALE for item in items}


def loop_variable_does_not_leak(items):
    item = "outer"
    squares = [item * item for item in items]
    return item, squares


def generator_argument(items):
    return sum(x for x in items if x), max((len(str(x)) for x in items), default=0)


def conditional_in_element(items):
    return [x if x % 2 else -x for x in items]


def walrus_in_comprehension(items):
    kept = [y for x in items if (y := x * 2) > 4]
    return kept, y


def dict_comprehension_with_tuple_key(pairs):
    return {(a, b): a * b for a, b in pairs}


def comprehension_in_class():
    class Table:
        size = 3
        rows = [i for i in range(4)]

    return Table.rows, Table.size


def closure_in_comprehension(n):
    functions = [lambda i=i: i * 10 for i in range(n)]
    late = [lambda: i for i in range(n)]  # noqa: B023
    return [f() for f in functions], [f() for f in late]


def comprehension_inside_expression(text, items):
    # 3.12+ run the comprehension inline, with text[-3:], str and len still on the stack
    text = text[-3:] + str(len([x for x in items if x > 1]))
    return text


def comprehension_between_calls(items):
    order = []

    def note(tag, value):
        order.append(tag)
        return value

    total = note("left", 1) + len([note("item", x) for x in items]) + note("right", 2)
    return total, order


def loops_that_append(short, long, table):
    found = []  # a list built by loops, not a comprehension
    for opt in short:
        if opt in table:
            found.append((opt, table[opt]))
    for opt in long:
        if opt in table:
            found.append((opt, table[opt]))
    return found, opt


def comprehension_in_an_or(table, key):
    # the walk of the or's second operand spills the first and walks it again: the
    # comprehension's loop must read as a loop the second time too
    return table.get(key) or table.setdefault(key, [k * 2 for k in table])


def first_group_lengths(candidates, result):
    # a for loop that breaks in its first round, with a comprehension (inlined on
    # 3.12+, a loop of its own inside the body) before the break
    for i in range(len(candidates), 0, -1):
        result.extend([len(text) for text in candidates[:i]])
        break


def discarded_comprehensions(xs):
    """Comprehensions as statements: 3.12+ inline them, and their variables keep their
    own scope (the outer ``i`` stays 5), cells and walrus targets included."""
    i = j = 5
    out = []
    [out.append(i) for i in xs]
    {out.append(i) for i in xs if i}
    {i: out.append(i) for i in xs}
    [[out.append(j) for j in range(i)] for i in xs]
    [lambda: i for i in xs]
    [(last := i) for i in xs]
    return i, j, out, last, (lambda: i)()


def discarded_comprehension_of_a_global(xs):
    global LOOP_NAME
    [LOOP_NAME for LOOP_NAME in xs]
    return LOOP_NAME


LOOP_NAME = "global"


def comprehensions_in_value_branches(a, b):
    """A value that depends on a test, a comprehension in one of its arms: 3.12+
    run the comprehension's loop inline, in the arm."""
    first = a or [z for z in b]
    second = a and [z for z in b] or b
    third = (a or [z for z in b]) and {z: 1 for z in b}
    return first, second, third, a if b else [z for z in b], list(a or [z for z in b])


def single_item_loops(items):
    """``for z in [x]`` inside a comprehension compiles to an assignment."""
    pairs = [(z, w) for x in items for z, w in [(x, x * 2)]]
    kept = [z for x in items if x for z in [x] if z or not z]
    return pairs, kept, {z: x for x in items for z in (x * 3,) if not z}


def comprehension_over_a_comprehension(items):
    """The inner loop runs before the outer accumulator is made (3.12+ inline both):
    left as a loop, it would write the function's own ``i``."""
    i = "kept"
    [g() for g in [lambda: i for i in items]]
    doubled = [g * 2 for g in reversed([i for i in items if i])]
    pairs = {g: h for g in {i for i in items} for h in [j for j in range(g)]}
    return i, doubled, pairs


# at module level: the inner comprehension's variable is no module name
OVER_A_COMPREHENSION = [k + 1 for k in [k * 2 for k in range(3)]]


def walrus_to_a_global(xs):
    """A walrus in a comprehension stores the global the function declares: not
    ``for WALRUS_GLOBAL in [x]``, a name of the comprehension's own."""
    global WALRUS_GLOBAL
    big = [WALRUS_GLOBAL for x in xs if (WALRUS_GLOBAL := x) > 1]
    return big, WALRUS_GLOBAL


WALRUS_GLOBAL = "global"


def comprehension_leaves_its_name_unbound(items, bound):
    """An inlined comprehension (3.12+) saves and restores the local of its
    variable's name; unbound before, it is unbound after (random seeds 584, 1323,
    1758, 1959 on 3.12: the state machine restored None)."""
    i = "outer"
    if not bound:
        del i
    doubled = [i * 2 for i in items]
    return doubled, i


def comprehensions_side_by_side(xs, mark):
    """Two comprehensions in one value: 3.12+ runs both inlined loops before building
    the tuple, and the first comes back in its place, not as a loop over a local the
    function never had."""
    x = "outer"
    value = ([mark(x) for x in xs if x], {x: 1 for x in xs}, [x * 2 for x in xs])
    return value, x


def dict_key_kept_across_an_inlined_value(xs, log):
    """3.12+ keep a dict comprehension's key in a temporary while the comprehension in
    its value runs inlined: the key comes back in its place, evaluated first, not as
    ``for _t2 in [key(x)]``, a name of the comprehension's own (random seed 98)."""

    def key(x):
        log.append(("key", x))
        return -x

    return {key(x): {log.append(("value", x)) or j for j in xs if j != x} for x in xs if x}, log


def comprehensions_added_in_place(out, items, a=5):
    """3.12+: ``+=`` on two comprehensions over the same name as a local; the first
    was left as its loop, which set ``a`` (the simulation drops the store that
    restores it): it falls back now (found by hand on 3.12, a wrong result)."""
    out += [a for a in items] + [a for a in items]
    return out, a


CASES = [
    ("dict_key_kept_across_an_inlined_value", ([0, 1, 2], [])),
    ("comprehensions_side_by_side", ([0, 1, 2], str)),
    ("comprehension_leaves_its_name_unbound", ([1, 2], True)),
    ("comprehension_leaves_its_name_unbound", ([1, 2], False)),
    ("comprehension_leaves_its_name_unbound", ([], False)),
    ("comprehension_over_a_comprehension", ([0, 1, 2],)),
    ("walrus_to_a_global", ([1, 2, 3],)),
    ("single_item_loops", ([0, 1, 2],)),
    ("comprehensions_in_value_branches", (0, [1, 2])),
    ("comprehensions_in_value_branches", ([3], [])),
    ("discarded_comprehensions", ([1, 0, 2],)),
    ("discarded_comprehension_of_a_global", ([1, 2],)),
    ("comprehension_in_an_or", ({"a": 1}, "a")), ("comprehension_in_an_or", ({"a": 1}, "b")),
    ("list_comp", ([1, 2, 3],)), ("list_comp", ([],)),
    ("filtered", ([-2, -1, 0, 1, 2, 3, 4],)),
    ("set_and_dict", (["a", "bb", "", "cc"],)),
    ("nested_for", ([[1, None, 2], [], [3]],)),
    ("nested_comprehension", (4,)),
    ("comprehension_uses_locals", ([1, 5, 9], 3)),
    ("comprehension_uses_globals", ([1, 2],)),
    ("loop_variable_does_not_leak", ([2, 3],)),
    ("generator_argument", ([0, 5, 10, 200],)), ("generator_argument", ([],)),
    ("conditional_in_element", ([1, 2, 3],)),
    ("walrus_in_comprehension", ([1, 2, 3, 4],)),
    ("dict_comprehension_with_tuple_key", ([(1, 2), (3, 4)],)),
    ("comprehension_in_class", ()),
    ("closure_in_comprehension", (3,)),
    ("loops_that_append", (["a", "b"], ["cc", "dd"], {"b": 1, "cc": 2})),
    ("comprehension_inside_expression", ("abcdef", [0, 1, 2, 3])),
    ("comprehension_between_calls", ([5, 6],)),
    ("first_group_lengths", (["ab", "c"], [])), ("first_group_lengths", ([], [])),
    ("comprehensions_added_in_place", ([], [1, 2])),
]
