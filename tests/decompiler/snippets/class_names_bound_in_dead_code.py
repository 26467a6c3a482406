"""A class body in a function that binds a name only in code the compiler drops as
unreachable, and has a comprehension whose loop variable has that name: the class
body reads the name from its own namespace, then the globals, never from the
function. The comprehension's variable is its own, no binding of the class body's
(seed 38407 on 3.10: read as bound there, the class body read the function's)."""

i = "global"


def reads_a_name_bound_after_a_raise(items, seen):
    i = "function"

    class C:
        seen.append(i)
        try:
            try:
                assert items
            finally:
                raise KeyError(9)
            for i in items:
                pass
        finally:
            seen.append([g() for g in [lambda: i for i in items]])


def reads_a_name_bound_after_a_conditional_raise(items, seen):
    i = "function"

    class C:
        def m(self):
            return i

        seen.append([i for i in items])
        seen.append(i)
        if items:
            raise KeyError(i)
        i = None


def _caught(function, items):
    seen = []
    try:
        function(items, seen)
    except KeyError as error:
        return seen, error.args
    return seen


def name_bound_after_a_raise(items):
    return _caught(reads_a_name_bound_after_a_raise, items)


def name_bound_after_a_conditional_raise(items):
    return _caught(reads_a_name_bound_after_a_conditional_raise, items)


CASES = [
    ("name_bound_after_a_raise", ([1, 2],)),
    ("name_bound_after_a_raise", ([],)),
    ("name_bound_after_a_conditional_raise", ([1, 2],)),
    ("name_bound_after_a_conditional_raise", ([],)),
]
