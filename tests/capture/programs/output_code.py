"""Run the toy example under Inductor with no capture, and write the output code
Inductor logs for each graph, in order, as a JSON list to the file argv[1]."""

import json
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples"))

import toy_example

codes = []


class KeepOutputCode(logging.Handler):
    def emit(self, record):
        if "inductor_output_code" in (getattr(record, "metadata", None) or {}):
            codes.append(record.payload)


trace_log = logging.getLogger("torch.__trace")
trace_log.setLevel(logging.DEBUG)
trace_log.addHandler(KeepOutputCode())
toy_example.main("inductor")
Path(sys.argv[1]).write_text(json.dumps(codes))
