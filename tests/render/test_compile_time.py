"""A compile's time, split into its phases as torch measured them (issue 22)."""

import json
import re
from pathlib import Path

import pytest

from depyf_report.render.compile_time import PHASES, added, compile_time, time_bar

SEED = Path(__file__).parent / "data" / "fuzz_seed"
# The metrics torch 2.13 recorded for the first compile of examples/toy_example.py
# under inductor (seconds); the phases nest, as torch measures them.
INDUCTOR = {
    "entire_frame_compile_time_s": 9.263034,
    "backend_compile_time_s": 9.126371,
    "inductor_compile_time_s": 8.589378,
    "code_gen_time_s": 8.523164,
    "inductor_fx_local_cache_miss_count": 1,
    "aotautograd_local_cache_miss_count": 1,
    "aotautograd_local_cache_hit_count": 0,
}


def test_inductor_phases_add_up_to_the_whole_frame():
    time = compile_time(INDUCTOR)
    assert time.seconds == pytest.approx((0.136663, 0.536993, 0.066214, 8.523164))
    assert time.total == pytest.approx(9.263034)
    assert (time.cache_hits, time.cache_misses) == (0, 2)


def test_aot_eager_has_no_inductor_phases():
    compiles = [json.loads(p.read_text()) for p in sorted((SEED / "compiles").glob("*.json"))]
    times = [compile_time(c["metrics"]) for c in compiles]
    times = [t for t in times if t]
    assert times
    for t, c in zip(times, [c for c in compiles if compile_time(c["metrics"])]):
        assert t.total == pytest.approx(c["metrics"]["entire_frame_compile_time_s"])
        assert t.seconds[2:] == (0.0, 0.0)


def test_no_total_no_split_and_damage_is_ignored():
    assert compile_time({}) is None
    assert compile_time({"entire_frame_compile_time_s": "9"}) is None
    time = compile_time(
        {
            "entire_frame_compile_time_s": 1.0,
            "backend_compile_time_s": 5.0,
            "inductor_compile_time_s": float("nan"),
        }
    )
    assert time.seconds == (0.0, 1.0, 0.0, 0.0)  # a part is never more than its whole


def test_the_program_adds_its_compiles_phase_by_phase():
    total = added([compile_time(INDUCTOR), compile_time(INDUCTOR)])
    assert total.total == pytest.approx(2 * 9.263034)
    assert total.cache_misses == 4
    assert added([]) is None


def test_the_bar_shows_each_phase_with_its_seconds():
    svg = str(time_bar(compile_time(INDUCTOR), "compile 0/0 <b>"))
    widths = [float(w) for w in re.findall(r'<rect[^>]* width="([\d.]+)%"', svg)]
    assert sum(widths) == pytest.approx(100, abs=0.01)
    for phase in PHASES:
        assert phase in svg
    assert "code generation 8.523 s" in svg and "9.263 s" in svg
    assert "compile 0/0 &lt;b&gt;" in svg and "<b>" not in svg
