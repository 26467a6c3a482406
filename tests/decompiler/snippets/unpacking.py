"""Starred unpacking, swaps, augmented assignment, subscripts, slices and del."""


class Bag:
    pass


def starred_assignment(items):
    first, *middle, last = items
    head, *tail = items
    return first, middle, last, head, tail


def nested_unpacking(pairs):
    (a, b), [c, *d] = pairs
    return a, b, c, d


def swap(a, b, c):
    a, b = b, a
    a, b, c = c, a, b
    return a, b, c


def starred_displays(a, b, mapping):
    return [*a, *b], (*a, 0), {*a, *b}, {**mapping, "extra": 1, **{"k": 2}}, [*a, *b][1:]


def starred_call(args, kwargs):
    return max(*args), dict(**kwargs), list(zip(*[args, args]))


def augmented(values):
    total = 0
    total += values[0]
    total -= 1
    total *= 3
    total //= 2
    total **= 2
    total %= 1000
    total |= 8
    total &= 0xFFF
    total ^= 5
    total <<= 1
    total >>= 1
    values[0] += 100
    bag = Bag()
    bag.n = 1
    bag.n += 41
    return total, values, bag.n


def subscripts_and_slices(seq):
    return seq[0], seq[-1], seq[1:], seq[:2], seq[::2], seq[1:-1:1], seq[:], seq[slice(1, 2)]


def slice_assignment(seq):
    seq = list(seq)
    seq[1:3] = ["x"]
    seq[::2] = seq[::2]
    seq[0], seq[-1] = seq[-1], seq[0]
    return seq


def deletions(mapping, seq):
    mapping = dict(mapping)
    seq = list(seq)
    del mapping["a"]
    del seq[0], seq[-1]
    del seq[1:2]
    bag = Bag()
    bag.x = 1
    del bag.x
    local = 5
    del local
    try:
        return local
    except UnboundLocalError:
        return mapping, seq, hasattr(bag, "x")


def chained_assignment(x):
    a = b = c = x
    first = items = [a, b, c]
    items.append(1)
    return first, items


def multiple_targets(value):
    d = {}
    d["k"], d["j"] = value, value * 2
    bag = Bag()
    bag.a, bag.b = divmod(value, 3)
    return d, bag.a, bag.b


class Logged:
    """Logs every attribute read and write, in order."""

    def __init__(self, log):
        object.__setattr__(self, "log", log)
        object.__setattr__(self, "count", 0)

    def __getattribute__(self, name):
        if name != "log":
            object.__getattribute__(self, "log").append(("get", name))
        return object.__getattribute__(self, name)

    def __setattr__(self, name, value):
        self.log.append(("set", name, value))
        object.__setattr__(self, name, value)


def _picked(log, value):
    log.append(("pick", value if isinstance(value, str) else type(value).__name__))
    return value


def chained_attribute_targets(log):
    box = Logged(log)
    box.a = box.b = len(log)
    store = {}
    store[len(log)] = box.c = total = len(log) + 1
    _picked(log, store)[_picked(log, "k")] = box.d = _picked(log, "v")
    return box.a, box.b, box.c, box.d, total, store


def augmented_on_computed_targets(log):
    box = Logged(log)
    box.inner = Logged(log)
    box.inner.count += 1
    _picked(log, box).count += len(log)
    store = {"k": 1}
    _picked(log, store)[_picked(log, "k")] += 2
    box.inner.count += box.count
    return box.inner.count, box.count, store


def unpacking_errors(items):
    a, b = items
    return a, b


def two_calls_two_names(lines):
    first, second = lines.pop(0), lines.pop(0)  # 3.10: ROT_TWO between the calls and stores
    return first, second


def tuple_to_locals(log):
    first, second = _picked(log, 1), _picked(log, 2)
    a, b, c = _picked(log, "a"), _picked(log, "b"), _picked(log, "c")
    return first, second, a, b, c



class Slots:
    pass


def swap_items(items, i, j):
    # targets other than names: the values, a swap, then each target in turn
    items[i], items[j] = items[j], items[i]
    return items


