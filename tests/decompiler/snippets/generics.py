# requires: 3.12
"""PEP 695 generics: type parameters on functions and classes, and type statements."""

from typing import Protocol


def first[T](items: T, default: T = None) -> T:
    return items[0] if items else default


def bounded[N: int, S: (str, bytes)](n: N, *, s: S = "x") -> S:
    return s * n


def variadic[*Ts, **P](*args: Ts) -> tuple:
    return args


class Box[T]:
    def __init__(self, value: T) -> None:
        self.value = value

    def get(self) -> T:
        return self.value


class Sized[T, *Ts, **P](Protocol):
    def size(self) -> int: ...


type Pair[K] = tuple[K, K]
type Number = int | float


def params_of(obj):
    return [(p.__name__, type(p).__name__) for p in obj.__type_params__]


def alias_parts(alias):
    return alias.__name__, [p.__name__ for p in alias.__type_params__], repr(alias.__value__)


def bound_of(fn):
    return [(p.__name__, repr(p.__bound__), repr(p.__constraints__)) for p in fn.__type_params__]


CASES = [
    ("first", ([3, 4],)), ("first", ([],)), ("bounded", (2,), {"s": "ab"}),
    ("variadic", (1, 2)), ("params_of", (first,)), ("params_of", (Box,)),
    ("params_of", (Sized,)), ("params_of", (variadic,)), ("bound_of", (bounded,)),
    ("alias_parts", (Pair,)), ("alias_parts", (Number,)),
]
