"""Loops the walk once left to the state machine, in regions and shapes of their own: a
while loop in a class body whose test reads a name of the function around it (3.12+
read it through the class namespace, LOAD_LOCALS then LOAD_FROM_DICT_OR_DEREF, which
the scan for the test the compiler repeats at the end of the body did not know)."""

LOG = []


def class_body_loop_reads_a_cell(items):
    # the test, repeated before the jump back, reads ``items`` from the function's
    # cell: one loop, and its continue goes to the test at the top (seeds 10180,
    # 10670 on 3.12+)
    items = list(items)

    class Tally:
        total = 0
        while items and items[-1] is not None:
            n = items.pop()
            if n < 0:
                continue
            total += n
            LOG.append(n)

    return Tally.total, items, LOG


CASES = [
    ("class_body_loop_reads_a_cell", ([1, -2, 3],)),
    ("class_body_loop_reads_a_cell", ([None, 4, -1],)),
    ("class_body_loop_reads_a_cell", ([],)),
]
