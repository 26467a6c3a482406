"""A try whose body always raises, whose clause returns through the cleanups of the
statements around it (an enclosing clause's name clearing, a finally body, a with's
exit), then code after the try: the return's way out after the clause's POP_EXCEPT
runs code of its own, so the clauses seemed to go on to two places, and the code
after the try was read into the clause, where it saw the exception the clause
handled (seeds 59021 and 60419 on 3.11, found on all four Pythons: wrong results). That code
records ``sys.exc_info()`` here, so a reading inside the clause shows."""

import sys


class E1(Exception):
    pass


class E2(Exception):
    pass


class Box:
    def __init__(self, log, n):
        self.log, self.n = log, n

    def __enter__(self):
        self.log.append(("enter", self.n))
        return self.n

    def __exit__(self, *exc):
        self.log.append(("exit", self.n, exc[0]))
        return False


def handled():
    return sys.exc_info()[0]


def returns_a_value_inside_a_named_clause(flag, log):
    try:
        raise E1(1)
    except E1 as a:
        try:
            raise E2(2)
        except E2:
            if flag:
                return log
        log.append(handled())
    return log


def returns_from_a_with_inside_a_named_clause(flag, log):
    try:
        raise E1(1)
    except E1 as a:
        try:
            raise E2(2)
        except E2 as b:
            with Box(log, 7):
                if flag:
                    return log
        log.append(handled())
    log.append("after")
    return log


def returns_nothing_inside_a_named_clause(flag, log):
    try:
        raise E1(1)
    except E1 as a:
        try:
            raise E2(2)
        except E2:
            if flag:
                return
        log.append(handled())


def returns_a_constant_through_a_finally_body(flag, log):
    try:
        try:
            raise E2(2)
        except E2:
            if flag:
                return 5
        log.append(handled())
    finally:
        log.append("finally")
    return log


def returns_a_value_through_a_finally_body(flag, log):
    try:
        try:
            raise E2(2)
        except E2:
            if flag:
                return log
        log.append(handled())
    finally:
        log.append("finally")


def returns_from_inside_a_with(flag, log):
    with Box(log, 1):
        try:
            raise E2(2)
        except E2:
            if flag:
                return log
        log.append(handled())


def returns_either_way_from_inside_a_with(flag, log):
    with Box(log, 1):
        try:
            raise E2(2)
        except E2:
            if flag == 1:
                return
            elif flag == 2:
                return 3
        log.append(handled())


def breaks_through_a_finally_body(items, log):
    for item in items:
        try:
            try:
                raise E2(item)
            except E2:
                if item:
                    break
            log.append(handled())
        finally:
            log.append("finally")
    return log


def continues_inside_a_named_clause(items, log):
    for item in items:
        try:
            raise E1(item)
        except E1 as a:
            try:
                raise E2(item)
            except E2:
                if item:
                    continue
            log.append(handled())
    return log


def returns_from_one_clause_another_going_on(flag, log):
    """Seed 60419's shape: one clause returns a value through the finally body, the
    other goes on to the code after the try."""
    x = 1
    try:
        try:
            if flag:
                raise KeyError(flag)
            raise ValueError(flag)
        except KeyError:
            return (x, 58)
        except ValueError:
            log.append(handled())
        x = x * 2 - 62
        log.append(handled())
    finally:
        log.append("finally")
    return x, log


CASES = [
    ("returns_a_value_inside_a_named_clause", (True, [])),
    ("returns_a_value_inside_a_named_clause", (False, [])),
    ("returns_from_a_with_inside_a_named_clause", (True, [])),
    ("returns_from_a_with_inside_a_named_clause", (False, [])),
    ("returns_nothing_inside_a_named_clause", (True, [])),
    ("returns_nothing_inside_a_named_clause", (False, [])),
    ("returns_a_constant_through_a_finally_body", (True, [])),
    ("returns_a_constant_through_a_finally_body", (False, [])),
    ("returns_a_value_through_a_finally_body", (True, [])),
    ("returns_a_value_through_a_finally_body", (False, [])),
    ("returns_from_inside_a_with", (True, [])),
    ("returns_from_inside_a_with", (False, [])),
    ("returns_either_way_from_inside_a_with", (1, [])),
    ("returns_either_way_from_inside_a_with", (2, [])),
    ("returns_either_way_from_inside_a_with", (0, [])),
    ("breaks_through_a_finally_body", ([0, 0, 1, 0], [])),
    ("continues_inside_a_named_clause", ([1, 0, 1], [])),
    ("returns_from_one_clause_another_going_on", (True, [])),
    ("returns_from_one_clause_another_going_on", (False, [])),
]
