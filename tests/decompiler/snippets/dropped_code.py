"""Names bound only in code the compiler drops as unreachable: the binding still
decides where every read of the name looks (random seed 508)."""

label = "module"


def reads_a_local_assigned_after_the_return(flag):
    # ``total`` is local: reading it raises UnboundLocalError, not NameError
    if flag:
        return "early"
    return total  # noqa: F821
    total = 0  # noqa: F841


def class_reads_a_name_it_assigns_in_dropped_code(label):
    # the class assigns ``label``, so its read looks in the class and then the
    # module, never at the function's parameter
    class Named:
        first = label
        if False:
            label = "never"

    return Named.first


def class_raises_before_assigning(label):
    class Named:
        first = label
        raise LookupError(label)
        label = "never"

    return Named


def class_comprehension_reads_both(label):
    # the class assigns ``label``: the comprehension's first iterable, evaluated in
    # the class body, is the module's; its inner loop's, in the comprehension, is
    # the parameter, which the class passes on as a free name (random seed 5574)
    class Named:
        pairs = [[j for j in label] for i in label]
        raise LookupError(pairs)
        label = "never"

    return Named


def class_in_a_class_reads_a_name_it_assigns_in_dropped_code(label):
    # as above, one class further in: the inner class's read of ``label`` is its own
    # (then the module's), never the function's (random seed 16568)
    class Outer:
        class Inner:
            raise LookupError(label)
            label = "never"

    return Outer


CASES = [
    ("class_in_a_class_reads_a_name_it_assigns_in_dropped_code", ("parameter",)),
    ("reads_a_local_assigned_after_the_return", (True,)),
    ("reads_a_local_assigned_after_the_return", (False,)),
    ("class_reads_a_name_it_assigns_in_dropped_code", ("parameter",)),
    ("class_raises_before_assigning", ("parameter",)),
    ("class_comprehension_reads_both", ("ab",)),
]
