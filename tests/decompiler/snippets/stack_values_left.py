"""Loop bodies whose blocks the walk once ran with the wrong values on the stack
("stack underflow"): the natural loop leaves out code of the body that never goes
round again, and the loop took it for where a break goes, or walked it after the
loop with the iterator (or a match subject) popped.
- A return in a for loop inside an except clause, after a conditional test: its
  block computes the value with the iterator still there, and the clause's
  POP_EXCEPT splits it (seed 10763 on 3.12 and 3.13).
- The rest of a round after a chained comparison's ``continue`` (the failing link's
  pop of its kept operand lies between), or after a with in a case or an if, that
  only breaks: code with the iterator still on the stack is the body's, and a with
  whose exit runs on into it goes on as the with does (seeds 11953, 10693).
- A case of a match in an endless loop whose try ends in ``finally: break``: the
  case's code, the subject still on the stack, only returns, so it is no way out
  of the loop (seed 21 on 3.11 and 3.13).
- In an async for, a pop and a jump is a break only where it pops the iterator: not
  a failed link of a chained comparison dropping the operand it kept (seed 3682).
- A match's last case that unpacks its subject, then tests an item: 3.12+ send that
  test's failure straight past the match, not through a pop of the subject, and the
  case was left unread, its tests run on an unpacked item ("cannot spill"; seed
  2362)."""

LOG = []


def returns_a_conditional_test_from_a_for_in_a_clause(items, x, y):
    """Seed 10763: ``return`` in a for loop in an except clause, after a test that
    is a conditional expression (3.12, 3.13)."""
    try:
        raise KeyError(x)
    except KeyError:
        for i in items:
            if i if x else not i:
                return y[1:]
    return "ran out"


def rest_of_a_round_after_a_chain_continue(items, x):
    """Seed 11953: after ``if a < x <= b: continue``, the rest of the round runs an
    inner loop, then breaks: never goes round again."""
    for i in items:
        if 0 < x <= 9:
            x += i
            continue
        for j in items:
            x -= j
        break
    LOG.append(x)
    return x


def rest_of_a_round_after_a_with_in_a_case(items, x, m):
    """Seed 10693: a case holding a with, another that continues, then code that
    breaks."""
    for i in items:
        match x:
            case 1:
                with m:
                    x = i
            case 2:
                continue
        x = x * 2
        break
    LOG.append(x)
    return x


def rest_of_a_round_after_a_with_in_an_if(items, x, m):
    """Seed 10693: a with in an if whose else continues, then code that breaks."""
    for i in items:
        if i:
            with m:
                x = i
        else:
            continue
        x = x * 2
        break
    LOG.append(x)
    return x


def case_in_an_endless_loop_ending_in_finally_break(t, x):
    """Seed 21: an endless loop's case whose try ends in ``finally: break``, the
    last statement of the function (3.11, 3.13)."""
    while True:
        match x:
            case {"k": 0}:
                try:
                    LOG.append(t.pop())
                except IndexError:
                    LOG.append("none left")
                finally:
                    break
            case 1:
                x = {"k": 0}


async def continues_on_a_chain_in_a_finally_in_an_async_for(n):
    """Seed 3682: a finally body's ``if a < x <= b: continue`` in an async for: the
    failed link's pop of the operand it kept is no break's pop of the iterator."""
    async for x in Countdown(n):
        try:
            LOG.append(x)
        finally:
            if 0 < x <= 2:
                continue
            LOG.append("past")
    return LOG[-4:]


def nested_match_unpacks_its_last_case(x, y):
    """Seed 2362: a match in a case whose last case unpacks its subject before a test
    of an item: 3.12+ send that test's failure straight on past the match (nothing
    of the subject is left to pop), the earlier tests' through the pop."""
    match x:
        case 0:
            match y:
                case [1]:
                    LOG.append("one")
        case 2:
            x += 45
    LOG.append(x)
    return x


