"""Where a compile's time went: Dynamo, AOTAutograd, Inductor and code generation,
as an inline SVG bar.

torch's compilation metrics nest the phases: the whole frame's compile holds the
backend's, which holds Inductor's, which holds code generation. Each phase here is
its own share, the nested ones taken out, so the parts add up to the whole.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from markupsafe import Markup, escape

PHASES = ("Dynamo tracing", "AOTAutograd", "Inductor", "code generation")
# torch's counters of cache lookups, and how the report names each cache.
CACHES = {"inductor_fx": "FX graph cache", "aotautograd": "AOTAutograd cache"}


@dataclass(frozen=True)
class CompileTime:
    """Seconds per phase (in PHASES order), and the cache lookups behind them."""

    seconds: tuple[float, ...]
    cache_hits: int = 0
    cache_misses: int = 0

    @property
    def total(self) -> float:
        return sum(self.seconds)


def compile_time(metrics: Mapping) -> CompileTime | None:
    """The split of one compile's time; None when torch recorded no total."""
    total = _seconds(metrics, "entire_frame_compile_time_s")
    if total is None:
        return None
    backend = min(_seconds(metrics, "backend_compile_time_s") or 0.0, total)
    inductor = _seconds(metrics, "inductor_compile_time_s")
    if inductor is None:  # another backend: AOTAutograd alone, or nothing
        aot, inductor, codegen = backend, 0.0, 0.0
    else:
        inductor = min(inductor, backend)
        codegen = min(_seconds(metrics, "code_gen_time_s") or 0.0, inductor)
        aot, inductor = backend - inductor, inductor - codegen
    hits = sum(
        _count(metrics, f"{cache}_{where}_cache_hit_count")
        for cache in CACHES
        for where in ("local", "remote")
    )
    misses = sum(
        _count(metrics, f"{cache}_{where}_cache_miss_count")
        for cache in CACHES
        for where in ("local", "remote")
    )
    return CompileTime((total - backend, aot, inductor, codegen), hits, misses)


def added(times: Iterable[CompileTime]) -> CompileTime | None:
    """The program's time: every compile's, phase by phase."""
    times = list(times)
    if not times:
        return None
    seconds = tuple(sum(phase) for phase in zip(*(t.seconds for t in times)))
    hits = sum(t.cache_hits for t in times)
    return CompileTime(seconds, hits, sum(t.cache_misses for t in times))


def time_bar(time: CompileTime, label: str) -> Markup:
    """An inline SVG bar of the phases, each with its seconds in a tooltip, and a
    legend in plain HTML below it, so the numbers read without hovering."""
    total = time.total
    rects, x = [], 0.0
    for index, (phase, seconds) in enumerate(zip(PHASES, time.seconds)):
        width = 100 * seconds / total if total > 0 else 0
        if width > 0:
            rects.append(
                f'<rect class="phase-{index}" x="{x:.3f}%" y="0" width="{width:.3f}%" '
                f'height="14"><title>{escape(phase)}: {seconds:.3f} s</title></rect>'
            )
        x += width
    legend = "".join(
        f'<li><span class="swatch phase-{i}"></span>{escape(phase)} {seconds:.3f} s</li>'
        for i, (phase, seconds) in enumerate(zip(PHASES, time.seconds))
        if seconds > 0
    )
    caches = ""
    if time.cache_hits or time.cache_misses:
        caches = f"<li>cache lookups: {time.cache_hits} hit, {time.cache_misses} missed</li>"
    return Markup(
        f'<figure class="time-bar"><svg role="img" aria-label="{escape(label)}" '
        f'width="100%" height="14">{"".join(rects)}</svg>'
        f'<figcaption>{escape(label)}: {total:.3f} s<ul class="legend">{legend}{caches}'
        "</ul></figcaption></figure>"
    )


def _seconds(metrics: Mapping, key: str) -> float | None:
    value = metrics.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if math.isfinite(value) and value >= 0 else None


def _count(metrics: Mapping, key: str) -> int:
    value = metrics.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0
