"""Closures, nonlocal and global: cells created, read, rebound and deleted."""

COUNTER = 0


def make_adder(n):
    def add(x):
        return x + n

    return add


def make_counter(start):
    count = start

    def increment(step=1):
        nonlocal count
        count += step
        return count

    return increment


def use_counter(start):
    increment = make_counter(start)
    return [increment(), increment(5), increment()]


def bump_global(by):
    global COUNTER
    COUNTER += by
    return COUNTER


def reset_global():
    global COUNTER
    del COUNTER
    COUNTER = 0
    return "reset"


def nested_three_levels(a):
    def middle(b):
        def inner(c):
            return a + b + c

        return inner

    return middle(10)(100)


def closure_over_loop(n):
    functions = []
    for i in range(n):

        def capture(i=i):
            return i * i

        functions.append(capture)
    return [f() for f in functions]


def cell_also_argument(x):
    def show():
        return f"x is {x}"

    x = x * 2
    return show()


def class_in_function(value):
    class Holder:
        stored = value

        def get(self):
            return value, self.stored

    return Holder().get()


def nonlocal_in_loop(items):
    total = 0

    def add(item):
        nonlocal total
        total += item

    for item in items:
        add(item)
    return total


def make_pair(prefix):
    def label(name):
        return f"{prefix}:{name}"

    def labels(*names):
        return [label(name) for name in names]

    return labels


def lambda_closure(base):
    return list(map(lambda x: x + base, [1, 2]))


def deleted_cell():
    value = "set"

    def read():
        return value

    del value
    return read()


def unused_nonlocal():
    a = 1

    def f():
        nonlocal a  # the cell is all there is to it: types.CellType is made so

    return f.__closure__[0].cell_contents


def chained_nonlocal_store():
    hits = misses = 5

    def clear():
        nonlocal hits, misses
        hits = misses = 0

    clear()
    return hits, misses


def parallel_assignment_to_a_cell(items):
    # three names, the last a cell: 3.10 rotates the values (ROT_THREE, ROT_TWO) and
    # stores the cell as the others; not two values kept in temporaries (seed 177)
    first, rest, count = items[0], items[1:], len(items)

    def counted():
        return count

    return first, rest, counted()


CASES = [
    ("parallel_assignment_to_a_cell", ([4, 5, 6],)),
    ("chained_nonlocal_store", ()),
    ("unused_nonlocal", ()),
    ("use_counter", (0,)), ("use_counter", (10,)),
    ("bump_global", (2,)), ("bump_global", (3,)),
    ("reset_global", ()),
    ("nested_three_levels", (1,)),
    ("closure_over_loop", (4,)),
    ("cell_also_argument", (3,)),
    ("class_in_function", ("v",)),
    ("nonlocal_in_loop", ([1, 2, 3],)),
    ("lambda_closure", (5,)),
    ("deleted_cell", ()),
]

# (factory, its arguments, calls to make on the closure it returns): the closure
# is decompiled on its own, which must give source that recompiles by itself.
STANDALONE = [
    ("make_adder", (5,), [(1,), (-5,)]),
    ("make_counter", (3,), [(), (2,), ()]),
    ("make_pair", ("p",), [("a", "b"), ()]),
]