def swap_attributes(first, second):
    a, b = Slots(), Slots()
    a.sign, b.sign = first, second
    a.sign, b.sign = b.sign, a.sign
    return a.sign, b.sign


def targets_computed_in_turn(items, keys):
    # each target's parts after the values, left to right, as the statement runs them
    items[keys.pop()], items[keys.pop()], last = keys.pop(), items[0], len(keys)
    return items, keys, last



def unpacked_and_kept(pairs):
    # ``a, b = c = v``: one value unpacked and kept, in that order
    first, second = whole = pairs.pop()
    return first, second, whole, pairs


def slice_swapped(items):
    taken, items[:] = items[:], []
    return taken, items


def nested_target_swapped(box, x, y):
    box.p, (b, c) = x, y
    return box.p, b, c


def empty_targets(items):
    """``[] = v`` checks ``v`` is empty (and raises otherwise); in a chain, nested,
    as a loop or with target too."""
    a = [] = items
    first, [] = 1, items
    count = 0
    for [] in [items, ()]:
        count += 1
    return a, first, count


def chained_unpacking_targets(value, log):
    whole = [head, *rest] = copy = value
    box = Logged(log)
    box.a = (x, [y, *z]) = _picked(log, {})[_picked(log, "k")] = (0, value)
    return whole, head, rest, copy, x, y, z, box.a


def parallel_targets(log, values):
    """``T1, T2 = v1, v2`` with targets other than names: the values first, then
    each target in turn, its parts evaluated just before its store."""
    box = Logged(log)
    store = {}
    _picked(log, store)[_picked(log, "k")], box.a = _picked(log, 1), _picked(log, 2)
    box.b, store[len(log)], [first, *rest] = len(log), _picked(log, "v"), values
    return store, box.a, box.b, first, rest


CASES = [
    ("parallel_targets", ([], [1, 2])), ("parallel_targets", ([], [])),
    ("empty_targets", ([],)), ("empty_targets", ([1],)),
    ("chained_unpacking_targets", ([1, 2, 3], [])), ("chained_unpacking_targets", ([], [])),
    ("two_calls_two_names", ([1, 2, 3],)),
    ("starred_assignment", ([1, 2, 3, 4],)), ("starred_assignment", ([1, 2],)),
    ("starred_assignment", ([1],)),
    ("nested_unpacking", (((1, 2), [3, 4, 5]),)),
    ("swap", (1, 2, 3)),
    ("starred_displays", ([1, 2], (3,), {"m": 0})),
    ("starred_call", ([3, 9, 2], {"a": 1})),
    ("augmented", ([7],)),
    ("subscripts_and_slices", ([1, 2, 3, 4, 5],)), ("subscripts_and_slices", ("abcdef",)),
    ("slice_assignment", ([1, 2, 3, 4, 5],)),
    ("deletions", ({"a": 1, "b": 2}, [1, 2, 3, 4, 5])),
    ("chained_assignment", (7,)),
    ("multiple_targets", (10,)),
    ("chained_attribute_targets", ([],)),
    ("augmented_on_computed_targets", ([],)),
    ("unpacking_errors", ([1, 2],)), ("unpacking_errors", ([1, 2, 3],)), ("unpacking_errors", ([],)),
    ("tuple_to_locals", ([],)),
    ("swap_items", ([1, 2, 3], 0, 2)), ("swap_items", ([1, 2], 0, 5)),
    ("swap_attributes", (1, -1)),
    ("targets_computed_in_turn", ([0, 0, 0], [1, 2, 0, 1])),
    ("targets_computed_in_turn", ([0, 0], [1])),
    ("unpacked_and_kept", ([(1, 2), (3, 4)],)), ("unpacked_and_kept", ([(1, 2, 3)],)),
    ("slice_swapped", ([1, 2],)),
    ("nested_target_swapped", (Slots(), 1, (2, 3))), ("nested_target_swapped", (Slots(), 1, 2)),
]