def nested_match_unpacks_a_class_pattern(x, y):
    """Seed 2362's rule on a class pattern's attribute unpacked (read before it too:
    the check that the rule leaves it right)."""
    match x:
        case 0 | 1:
            match y:
                case Point(a=1, b=[b, 2]):
                    LOG.append(b)
        case 2:
            x += 45
    return x


def match_unpacks_its_last_case_in_a_loop(rows):
    """Seed 2362's rule on a last case in a loop body, whose failure goes straight
    on to the next round (read before it too)."""
    for row in rows:
        match row:
            case 0:
                LOG.append("zero")
            case [a, 1, *rest]:
                LOG.append((a, rest))
    return len(LOG)


class Manager:
    def __enter__(self):
        LOG.append("enter")
        return self

    def __exit__(self, *exc):
        LOG.append(("exit", exc[0] is not None))
        return True



class Countdown:
    def __init__(self, n):
        self.n = n

    def __aiter__(self):
        return self

    async def __anext__(self):
        if self.n <= 0:
            raise StopAsyncIteration
        self.n -= 1
        return self.n



class Point:
    __match_args__ = ("a", "b")

    def __init__(self, a, b):
        self.a, self.b = a, b


CASES = [
    ("returns_a_conditional_test_from_a_for_in_a_clause", ([0, 1], 1, "abc")),
    ("returns_a_conditional_test_from_a_for_in_a_clause", ([0, 1], 0, "abc")),
    ("returns_a_conditional_test_from_a_for_in_a_clause", ([], 0, "abc")),
    ("returns_a_conditional_test_from_a_for_in_a_clause", ([1, 1], 0, "abc")),
    ("rest_of_a_round_after_a_chain_continue", ([1, 2, 3], 5)),
    ("rest_of_a_round_after_a_chain_continue", ([1, 2], 0)),
    ("rest_of_a_round_after_a_chain_continue", ([], 0)),
    ("rest_of_a_round_after_a_with_in_a_case", ([4, 5], 1, Manager())),
    ("rest_of_a_round_after_a_with_in_a_case", ([4, 5], 2, Manager())),
    ("rest_of_a_round_after_a_with_in_a_case", ([4, 5], 7, Manager())),
    ("rest_of_a_round_after_a_with_in_a_case", ([], 7, Manager())),
    ("rest_of_a_round_after_a_with_in_an_if", ([0, 5], 1, Manager())),
    ("rest_of_a_round_after_a_with_in_an_if", ([0, 0], 1, Manager())),
    ("continues_on_a_chain_in_a_finally_in_an_async_for", (4,)),
    ("continues_on_a_chain_in_a_finally_in_an_async_for", (0,)),
    ("nested_match_unpacks_its_last_case", (0, [1])),
    ("nested_match_unpacks_its_last_case", (0, [2])),
    ("nested_match_unpacks_its_last_case", (0, [1, 2])),
    ("nested_match_unpacks_its_last_case", (0, "a")),
    ("nested_match_unpacks_its_last_case", (2, [1])),
    ("nested_match_unpacks_its_last_case", (3, [1])),
    ("nested_match_unpacks_a_class_pattern", (1, Point(1, [5, 2]))),
    ("nested_match_unpacks_a_class_pattern", (1, Point(1, [5, 3]))),
    ("nested_match_unpacks_a_class_pattern", (1, Point(2, [5, 2]))),
    ("nested_match_unpacks_a_class_pattern", (0, 7)),
    ("nested_match_unpacks_a_class_pattern", (2, 7)),
    ("match_unpacks_its_last_case_in_a_loop", ([0, [4, 1], [4, 2], [4, 1, 5, 6], "ab", 3],)),
    ("case_in_an_endless_loop_ending_in_finally_break", ([4], {"k": 0})),
    ("case_in_an_endless_loop_ending_in_finally_break", ([], {"k": 0})),
    ("case_in_an_endless_loop_ending_in_finally_break", ([], 1)),
]
