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


CASES = [
    ("nested_withs_end_a_class_body", (False, False)),
    ("nested_withs_end_a_class_body", (True, True)),
    ("nested_withs_end_a_class_body", (True, False)),
]

with Box("module outer"):
    with Box("module inner", True) as inner_key:
        ENDED = len(LOG)
