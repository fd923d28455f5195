"""The error table behind the engine's ranges, and how often those ranges hold on unseen runs.

Usage (from the repository root)::

    PYTHONPATH=. python benchmarks/range_table.py    # print; rewrite the table if it changed

It rewrites ``sizing/engine/measured_error_table.py`` (the engine's ranges in
``sizing/engine/ranges.py`` read it) when its figures changed:

* per slice of the published runs (scale band, accelerator generation, dense or MoE, precision,
  and all of them), the runs, their sources and the range of the engine's accelerator-hours that
  their cross-validated errors give (:func:`measured_errors`);
* what the runs span (:func:`coverage`);
* how much ranges built this way hold (:func:`calibration`): for each source in turn, the table is
  rebuilt from the other sources' errors only and the engine's own rule
  (:func:`sizing.engine.ranges.regime_range`) gives that source's runs their range; the share of
  runs whose published figure falls inside is the **measured coverage**.  The pair of percentiles
  each slice spans is chosen among :data:`CANDIDATE_PERCENTILES` so that the measured coverage is
  nearest :data:`STATED_COVERAGE`.  The set-aside fifth of the sources
  (``benchmarks/calibration.py``) takes no part: its coverage is measured with the table of every
  development run and reported beside.

Only the development rows are read to build the table or choose the percentiles.
``tests/sizing/test_calibration.py`` fails when the checked-in table differs from what this
computes now, and when the measured coverage is more than 10 points from the stated one.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import statistics
from collections.abc import Sequence
from dataclasses import fields, replace
from typing import Any

from benchmarks.calibration import (
    BAND_KEYS,
    BANDS,
    ROOT,
    SET_ASIDE_SEED,
    Result,
    Row,
    cross_validate,
    development,
    load_rows,
    set_aside,
    set_aside_sources,
)
from sizing.engine import measured_error_table
from sizing.engine.measured_error import SOURCE, Coverage, MeasuredError, RangeCalibration
from sizing.engine.ranges import GENERATIONS, Regime, RegimeRange, regime_range

RANGES_PATH = ROOT / "sizing" / "engine" / "measured_error_table.py"
WRITE_RANGES = "PYTHONPATH=. python benchmarks/range_table.py"

# The share of published runs a range is built to hold: 8 in 10 is narrow enough to plan with
# and still covers most runs (the worst run is stated separately).  An engine choice.
STATED_COVERAGE = 0.8
# Percentile pairs of the signed errors a slice's range may span, narrowest first; the one whose
# leave-one-source-out coverage is nearest the stated share is used (ties: the narrower).
CANDIDATE_PERCENTILES: tuple[tuple[float, float], ...] = (
    (10.0, 90.0),
    (7.5, 92.5),
    (5.0, 95.0),
    (2.5, 97.5),
    (0.0, 100.0),
)
# A slice with fewer runs, or read from fewer sources, is not used alone (the pooled errors of
# every run stand in): a percentile of a handful of runs, or of one paper, measures that paper.
MIN_RUNS = 10
MIN_SOURCES = 3
_TABLE_DIGITS = 3  # significant digits written to the table


def _sig(x: float) -> float:
    return float(f"{x:.{_TABLE_DIGITS}g}")


def _percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile, interpolated between the sorted values (inclusive method)."""
    ordered = sorted(values)
    at = (len(ordered) - 1) * p / 100.0
    below = math.floor(at)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (at - below)


def generation_of(row: Row) -> str | None:
    return GENERATIONS.get(row.data["engine_accelerator"]) if row.data else None


def regime_of(row: Row) -> Regime:
    """The regime of a published run, as the engine reads one of a customer's."""
    return Regime(
        band=BAND_KEYS[row.band],
        generation=generation_of(row),
        architecture=row.architecture.lower(),
        precision=row.precision.lower(),
    )


def _slices(results: Sequence[Result]) -> list[tuple[str, str, list[Result], int, int]]:
    """(slice, key, results, gpus_above, gpus_up_to) for every slice that has rows."""
    out = [("all", "all", list(results), 0, 0)]
    for name, lo, hi in BANDS:
        rs = [r for r in results if r.row.band == name]
        out.append(("band", BAND_KEYS[name], rs, max(lo - 1, 0), hi))
    for generation in sorted(set(GENERATIONS.values())):
        rs = [r for r in results if generation_of(r.row) == generation]
        out.append(("generation", generation, rs, 0, 0))
    for arch in ("dense", "MoE"):
        rs = [r for r in results if r.row.architecture == arch]
        out.append(("architecture", arch.lower(), rs, 0, 0))
    for prec in ("BF16", "FP8"):
        rs = [r for r in results if r.row.precision == prec]
        out.append(("precision", prec.lower(), rs, 0, 0))
    return [s for s in out if s[2]]


