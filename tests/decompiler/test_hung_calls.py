"""A call that hangs is cut by a CPU-time limit wherever it falls, and that moves
from run to run. Two runs that both hung agree when one's log begins the other's;
anything else they did differently still counts."""

from .random_programs import program, run
from .random_programs.compare import Hung, compare, picture

HUNG = ("raised", picture(Hung("still running after 2 s of CPU time")))


def calls(*logs, outcome=HUNG) -> dict:
    return {
        f"f tape {n}": {"log": [picture(item) for item in log], "outcome": outcome}
        for n, log in enumerate(logs)
    }


def test_two_hung_calls_cut_at_different_passes_are_the_same():
    assert compare(calls([1, "a", 25, 25]), calls([1, "a", 25, 25, 25])) == []
    assert compare(calls([1, "a", 25, 25, 25]), calls([1, "a", 25])) == []


def test_two_hung_calls_that_logged_differently_before_the_cut_differ():
    assert compare(calls([1, "a", 25, 25]), calls([1, "b", 25, 25, 25])) == ["log"]


def test_a_call_that_hangs_where_the_original_returned_differs():
    returned = ("returned", picture(None))
    aspects = compare(calls([1, "a"], outcome=returned), calls([1, "a", 25]))
    assert aspects == ["exception", "hang", "log"]


def test_a_run_keeps_a_hung_call_s_log_item_by_item():
    source = program(0) + "\n\ndef f(t):\n    LOG.append(1)\n    while True:\n        pass\n"
    hung = run(source)["f tape 0"]
    assert hung["outcome"] == HUNG
    assert hung["log"] == [picture(1)]
