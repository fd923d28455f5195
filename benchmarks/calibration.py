"""Leave-one-group-out cross-validation of the efficiency model on published runs.

Usage (from the repository root)::

    PYTHONPATH=. python benchmarks/calibration.py            # the table in docs/calibration.md
    PYTHONPATH=. python benchmarks/calibration.py --rows     # plus one line per run
    PYTHONPATH=. python benchmarks/calibration.py --write-ranges  # regenerate the error table

``--write-ranges`` rewrites ``sizing/engine/measured_error_table.py``: per scale band,
architecture and precision, the number of published runs and the range of the engine's
accelerator-hours that the cross-validated errors give (:func:`measured_errors`; the engine's
ranges in ``sizing/engine/ranges.py`` read it).  ``tests/sizing/test_calibration.py`` fails when
the checked-in table differs from what this harness computes now.

Rows and their sources are in ``tests/sizing/data/published_runs.json``.  A
*group* is the organisation that published a row (Meta, NVIDIA, MosaicML,
DeepSeek...), so a model family is never both fitted and tested.  For each
group the fitted constants (:data:`FITTED`) are chosen again by a grid search
that minimises the squared log2 error on the *other* groups only; the held-out
group is then predicted with them.  The prediction of every row is therefore
out of sample.  The naive rule "6 x active parameters x tokens at 40 % of the
dense BF16 peak" (assumption ``rule_of_thumb_mfu``) is scored on the same rows.

The predictions for every grid point are computed once (they do not depend on
the fold); only the choice of grid point differs between folds.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from sizing.engine import assumptions, measured_error_table
from sizing.engine.cluster import estimate_run, size_cluster
from sizing.engine.compute import (
    attention_flops_per_token,
    recompute_flops_per_token,
    training_flops,
)
from sizing.engine.hardware import ACCELERATORS, peak_tflops
from sizing.engine.measured_error import SOURCE, Coverage, MeasuredError
from sizing.engine.parallelism import workload
from sizing.engine.resolve import resolve
from sizing.engine.validation import parse_input

ROOT = Path(__file__).resolve().parents[1]
DATA_PATH = ROOT / "tests" / "sizing" / "data" / "published_runs.json"
RANGES_PATH = ROOT / "sizing" / "engine" / "measured_error_table.py"
WRITE_RANGES = "PYTHONPATH=. python benchmarks/calibration.py --write-ranges"
TODAY = datetime.date(2026, 12, 2)  # date of the reference rows; dates only the answers

# The constants fitted in each fold, and the grid each is searched over.  Everything
# else (peaks, bandwidths, nccl efficiencies, failure rates, FP8 and MoE overheads,
# vendor factors) comes from its source and is not fitted.
FITTED: Mapping[str, tuple[float, ...]] = {
    "eff_matmul_ceiling": (0.60, 0.65, 0.70),
    "eff_memory_bound_coefficient": (7.0, 10.0, 13.0),
    "eff_moe_factor": (0.6, 0.8),
    "run_overhead_share": (0.10, 0.15),
}

BANDS = (("up to 64 GPUs", 0, 64), ("64-1,024 GPUs", 65, 1024), ("above 1,024 GPUs", 1025, 10**9))
BAND_KEYS = {
    "up to 64 GPUs": "up_to_64",
    "64-1,024 GPUs": "64_to_1024",
    "above 1,024 GPUs": "above_1024",
}
# Metrics that measure speed: the engine's accelerator-hours err the other way.
SPEED_METRICS = frozenset({"mfu", "hfu", "tokens_per_s_per_gpu"})
# The range of a slice spans the 10th to the 90th percentile of its signed errors (8 in 10
# published runs fall inside); a slice of fewer runs than this spans its smallest to largest
# error, since a percentile of a handful of runs is no more than its extremes.  Engine choices,
# explained in docs/engine.md ("Ranges").
RANGE_PERCENTILES = (10.0, 90.0)
MIN_RUNS_FOR_PERCENTILES = 10
_TABLE_DIGITS = 3  # significant digits written to the table
_HOURS_PER_30_DAYS = 720.0  # the engine's default run length for pre-training (resolve_run)
_TRILLION = 1e12


@dataclass(frozen=True)
class Row:
    id: str
    group: str
    metric: str
    observed: float
    rule: float
    band: str
    architecture: str  # "dense" | "MoE"
    precision: str  # "BF16" | "FP8"
    data: Mapping[str, Any]


@dataclass(frozen=True)
class Result:
    row: Row
    predicted: float  # out of sample: constants fitted without the row's group
    fitted: tuple[float, ...]

    @property
    def log2_err(self) -> float:
        return abs(math.log2(self.predicted / self.row.observed))

    @property
    def rule_log2_err(self) -> float:
        return abs(math.log2(self.row.rule / self.row.observed))

    @property
    def gpu_hours_log2_err(self) -> float:
        """Signed log2(engine's accelerator-hours / published): too fast is negative."""
        err = math.log2(self.predicted / self.row.observed)
        return -err if self.row.metric in SPEED_METRICS else err


def observed(raw: Mapping[str, Any]) -> float:
    """The published figure the row is scored on, in the unit of its metric."""
    metric = raw["metric"]
    if metric == "gpu_hours":
        if raw["gpu_hours"]:
            return float(raw["gpu_hours"])
        return float(raw["hardware_count"] * raw["wall_clock_days"] * 24.0)
    if metric == "gpu_hours_per_trillion_tokens":
        return float(raw["gpu_hours_per_trillion_tokens"])
    if metric == "tokens_per_s_per_gpu":
        return float(raw["tokens_per_sec_per_gpu"])
    if metric == "hfu" and raw["reported_tflops_per_gpu"]:
        peak = ACCELERATORS[raw["engine_accelerator"]].peak_bf16_tflops
        return float(raw["reported_tflops_per_gpu"]) / peak
    return float(raw["reported_mfu"])


def rule_of_thumb(raw: Mapping[str, Any]) -> float:
    """6 N D at ``rule_of_thumb_mfu`` of the dense BF16 peak, in the row's metric."""
    mfu = assumptions.value("rule_of_thumb_mfu")
    peak = ACCELERATORS[raw["engine_accelerator"]].peak_bf16_tflops * 1e12
    n = raw["active_params"]
    if raw["metric"] in ("mfu", "hfu"):
        return mfu
    if raw["metric"] == "tokens_per_s_per_gpu":
        return peak * mfu / (6.0 * n)
    tokens = raw["engine_input"]["data"]["tokens"]
    return 6.0 * n * tokens / (peak * mfu) / 3600.0


def band_gpus(raw: Mapping[str, Any]) -> float:
    """GPUs of the published run; when not published, its GPU-hours over a 30-day run."""
    if raw["hardware_count"]:
        return float(raw["hardware_count"])
    hours = raw["gpu_hours"]
    if not hours and raw["gpu_hours_per_trillion_tokens"]:
        hours = raw["gpu_hours_per_trillion_tokens"] * raw["tokens"] / _TRILLION
    return float(hours) / _HOURS_PER_30_DAYS


def band_of(gpus: float) -> str:
    return next(name for name, lo, hi in BANDS if gpus <= hi and gpus >= lo - 1)


def load_rows(path: Path = DATA_PATH) -> list[Row]:
    out = []
    for raw in json.loads(path.read_text())["rows"]:
        prec = "FP8" if raw["engine_input"]["training"].get("precision") == "fp8" else "BF16"
        out.append(
            Row(
                id=raw["id"],
                group=raw["group"],
                metric=raw["metric"],
                observed=observed(raw),
                rule=rule_of_thumb(raw),
                band=band_of(band_gpus(raw)),
                architecture="MoE" if raw["architecture"] == "MoE" else "dense",
                precision=prec,
                data=raw,
            )
        )
    return out


def predict(row: Row) -> float:
    """The engine's figure for one row, in the row's metric (no alternatives, no cost)."""
    data = json.loads(json.dumps(row.data["engine_input"]))
    data.setdefault("hardware", {})["accelerator"] = row.data["engine_accelerator"]
    r = resolve(parse_input(data), today=TODAY)
    acc = ACCELERATORS[r.accelerator]
    w = workload(r)
    flops = training_flops(w.model_flops_per_token, r.tokens, r.epochs)
    if r.count is not None:
        run = estimate_run(w, r, acc, r.count, flops)
    else:
        run = size_cluster(w, r, acc, flops).run
    if row.metric in ("gpu_hours", "gpu_hours_per_trillion_tokens"):
        return run.gpu_hours
    tokens_per_s = peak_tflops(acc, r.precision) * 1e12 * run.plan.mfu / w.model_flops_per_token
    if row.metric == "tokens_per_s_per_gpu":
        return tokens_per_s
    # A published utilisation counts attention in full, every query against every key (PaLM
    # app. B; Megatron-LM's 72 B s L h^2 (1 + s/6h + V/12hL)), where the engine counts the
    # half a causal mask leaves: the same speed in the row's convention.
    full = w.model_flops_per_token + sum(
        attention_flops_per_token(w.layers, w.hidden, w.seq, causal) * sign
        for causal, sign in ((False, 1.0), (w.causal, -1.0))
    )
    if row.metric == "hfu":
        full += recompute_flops_per_token(
            w.active_params, w.layers, w.hidden, w.seq, run.plan.recompute, causal=False
        )
    return tokens_per_s * full / (peak_tflops(acc, r.precision) * 1e12)


def grid() -> list[tuple[float, ...]]:
    return list(itertools.product(*FITTED.values()))


def predictions(rows: Sequence[Row]) -> dict[tuple[float, ...], list[float]]:
    """Every row predicted at every grid point."""
    out = {}
    for point in grid():
        with assumptions.overridden(dict(zip(FITTED, point, strict=True))):
            out[point] = [predict(row) for row in rows]
    return out


def _loss(preds: Sequence[float], rows: Sequence[Row], keep: Sequence[int]) -> float:
    return sum(math.log2(preds[i] / rows[i].observed) ** 2 for i in keep)


def cross_validate(
    rows: Sequence[Row], table: Mapping[tuple[float, ...], Sequence[float]] | None = None
) -> list[Result]:
    """Leave one group out: fit on the other groups, predict the held-out one."""
    table = table or predictions(rows)
    results: list[Result | None] = [None] * len(rows)
    for group in sorted({r.group for r in rows}):
        train = [i for i, r in enumerate(rows) if r.group != group]
        best = min(table, key=lambda p: (_loss(table[p], rows, train), p))
        for i, r in enumerate(rows):
            if r.group == group:
                results[i] = Result(row=r, predicted=table[best][i], fitted=best)
    return [r for r in results if r is not None]


def fit_all(
    rows: Sequence[Row], table: Mapping[tuple[float, ...], Sequence[float]]
) -> tuple[float, ...]:
    """The grid point fitted on every row (the values the engine ships)."""
    every = range(len(rows))
    return min(table, key=lambda p: (_loss(table[p], rows, every), p))


@dataclass(frozen=True)
class Summary:
    label: str
    n: int
    median: float
    worst: float
    rule_median: float
    rule_worst: float


def summarise(results: Sequence[Result]) -> list[Summary]:
    """Median and worst |log2(predicted/published)| per band, architecture and precision."""
    slices: list[tuple[str, list[Result]]] = [("all rows", list(results))]
    for name, _, _ in BANDS:
        slices.append((name, [r for r in results if r.row.band == name]))
    for arch in ("dense", "MoE"):
        slices.append((arch, [r for r in results if r.row.architecture == arch]))
    for prec in ("BF16", "FP8"):
        slices.append((prec, [r for r in results if r.row.precision == prec]))
    out = []
    for label, rs in slices:
        if not rs:
            continue
        out.append(
            Summary(
                label=label,
                n=len(rs),
                median=statistics.median(r.log2_err for r in rs),
                worst=max(r.log2_err for r in rs),
                rule_median=statistics.median(r.rule_log2_err for r in rs),
                rule_worst=max(r.rule_log2_err for r in rs),
            )
        )
    return out


def markdown_table(head: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def summary_markdown(summaries: Sequence[Summary]) -> str:
    head = ("rows", "n", "engine median", "engine worst", "rule median", "rule worst")
    return markdown_table(
        head,
        (
            (
                s.label,
                str(s.n),
                *(f"{v:.2f}" for v in (s.median, s.worst, s.rule_median, s.rule_worst)),
            )
            for s in summaries
        ),
    )


def rows_markdown(results: Sequence[Result]) -> str:
    names = tuple(FITTED)
    lines = [
        "| run | group | band | metric | published | engine (CV) | ratio | rule ratio | fitted "
        + "/".join(n.removeprefix("eff_") for n in names)
        + " |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r.row.id} | {r.row.group} | {r.row.band} | {r.row.metric} | "
            f"{r.row.observed:.4g} | {r.predicted:.4g} | {r.predicted / r.row.observed:.2f} | "
            f"{r.row.rule / r.row.observed:.2f} | {'/'.join(f'{v:g}' for v in r.fitted)} |"
        )
    return "\n".join(lines)


# --- the error table behind the engine's ranges (--write-ranges) --------------------------------


def _sig(x: float) -> float:
    return float(f"{x:.{_TABLE_DIGITS}g}")


def _percentile(values: Sequence[float], p: float) -> float:
    """The ``p``-th percentile, interpolated between the sorted values (inclusive method)."""
    ordered = sorted(values)
    at = (len(ordered) - 1) * p / 100.0
    below = math.floor(at)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (at - below)


def _slices(results: Sequence[Result]) -> list[tuple[str, str, list[Result], int, int]]:
    """(slice, key, results, gpus_above, gpus_up_to) for every slice that has rows."""
    out = [("all", "all", list(results), 0, 0)]
    for name, lo, hi in BANDS:
        rs = [r for r in results if r.row.band == name]
        out.append(("band", BAND_KEYS[name], rs, max(lo - 1, 0), hi))
    for arch in ("dense", "MoE"):
        rs = [r for r in results if r.row.architecture == arch]
        out.append(("architecture", arch.lower(), rs, 0, 0))
    for prec in ("BF16", "FP8"):
        rs = [r for r in results if r.row.precision == prec]
        out.append(("precision", prec.lower(), rs, 0, 0))
    return [s for s in out if s[2]]


def measured_errors(results: Sequence[Result], as_of: str) -> list[MeasuredError]:
    """Per slice: published runs, and the range of accelerator-hours their CV errors give.

    A run that took ``2^-e`` times the engine's figure (``e`` its signed error) sets the
    range: ``low = 2^-(90th percentile of e)``, ``high = 2^-(10th percentile)``, each widened
    to include the engine's own figure (``low <= 1 <= high``).
    """
    out = []
    for slice_, key, rs, above, up_to in _slices(results):
        errs = [r.gpu_hours_log2_err for r in rs]
        if len(errs) >= MIN_RUNS_FOR_PERCENTILES:
            lo_err, hi_err = (_percentile(errs, p) for p in RANGE_PERCENTILES)
            statistic = "10th-90th percentile"
        else:
            lo_err, hi_err = min(errs), max(errs)
            statistic = "smallest-largest"
        absolute = [abs(e) for e in errs]
        out.append(
            MeasuredError(
                slice=slice_,
                key=key,
                runs=len(rs),
                low=_sig(min(1.0, 2.0**-hi_err)),
                high=_sig(max(1.0, 2.0**-lo_err)),
                typical=_sig(2.0 ** statistics.median(absolute)),
                worst=_sig(2.0 ** max(absolute)),
                statistic=statistic,
                gpus_above=above,
                gpus_up_to=up_to,
                source=SOURCE,
                as_of=as_of,
            )
        )
    return out


def coverage(rows: Sequence[Row], as_of: str) -> Coverage:
    """What the published runs span: methods, data, precisions, accelerators, counts, sizes."""
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


def _record(record: MeasuredError | Coverage, indent: str, assign: str = "") -> list[str]:
    lines = [f"{indent}{assign}{type(record).__name__}("]
    for f in fields(record):
        value = getattr(record, f.name)
        shown = "SOURCE" if f.name == "source" and value == SOURCE else _literal(value)
        lines.append(f"{indent}    {f.name}={shown},")
    return lines + [f"{indent})"]


def ranges_module(errors: Sequence[MeasuredError], covered: Coverage) -> str:
    """The source of ``sizing/engine/measured_error_table.py``."""
    lines = [
        '"""The cross-validated error of the engine per scale band, architecture and precision.',
        "",
        f"Generated by ``{WRITE_RANGES}``; do not edit by hand.",
        "Records: :mod:`sizing.engine.measured_error`; how they are read: ``docs/engine.md``.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from .measured_error import SOURCE, Coverage, MeasuredError",
        "",
        "MEASURED_ERRORS: tuple[MeasuredError, ...] = (",
    ]
    for e in errors:
        lines += _record(e, "    ")
        lines[-1] += ","
    lines.append(")")
    lines.append("")
    lines += _record(covered, "", assign="COVERAGE = ")
    return "\n".join(lines) + "\n"


def _undated(records: Sequence[Any]) -> list[Any]:
    return [replace(r, as_of="") for r in records]


def table_is_current(errors: Sequence[MeasuredError], covered: Coverage) -> bool:
    """Whether the checked-in table holds these figures (whatever its date)."""
    checked_in = (*measured_error_table.MEASURED_ERRORS, measured_error_table.COVERAGE)
    return _undated((*errors, covered)) == _undated(checked_in)


def ranges_markdown(errors: Sequence[MeasuredError]) -> str:
    head = ("slice", "runs", "range of accelerator-hours", "typical error", "worst", "read as")
    return markdown_table(
        head,
        (
            (
                f"{e.slice} {e.key}",
                str(e.runs),
                f"x{e.low:.2f} to x{e.high:.2f}",
                f"x{e.typical:.2f}",
                f"x{e.worst:.2f}",
                e.statistic,
            )
            for e in errors
        ),
    )


def write_ranges(rows: Sequence[Row], results: Sequence[Result]) -> bool:
    """Rewrite the table if its figures changed (dated today); True when it was written."""
    today = datetime.date.today().isoformat()
    errors, covered = measured_errors(results, today), coverage(rows, today)
    print(ranges_markdown(errors))
    if table_is_current(errors, covered):
        print(f"\n{RANGES_PATH.relative_to(ROOT)} is current; not rewritten.")
        return False
    RANGES_PATH.write_text(ranges_module(errors, covered))
    print(f"\nWrote {RANGES_PATH.relative_to(ROOT)}.")
    return True


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", action="store_true", help="also print one line per run")
    parser.add_argument(
        "--write-ranges",
        action="store_true",
        help=f"rewrite {RANGES_PATH.relative_to(ROOT)} (the error table behind the ranges)",
    )
    args = parser.parse_args(argv)
    rows = load_rows()
    table = predictions(rows)
    results = cross_validate(rows, table)
    print(summary_markdown(summarise(results)))
    print()
    fitted = ", ".join(f"{k} {v:g}" for k, v in zip(FITTED, fit_all(rows, table), strict=True))
    print(f"Fitted on every row (the engine's values): {fitted}.")
    print(
        f"|log2(predicted/published)|, leave-one-group-out over {len(rows)} rows in "
        f"{len({r.group for r in rows})} groups; fitted: {', '.join(FITTED)}"
    )
    if args.rows:
        print()
        print(rows_markdown(results))
    if args.write_ranges:
        print()
        write_ranges(rows, results)


if __name__ == "__main__":
    main()