def measured_errors(
    results: Sequence[Result], as_of: str, percentiles: tuple[float, float]
) -> list[MeasuredError]:
    """Per slice: published runs, sources, and the range of accelerator-hours their errors give.

    A run that took ``2^-e`` times the engine's figure (``e`` its signed error) sets the
    range: ``low = 2^-(upper percentile of e)``, ``high = 2^-(lower percentile)``, each widened
    to include the engine's own figure (``low <= 1 <= high``).
    """
    out = []
    lower, upper = percentiles
    for slice_, key, rs, above, up_to in _slices(results):
        errs = [r.gpu_hours_log2_err for r in rs]
        absolute = [abs(e) for e in errs]
        out.append(
            MeasuredError(
                slice=slice_,
                key=key,
                runs=len(rs),
                sources=len({r.row.source for r in rs}),
                low=_sig(min(1.0, 2.0 ** -_percentile(errs, upper))),
                high=_sig(max(1.0, 2.0 ** -_percentile(errs, lower))),
                typical=_sig(2.0 ** statistics.median(absolute)),
                worst=_sig(2.0 ** max(absolute)),
                statistic=f"{lower:g}th-{upper:g}th percentile",
                gpus_above=above,
                gpus_up_to=up_to,
                source=SOURCE,
                as_of=as_of,
            )
        )
    return out


def range_for(row: Row, errors: Sequence[MeasuredError]) -> RegimeRange:
    """The range the engine's rule gives a run of ``row``'s regime from the table ``errors``."""
    return regime_range(regime_of(row), tuple(errors), min_runs=MIN_RUNS, min_sources=MIN_SOURCES)


def holds(result: Result, measured: RegimeRange) -> bool:
    """Whether the published run took between ``low`` and ``high`` times the engine's hours."""
    taken = 2.0**-result.gpu_hours_log2_err
    return measured.low <= taken <= measured.high


def leave_one_source_out(
    results: Sequence[Result], percentiles: tuple[float, float]
) -> list[tuple[Result, RegimeRange]]:
    """Each run with the range it gets from a table built without its source's runs."""
    out = []
    for source in sorted({r.row.source for r in results}):
        others = [r for r in results if r.row.source != source]
        table = measured_errors(others, "", percentiles)
        out += [(r, range_for(r.row, table)) for r in results if r.row.source == source]
    return out


def measured_coverage(results: Sequence[Result], percentiles: tuple[float, float]) -> float:
    """The share of runs inside the range a table without their source gives them."""
    judged = leave_one_source_out(results, percentiles)
    return sum(holds(r, m) for r, m in judged) / len(judged)


def choose_percentiles(dev: Sequence[Result]) -> tuple[float, float]:
    """The candidate pair whose measured coverage is nearest the stated share (ties: narrower)."""
    return min(
        CANDIDATE_PERCENTILES,
        key=lambda p: abs(measured_coverage(dev, p) - STATED_COVERAGE),
    )


def set_aside_coverage(aside: Sequence[Result], errors: Sequence[MeasuredError]) -> tuple[int, int]:
    """(held, runs) of the set-aside runs, with the table of every development run."""
    return sum(holds(r, range_for(r.row, errors)) for r in aside), len(aside)


def calibration(results: Sequence[Result], as_of: str) -> RangeCalibration:
    """How much ranges built from the development runs hold, measured two ways."""
    dev, aside = development(results), set_aside(results)
    percentiles = choose_percentiles(dev)
    held_aside, runs_aside = set_aside_coverage(aside, measured_errors(dev, as_of, percentiles))
    return RangeCalibration(
        stated_coverage=STATED_COVERAGE,
        measured_coverage=round(measured_coverage(dev, percentiles), 3),
        measured_runs=len(dev),
        measured_sources=len({r.row.source for r in dev}),
        set_aside_coverage=round(held_aside / runs_aside, 3) if runs_aside else 0.0,
        set_aside_runs=runs_aside,
        set_aside_sources=set_aside_sources([r.row for r in results]),
        set_aside_seed=SET_ASIDE_SEED,
        percentiles=percentiles,
        min_runs=MIN_RUNS,
        min_sources=MIN_SOURCES,
        source=SOURCE,
        as_of=as_of,
    )


def coverage(dev: Sequence[Result], as_of: str) -> Coverage:
    """What the development runs span: methods, data, precisions, accelerators, counts, sizes."""
    rows = [r.row for r in dev]
    inputs = [r.data["engine_input"] for r in rows]
    counts = [int(r.data["hardware_count"]) for r in rows if r.data["hardware_count"]]
    params = [float(r.data["total_params"]) for r in rows]
    return Coverage(
        runs=len(rows),
        groups=len({r.group for r in rows}),
        methods=tuple(sorted({i["training"].get("method") or "pretrain" for i in inputs})),
        modalities=tuple(sorted({(i.get("data") or {}).get("modality") or "text" for i in inputs})),
        precisions=tuple(sorted({i["training"].get("precision") or "bf16" for i in inputs})),
        accelerators=tuple(sorted({r.data["engine_accelerator"] for r in rows})),
        fewest_gpus=min(counts),
        most_gpus=max(counts),
        smallest_params=min(params),
        largest_params=max(params),
        source=SOURCE,
        as_of=as_of,
    )


