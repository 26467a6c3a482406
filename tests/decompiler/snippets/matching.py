"""match statements: literal, capture, wildcard, or, guard, sequence, mapping,
class, value and as patterns."""

import enum


class Color(enum.Enum):
    RED = 1
    GREEN = 2


class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


def literals(value):
    match value:
        case 0:
            return "zero"
        case 1 | 2 | 3:
            return "small"
        case "hello":
            return "greeting"
        case None:
            return "nothing"
        case True:
            return "true"
        case _:
            return "other"


def sequences(value):
    match value:
        case []:
            return "empty"
        case [x]:
            return f"one {x}"
        case [x, y]:
            return f"two {x} {y}"
        case [first, *rest] if len(rest) > 2:
            return f"long from {first}, {len(rest)} more"
        case [first, *_, last]:
            return f"{first}..{last}"
        case _:
            return "not a sequence"


def mappings(value):
    match value:
        case {"action": "move", "to": (x, y)}:
            return f"move {x},{y}"
        case {"action": str(action), **rest}:
            return f"{action} with {sorted(rest)}"
        case {}:
            return "mapping"
        case _:
            return "no"


def classes_and_values(value):
    match value:
        case Point(0, 0):
            return "origin"
        case Point(x=0, y=y):
            return f"on y axis at {y}"
        case Point(x, y) if x == y:
            return f"diagonal {x}"
        case Point():
            return "somewhere"
        case Color.RED:
            return "red"
        case Color.GREEN as green:
            return f"green {green.value}"
        case int(n) | float(n) if n < 0:
            return f"negative {n}"
        case [Point(x=a), Point(x=b)] as pair:
            return f"pair {a} {b} {len(pair)}"
        case str() as text:
            return f"text {text!r}"
        case _:
            return "unknown"


def match_without_wildcard(value):
    result = "unmatched"
    match value:
        case (1, 2):
            result = "tuple one two"
        case {"k": v}:
            result = f"k={v}"
    return result


def match_call_result(source):
    match source.pop():  # evaluated once, however many cases test it
        case None:
            return "none"
        case str(text):
            return text
        case _:
            return "other"


def subject_read_first(flag):
    if flag:
        value = 1
    match value:  # unbound when flag is false: the subject's one read raises
        case 1:
            return "one"
        case _:
            return "other"


CASES = [
    ("literals", (0,)), ("literals", (2,)), ("literals", ("hello",)), ("literals", (None,)),
    ("literals", (True,)), ("literals", (7,)),
    ("sequences", ([],)), ("sequences", ([1],)), ("sequences", ((1, 2),)),
    ("sequences", ([1, 2, 3, 4, 5],)), ("sequences", ([1, 2, 3],)), ("sequences", ("ab",)),
    ("mappings", ({"action": "move", "to": (1, 2)},)), ("mappings", ({"action": "go", "b": 1},)),
    ("mappings", ({"x": 1},)), ("mappings", ([],)),
    ("classes_and_values", (Point(0, 0),)), ("classes_and_values", (Point(0, 5),)),
    ("classes_and_values", (Point(3, 3),)), ("classes_and_values", (Point(1, 2),)),
    ("classes_and_values", (Color.RED,)), ("classes_and_values", (Color.GREEN,)),
    ("classes_and_values", (-3,)), ("classes_and_values", (-1.5,)),
    ("classes_and_values", ([Point(1, 0), Point(2, 0)],)), ("classes_and_values", ("s",)),
    ("classes_and_values", (object,)),
    ("match_without_wildcard", ((1, 2),)), ("match_without_wildcard", ({"k": 3},)),
    ("match_without_wildcard", (5,)),
    ("match_call_result", ([1, None],)), ("match_call_result", (["x", "y"],)),
    ("match_call_result", ([3, 4],)),
    ("subject_read_first", (True,)), ("subject_read_first", (False,)),
]
