"""A synthetic dump of four ranks that diverge, for the tests of many ranks.

Four ranks start alike (``make_dump``); then rank 1 does not recompile
``Model2.forward_2``, rank 2 breaks one more time in ``Model0.forward_0`` with a
different graph and a guard of its own, and rank 3 differs only where any two
processes differ (object ids, graph names), so it agrees with rank 0.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from synthetic import make_dump


def edit(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def diverging_dump(root: Path) -> Path:
    dump = make_dump(root, graphs=7, processes=4)
    rank = {0: dump, **{n: dump / "processes" / f"rank{n}" for n in (1, 2, 3)}}

    # rank 1: Model2.forward_2 compiled once, so no recompile.
    def first_entry_only(fn):
        fn["entries"] = fn["entries"][:1]

    edit(rank[1] / "functions" / "f2.json", first_entry_only)
    (rank[1] / "compiles" / "4-1.json").unlink()
    (rank[1] / "graphs" / "g6.json").unlink()

    # rank 2: one more break, another graph and a guard only it has.
    def extra_break(record):
        record["graph_breaks"].append(
            {"reason": "print() on rank 2", "filename": "/x/model.py", "line": 14}
        )

    edit(rank[2] / "compiles" / "0-0.json", extra_break)

    def other_graph(graph):
        dynamo = graph["stages"][0]
        dynamo["text"] = dynamo["text"].replace("return (mul_11,)", "return (mul_10,)")

    edit(rank[2] / "graphs" / "g1.json", other_graph)

    def loud_guard(fn):
        fn["entries"][0]["guards"]["guards"].append(
            {"expression": "G['LOUD'] == True", "kind": "TRUE_MATCH"}
        )

    edit(rank[2] / "functions" / "f0.json", loud_guard)

    # rank 3: other object ids and graph uuids, which every process has.
    def other_ids(fn):
        for entry in fn["entries"]:
            for guard in entry["guards"]["guards"]:
                guard["expression"] = re.sub(r", 94\d\)", ", 140234567890)", guard["expression"])

    for path in (rank[3] / "functions").glob("*.json"):
        edit(path, other_ids)

    def uuid_name(graph):  # and numbered on: as after a break in an earlier function
        number = int(graph["name"].rpartition("_")[2]) + 10
        graph["name"] = f"__compiled_fn_{number}_7e32b31e_ed83_40af_b2ba_f04884d4503d"

    for path in (rank[3] / "graphs").glob("*.json"):
        edit(path, uuid_name)
    return dump
