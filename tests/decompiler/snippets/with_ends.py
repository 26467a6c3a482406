"""Where with statements end on 3.10, whose suppressing way out runs a copy of the
exit of the with around: nested with statements that end a class body, and a module
(this one ends so). Each Box records its enter and exit; ``suppress`` tells it to
swallow an exception."""

LOG = []


class Box:
    def __init__(self, key, suppress=False):
        self.key, self.suppress = key, suppress

    def __enter__(self):
        LOG.append(("enter", self.key))
        return self.key

    def __exit__(self, kind, value, traceback):
        LOG.append(("exit", self.key, kind.__name__ if kind else None))
        return self.suppress and kind is not None and issubclass(kind, Exception)


def nested_withs_end_a_class_body(fail, suppress):
    """Nested with statements at the end of a class body (seed 48 on 3.10, at the end
    of a module): 3.10 copies the outer with's exit to the inner one's suppressing
    way out, which is where the inner statement ends all the same."""
    del LOG[:]

    class Holder:
        with Box("outer"):
            with Box("inner", suppress) as key:
                if fail:
                    raise ValueError(key)
                value = key

    return getattr(Holder, "value", None), getattr(Holder, "key", None), list(LOG)


def withs_in_a_try_finally_in_a_class_body(fail, suppress):
    """Nested with statements in a try with a finally body, then code, at the end of a
    class body (seed 101 on 3.10, at the end of a module): 3.10 copies the finally
    body and the code after it to the outer with's suppressing way out, which falls
    into the end of the body where the copy after the with's exit jumps there."""
    del LOG[:]

    class Holder:
        try:
            with Box("outer", suppress):
                with Box("inner") as key:
                    if fail:
                        raise ValueError(key)
                    value = key
        finally:
            LOG.append("finally")
        ended = True

    return getattr(Holder, "value", None), Holder.ended, list(LOG)


def code_after_a_with_ends_a_class_body(fail, suppress):
    """A with statement, then code, at the end of a class body (3.10, at the end of a
    module): 3.10 copies that code to the with's suppressing way out, which falls into
    the end of the body where the copy after the with's exit jumps there."""
    del LOG[:]

    class Holder:
        with Box("only", suppress) as key:
            if fail:
                raise ValueError(key)
            value = key
        ended = True

    return getattr(Holder, "value", None), Holder.ended, list(LOG)


CASES = [
    ("withs_in_a_try_finally_in_a_class_body", (False, False)),
    ("withs_in_a_try_finally_in_a_class_body", (True, True)),
    ("withs_in_a_try_finally_in_a_class_body", (True, False)),
    ("code_after_a_with_ends_a_class_body", (False, False)),
    ("code_after_a_with_ends_a_class_body", (True, True)),
    ("code_after_a_with_ends_a_class_body", (True, False)),
    ("nested_withs_end_a_class_body", (False, False)),
    ("nested_withs_end_a_class_body", (True, True)),
    ("nested_withs_end_a_class_body", (True, False)),
]

with Box("module outer"):
    with Box("module inner", True) as inner_key:
        ENDED = len(LOG)
