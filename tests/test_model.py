"""The dump records: JSON round trips and the shipped JSON Schema."""

import dataclasses
import json

import jsonschema
import pytest

from depyf_report.dump import model
from depyf_report.resources import schema_text


def _function() -> model.Function:
    return model.Function(
        id="toy",
        name="toy",
        qualname="toy",
        filename="toy.py",
        first_line=1,
        last_line=4,
        source="def toy(a):\n    return a\n",
        original=model.CodeView(name="toy", decompile_error="NotImplementedError: soon", dis="x"),
        resume=model.ResumePoint(parent="p", break_line=2, resume_line=3, offset=10, original="p"),
        entries=[
            model.CacheEntry(
                compile_id="0/0",
                guards=model.GuardSet(tree="t", guards=[model.Guard("a", "TYPE_MATCH")]),
                code=model.CodeView(name="toy", decompiled="pass\n"),
                graphs=["graph-0-0"],
            )
        ],
    )


def test_round_trip_through_json():
    function = _function()
    data = json.loads(json.dumps(model.to_json(function)))
    assert model.from_json(model.Function, data) == function


def test_to_json_gives_what_dataclasses_asdict_gives_without_copying():
    function = _function()
    function.entries[0].guards.guards.append(model.Guard("b", "TENSOR_MATCH"))
    data = model.to_json(function)
    assert data == dataclasses.asdict(function)
    data["entries"][0]["graphs"].append("changed")  # a new list, not the record's own
    assert function.entries[0].graphs == ["graph-0-0"]


def test_missing_required_field_is_an_error_and_unknown_keys_are_ignored():
    data = model.to_json(_function())
    data["added_by_a_newer_writer"] = 1
    assert model.from_json(model.Function, data).id == "toy"
    del data["filename"]
    with pytest.raises(ValueError, match="filename"):
        model.from_json(model.Function, data)


def test_shipped_schema_is_the_one_the_records_define():
    assert json.loads(schema_text()) == model.json_schema()


@pytest.mark.parametrize(
    ("record", "name"),
    [
        (
            model.Manifest(1, "0.1", "3.11", None, "linux", [], "/", 1, "2026-01-01T00:00Z"),
            "Manifest",
        ),
        (_function(), "Function"),
        (model.Compile(id="0/0", frame_id=0, frame_compile_id=0), "Compile"),
        (
            model.CompiledGraph(
                id="g",
                name="__compiled_fn_1",
                compile_id="0/0",
                function=None,
                stages=[model.GraphStage("dynamo", "graph")],
                output_code=[model.OutputCode("forward", "src", [model.Kernel("k", "cpp", "")])],
            ),
            "CompiledGraph",
        ),
    ],
)
def test_schema_accepts_records_and_rejects_damage(record, name):
    schema = {**model.json_schema(), "anyOf": [{"$ref": f"#/$defs/{name}"}]}
    data = model.to_json(record)
    jsonschema.validate(data, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**data, "unexpected": 1}, schema)


def test_schema_rejects_an_unknown_stage_kind():
    schema = {**model.json_schema(), "anyOf": [{"$ref": "#/$defs/GraphStage"}]}
    jsonschema.validate({"kind": "aot_forward", "text": ""}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"kind": "made_up", "text": ""}, schema)
