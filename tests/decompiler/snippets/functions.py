"""Lambdas, decorators, defaults, keyword-only and positional-only parameters,
annotations, docstrings, star arguments and calls."""

import functools

LOG = []


def logged(function):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        LOG.append(function.__name__)
        return function(*args, **kwargs)

    return wrapper


def tagged(tag):
    def decorate(function):
        function.tag = tag
        return function

    return decorate


def defaults(a, b=2, c="three", d=None):
    """Parameters with defaults."""
    return a, b, c, d


def keyword_only(a, *, scale=10, shift):
    return a * scale + shift


def positional_only(a, b=5, /, c=6, *, d=7):
    return a, b, c, d


def star_args(first, *rest, **options):
    return first, rest, sorted(options.items())


def annotated(x: int, y: "str" = "s", *args: float, z: list[int] | None = None, **kw: bool) -> dict:
    return {"x": x, "y": y, "args": args, "z": z, "kw": kw}


@logged
def decorated(x):
    return x + 1


@tagged("fast")
@logged
def stacked(x):
    return x * 2


def use_stacked(x):
    return stacked(x), stacked.tag, stacked.__name__


def lambdas(values):
    double = lambda x: x * 2  # noqa: E731
    pick = lambda x, default=None, *rest, key=len, **kw: (x, default, rest, key, kw)  # noqa: E731
    return [double(v) for v in values], pick(1, 2, 3, key=4, extra=5), sorted(values, key=lambda v: -v)


def calls(*values, **named):
    return defaults(*values[:2], **named), keyword_only(1, **{"shift": 2}), star_args(*values, x=1, **named)


def mutable_default(item, bucket=[]):  # noqa: B006
    bucket.append(item)
    return list(bucket)


def default_expressions(a=1 + 2, b=(1, 2), c=-5, d=len("four")):
    return a, b, c, d


def recursion(n):
    return 1 if n <= 1 else n * recursion(n - 1)


def docstring_only():
    """Only a docstring."""


def empty_body():
    pass


def keyword_arguments(x):
    return dict(a=x, b=x + 1), sorted([3, 1, 2], reverse=x > 0), print.__name__


def call_errors(kind):
    if kind == "missing":
        return keyword_only(1)
    if kind == "positional":
        return positional_only(a=1)
    return defaults()


def call_with_optional_kwargs(func, args, kwargs):
    return func(*args, **(kwargs or {}))


def lambdas_of_none(values):
    # a lambda that returns None compiles as a def whose body falls off the end does:
    # it must stay a lambda, named ``<lambda>``
    ignore = lambda value: None  # noqa: E731
    hooks = [("skip", lambda: None), ("keep", lambda *a, **k: None)]
    return ignore(values), ignore.__name__, [(n, h(), h.__qualname__) for n, h in hooks]


NOTHING = lambda: None  # noqa: E731


def conditional_lambdas():
    """3.10 returns from each arm of a conditional lambda: still a lambda, named so."""
    pick = lambda a, b: (1 if b else 3) if a else (2 if b else 4)  # noqa: E731
    both = lambda a, b: a and b or 7 if a else b  # noqa: E731
    maybe = lambda x: [y for y in x if y] if x else None  # noqa: E731
    values = [(pick(a, b), both(a, b), maybe([a, b])) for a in (0, 1) for b in (0, 1)]
    return values, pick, both, maybe, maybe([])


LAMBDA_AT_MODULE_LEVEL = lambda a: 1 if a else 2  # noqa: E731


CASES = [
    ("conditional_lambdas", ()),
    ("call_with_optional_kwargs", (dict, (), {"a": 1})),
    ("call_with_optional_kwargs", (dict, ([("b", 2)],), None)),
    ("defaults", (1,)), ("defaults", (1, 3, "c", [4])), ("defaults", (1,), {"d": "dee"}),
    ("keyword_only", (2,), {"shift": 1}), ("keyword_only", (2,), {"scale": 3, "shift": 0}),
    ("positional_only", (1,)), ("positional_only", (1, 2, 3), {"d": 4}),
    ("star_args", (1, 2, 3), {"k": "v"}), ("star_args", (1,)),
    ("annotated", (1,)), ("annotated", (1, "y", 2.0), {"z": [1], "flag": True}),
    ("decorated", (1,)),
    ("use_stacked", (4,)),
    ("lambdas", ([3, 1, 2],)),
    ("lambdas_of_none", ([1],)),
    ("calls", (1, 2, 3), {"c": 9}),
    ("mutable_default", (1,)), ("mutable_default", (2,)),
    ("default_expressions", ()),
    ("recursion", (5,)),
    ("docstring_only", ()), ("empty_body", ()),
    ("keyword_arguments", (1,)), ("keyword_arguments", (-1,)),
    ("call_errors", ("missing",)), ("call_errors", ("positional",)), ("call_errors", ("other",)),
]