def _literal(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(_literal(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)


def _record(
    record: MeasuredError | Coverage | RangeCalibration, indent: str, assign: str = ""
) -> list[str]:
    lines = [f"{indent}{assign}{type(record).__name__}("]
    for f in fields(record):
        value = getattr(record, f.name)
        shown = "SOURCE" if f.name == "source" and value == SOURCE else _literal(value)
        lines.append(f"{indent}    {f.name}={shown},")
    return lines + [f"{indent})"]


def ranges_module(
    errors: Sequence[MeasuredError], covered: Coverage, calibrated: RangeCalibration
) -> str:
    """The source of ``sizing/engine/measured_error_table.py``."""
    lines = [
        '"""The cross-validated error of the engine per slice of published runs, and its coverage.',
        "",
        f"Generated by ``{WRITE_RANGES}``; do not edit by hand.",
        "Records: :mod:`sizing.engine.measured_error`; how they are read: ``docs/engine.md``.",
        "",
        "References",
        "----------",
        ".. [1] ``docs/calibration.md``: the published runs (each with its paper or model card) that",
        "       these errors are measured on, and how.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from .measured_error import SOURCE, Coverage, MeasuredError, RangeCalibration",
        "",
        "MEASURED_ERRORS: tuple[MeasuredError, ...] = (",
    ]
    for e in errors:
        lines += _record(e, "    ")
        lines[-1] += ","
    lines.append(")")
    lines.append("")
    lines += _record(covered, "", assign="COVERAGE = ")
    lines.append("")
    lines += _record(calibrated, "", assign="CALIBRATION = ")
    return "\n".join(lines) + "\n"


def _undated(records: Sequence[Any]) -> list[Any]:
    return [replace(r, as_of="") for r in records]


def table_is_current(
    errors: Sequence[MeasuredError], covered: Coverage, calibrated: RangeCalibration
) -> bool:
    """Whether the checked-in table holds these figures (whatever its date)."""
    checked_in = (
        *measured_error_table.MEASURED_ERRORS,
        measured_error_table.COVERAGE,
        measured_error_table.CALIBRATION,
    )
    return _undated((*errors, covered, calibrated)) == _undated(checked_in)


def current_table(
    results: Sequence[Result], as_of: str
) -> tuple[list[MeasuredError], Coverage, RangeCalibration]:
    """The table as the harness computes it now from the development runs."""
    calibrated = calibration(results, as_of)
    dev = development(results)
    return measured_errors(dev, as_of, calibrated.percentiles), coverage(dev, as_of), calibrated


def ranges_markdown(errors: Sequence[MeasuredError], calibrated: RangeCalibration) -> str:
    head = ("slice", "runs", "sources", "range of accelerator-hours", "typical", "worst", "alone")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for e in errors:
        alone = e.runs >= calibrated.min_runs and e.sources >= calibrated.min_sources
        lines.append(
            f"| {e.slice} {e.key} | {e.runs} | {e.sources} | x{e.low:.2f} to x{e.high:.2f} | "
            f"x{e.typical:.2f} | x{e.worst:.2f} | {'yes' if alone else 'no: pooled'} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.parse_args(argv)
    results = cross_validate(load_rows())
    today = datetime.date.today().isoformat()
    errors, covered, calibrated = current_table(results, today)
    lower, upper = calibrated.percentiles
    print(ranges_markdown(errors, calibrated))
    print()
    print(
        f"Each slice spans the {lower:g}th to {upper:g}th percentile of its signed errors.  "
        f"Stated coverage {calibrated.stated_coverage:.0%}; measured leave-one-source-out "
        f"{calibrated.measured_coverage:.1%} of {calibrated.measured_runs} development runs "
        f"({calibrated.measured_sources} sources); set aside {calibrated.set_aside_coverage:.1%} "
        f"of {calibrated.set_aside_runs} runs ({', '.join(calibrated.set_aside_sources)})."
    )
    for pair in CANDIDATE_PERCENTILES:
        print(f"  {pair}: {measured_coverage(development(results), pair):.1%}")
    if table_is_current(errors, covered, calibrated):
        print(f"\n{RANGES_PATH.relative_to(ROOT)} is current; not rewritten.")
        return
    RANGES_PATH.write_text(ranges_module(errors, covered, calibrated))
    print(f"\nWrote {RANGES_PATH.relative_to(ROOT)}.")


if __name__ == "__main__":
    main()
