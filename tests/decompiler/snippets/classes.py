"""Classes: bases, keywords, metaclasses, decorators, super(), __class__,
properties, class and static methods, name mangling, nested classes."""

import dataclasses

LOG = []


def register(cls):
    LOG.append(("registered", cls.__name__))
    cls.registered = True
    return cls


class Meta(type):
    def __new__(mcs, name, bases, namespace, **kwargs):
        namespace["made_by_meta"] = sorted(kwargs)
        return super().__new__(mcs, name, bases, namespace)

    def __init__(cls, name, bases, namespace, **kwargs):
        super().__init__(name, bases, namespace)


class Base:
    kind = "base"

    def __init__(self, value):
        self.value = value

    def describe(self):
        return f"{self.kind}:{self.value}"

    def __init_subclass__(cls, flavour=None, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.flavour = flavour


@register
class Child(Base, flavour="sweet"):
    """A child class."""

    kind = "child"
    __secret = "mangled"

    def __init__(self, value, extra=0):
        super().__init__(value)
        self.extra = extra

    def describe(self):
        return "child of " + super().describe()

    def which_class(self):
        return __class__.__name__

    def secret(self):
        return self.__secret, self._Child__secret

    @property
    def doubled(self):
        return self.value * 2

    @doubled.setter
    def doubled(self, new):
        self.value = new // 2

    @classmethod
    def make(cls, value):
        return cls(value, extra=1)

    @staticmethod
    def helper(x):
        return x + 1

    def __repr__(self):
        return f"Child({self.value!r}, {self.extra!r})"

    def __eq__(self, other):
        return isinstance(other, Child) and (self.value, self.extra) == (other.value, other.extra)

    __hash__ = None


class WithMeta(Base, metaclass=Meta, answer=42):
    pass


@dataclasses.dataclass(frozen=True)
class Point:
    x: int
    y: int = 0

    def norm1(self):
        return abs(self.x) + abs(self.y)


class Outer:
    class Inner:
        def name(self):
            return type(self).__qualname__

    def make_inner(self):
        return self.Inner()


class Conditional:
    if len("abc") == 3:
        chosen = "three"
    else:
        chosen = "other"
    for _i in range(3):
        pass
    squares = {n: n * n for n in range(3)}


def use_child(value):
    child = Child(value, 2)
    child.doubled = 10
    return (
        child.describe(),
        child.which_class(),
        child.secret(),
        child.doubled,
        Child.make(1),
        Child.helper(1),
        repr(child),
        Child.registered,
        Child.flavour,
        Child.__doc__,
    )


def use_meta():
    return WithMeta.made_by_meta, WithMeta(3).describe(), type(WithMeta).__name__


def use_dataclass(x, y):
    point = Point(x, y)
    try:
        point.x = 5
    except dataclasses.FrozenInstanceError:
        frozen = True
    return point, point.norm1(), frozen, Point(1) == Point(1, 0)


def use_nested():
    return Outer().make_inner().name(), Conditional.chosen, Conditional.squares


def super_with_arguments():
    class A:
        def hello(self):
            return "A"

    class B(A):
        def hello(self):
            return "B" + super(B, self).hello()

    return B().hello()


class DeclaresGlobal:
    """A class body whose ``global`` sends its store to the module."""

    global COUNTED_AT_DEFINITION
    COUNTED_AT_DEFINITION = len(LOG)
    kept = "class attribute"


class ChainedTargets:
    """Chained assignments with unpacking targets, private names among them."""

    pair = [__first, second] = __copy = (1, 2)
    nothing = [] = ()
    parts = {}
    parts[len(LOG)], parts["count"] = len(parts), len(LOG)
    first_seen = __first
    i = "class attribute"
    [LOG.append(i) for i in range(2)]
    squares = LOG[:0] or [n * n for n in range(3)]
    doubled = [d for n in range(3) for d in [n * 2]]


def use_declares_global():
    return COUNTED_AT_DEFINITION, "COUNTED_AT_DEFINITION" in vars(DeclaresGlobal)



def comprehensions_in_class_body(items):
    """Comprehension variables (kept in the frame, not the class, on 3.12+), also one
    shadowing another, beside a loop (which a state machine may have to write)."""

    class Holder:
        j = "class j"
        rest = items
        while rest and len(rest) > 5:
            rest = rest[1:]
        squares = {j: j * j for j in rest}
        pairs = [([j for j in range(k)], j) for j in rest for k in (1, 2)]
        firsts = [x for x in rest if x]

    return sorted(vars(Holder)), Holder.j, Holder.squares, Holder.pairs, Holder.firsts

SHADOWED = "global"


def comprehension_reads_past_the_class(items):
    """A comprehension in a class body reads the function's variable and the global,
    never the class's own names of the same spelling: also where a state machine writes
    the class body (the loop), the comprehension's loop inlined into it on 3.12+."""
    shadowed_free = "function"

    class Holder:
        shadowed_free = SHADOWED = "class"
        rest = items
        while rest and len(rest) > 5:
            rest = rest[1:]
        seen = [(shadowed_free, SHADOWED) for _ in rest]

    return Holder.seen, Holder.shadowed_free


class SliceAugmented:
    """``a[i:j] += v`` by name (3.12+ copy the three parts): the class namespace holds
    no temporary for ``a`` at any point, as ``locals()`` shows."""

    kept = [1, 2]
    kept[:1] += [9]
    names = sorted(locals())


def use_slice_augmented():
    return SliceAugmented.names, SliceAugmented.kept


class _Suppress:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return True


def loop_that_ends_the_class_body(n):
    """The loop's only way out is its break, so the rest of the class body is written
    at the break, the class body's end (its return, 3.13's ``__classcell__``) too: no
    return may stay inside the class statement."""

    class Holder:
        seen = []
        while True:
            seen.append(len(seen))
            if len(seen) < 9:
                seen.append(n)
                with _Suppress():
                    raise ValueError(len(seen))
                if len(seen) > 3:
                    break
            else:
                raise ValueError(9)
        after = seen[:]

        def own(self):
            return __class__

    return Holder.after, Holder().own() is Holder


CASES = [
    ("loop_that_ends_the_class_body", (7,)),
    ("use_slice_augmented", ()),
    ("comprehension_reads_past_the_class", ([0, 1],)),
    ("use_declares_global", ()),
    ("use_child", (4,)),
    ("use_meta", ()),
    ("use_dataclass", (1, -2)),
    ("use_nested", ()),
    ("super_with_arguments", ()),
    ("comprehensions_in_class_body", ([0, 1, 2],)),
    ("comprehensions_in_class_body", ([],)),
]
