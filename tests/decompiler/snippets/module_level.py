"""A whole module: statements at module level, classes, nested functions, state."""

import sys

LOG = []
VERSION = sys.version_info[:2]
GENERATOR = type((lambda: (yield))())  # a generator lambda, as _collections_abc makes one

if VERSION >= (3, 11):
    FEATURE = "new"
elif VERSION >= (3, 10):
    FEATURE = "old"
else:
    FEATURE = "ancient"

TABLE = {}
for _key in ("a", "b", "c"):
    if _key == "b":
        continue
    TABLE[_key] = len(TABLE)
else:
    LOG.append("table built")

# More than 16 pairs: 3.11+ build it one pair at a time, in two chunks.
CODES = {
    0x00: "nul", 0x0D: "cr", 0x80: "a", 0x81: "b", 0x82: "c", 0x83: "d", 0x84: "e", 0x85: "f",
    0x86: "g", 0x87: "h", 0x88: "i", 0x89: "j", 0x8A: "k", 0x8B: "l", 0x8C: "m", 0x8D: "n",
    0x8E: "o", 0x8F: "p", 0x90: "q", 0x91: "r", 0x92: "s", 0x93: "t", 0x94: "u", 0x95: "v",
}

try:
    from math import tau as TAU
except ImportError:
    TAU = 6.28
else:
    LOG.append("imported tau")
finally:
    LOG.append("import attempted")

while len(LOG) < 5:
    LOG.append(len(LOG))

with open(__file__ if "__file__" in globals() else sys.executable, "rb") as _handle:
    HAS_BYTES = bool(_handle.read(1))

del _handle
SQUARES = [n * n for n in range(5)]
FIRST, *OTHERS = SQUARES
assert FIRST == 0, "squares start at zero"


class Shape:
    sides = 0
    registry = []

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        Shape.registry.append(cls.__name__)

    def area(self):
        raise NotImplementedError(type(self).__name__)


class Square(Shape):
    sides = 4

    def __init__(self, side):
        self.side = side

    def area(self):
        def squared(x):
            return x * x

        return squared(self.side)


def shapes_report(sizes):
    report = []
    for size in sizes:
        shape = Square(size) if size else Shape()
        try:
            report.append(shape.area())
        except NotImplementedError as error:
            report.append(f"abstract {error}")
    return report, Shape.registry


def module_state():
    return FEATURE, TABLE, LOG, HAS_BYTES, SQUARES, OTHERS, round(TAU, 2)


lambda_at_module_level = lambda: FEATURE  # noqa: E731

LEFT, RIGHT = "right", "left"
LEFT, RIGHT = RIGHT, LEFT  # module names: the compiler keeps the swap before the stores


def swap_sides():
    # 3.12+ decompile its return with temporaries named _t1 and _t2, like the module's
    global LEFT, RIGHT
    LEFT, RIGHT = RIGHT, LEFT
    table = {LEFT: RIGHT}
    return table.get(LEFT) or table.setdefault(RIGHT, [side for side in table])


# 3.12+ run the comprehension inline, with LOG.extend on the stack: the temporary the
# walk keeps it in goes back, or the module would gain a global named _t1
LOG.extend([square for square in SQUARES if square % 2])

# Chained assignments with unpacking targets: no temporary between the targets.
PAIR = [PAIR_FIRST, *PAIR_REST] = PAIR_COPY = (1, 2)
EMPTY = [] = ()
# Values computed side by side, then stored to subscripts and attributes in turn.
PARTS = {}
PARTS[len(LOG)], Shape.extra = len(PARTS), LOG[:1]

# A comprehension as a statement keeps its own scope: _key stays "c".
[LOG.append(_key) for _key in "xy"]
# A value that depends on a test, with a comprehension in one arm (run inline 3.12+).
ODD_SQUARES = LOG[:0] or [square for square in SQUARES if square % 2]

try:
    _sysrand  # noqa: B018  a name like the decompiler's own, read for its NameError
except NameError:
    LOG.append("no _sysrand")

if __name__ == "__main__":
    LOG.append("never: run as a snippet, not as a script")

CASES = [
    ("shapes_report", ([2, 0, 3],)),
    ("module_state", ()),
    ("lambda_at_module_level", ()),
    ("swap_sides", ()),
]
