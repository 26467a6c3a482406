"""The user's code first; the standard library's and libraries' folded (issue 22).

A logging call that Dynamo compiles into must not list logging's functions as the
user's, ahead of the user's own train_step.
"""

import json

from synthetic import make_dump

from depyf_report.dump import load_dump
from depyf_report.render import render
from depyf_report.render.context import ProcessContext

LOGGING = "/aaa/lib/python3.11/logging/__init__.py"  # sorts before the user's file


def test_standard_library_functions_come_after_the_users_and_are_folded(tmp_path):
    dump = make_dump(tmp_path / "dump", graphs=4)
    for fn_id, qualname in (
        ("f1", "Logger.info"),
        ("f1r", "Logger.torch_dynamo_resume_in_info_at_33"),
    ):
        path = dump / "functions" / f"{fn_id}.json"
        record = json.loads(path.read_text())
        record.update(filename=LOGGING, qualname=qualname)  # its resume function too
        path.write_text(json.dumps(record))
    (process,) = load_dump(dump).processes
    ctx = ProcessContext.build(process, "")
    order = [fn.qualname for fn in ctx.functions()]
    assert order.index("Logger.info") > order.index("Model0.forward_0")
    index = (render(dump, tmp_path / "site", progress=False)).read_text()
    mine, others = index.split('id="functions"')[1].split('id="other-functions"')
    assert "Logger.info" not in mine and "Model0.forward_0" in mine
    assert "Logger.info" in others.split("</section>")[0]
    assert "2 functions in libraries and the standard library" in others
