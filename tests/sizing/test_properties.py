"""Property tests: finite, deterministic, monotone; invalid input always raises."""

from __future__ import annotations

import json
import math
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sizing.engine import InvalidInput, parse_input, size_dict

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

params = st.floats(min_value=1e8, max_value=2e11)
tokens = st.floats(min_value=1e8, max_value=2e13)
methods = st.sampled_from(["pretrain", "full_finetune", "lora", "qlora"])
accs = st.sampled_from(["h100-sxm", "a100-80gb", "mi300x", "l40s", "b200"])


def _inp(
    n: float, d: float, method: str, acc: str, epochs: float = 1.0, deadline: float = 30.0
) -> dict[str, Any]:
    return {
        "model": {"total_params": n},
        "training": {"method": method},
        "data": {"tokens": d, "epochs": epochs},
        "hardware": {"accelerator": acc},
        "schedule": {"deadline_days": deadline},
    }


def _finite(x: Any) -> bool:
    if isinstance(x, float):
        return math.isfinite(x)
    if isinstance(x, dict):
        return all(_finite(v) for v in x.values())
    if isinstance(x, list):
        return all(_finite(v) for v in x)
    return True


@FAST
@given(params, tokens, methods, accs)
def test_results_are_finite_and_deterministic(n: float, d: float, method: str, acc: str) -> None:
    a = size_dict(_inp(n, d, method, acc))
    b = size_dict(_inp(n, d, method, acc))
    assert json.dumps(a) == json.dumps(b)
    assert _finite(a)


@FAST
@given(params, tokens, methods, st.floats(min_value=1.01, max_value=4.0))
def test_more_params_never_need_fewer_gpu_hours_or_less_memory(
    n: float, d: float, method: str, k: float
) -> None:
    small = size_dict({**_inp(n, d, method, "h100-sxm"), "hardware": {"count": 8}})
    big = size_dict({**_inp(n * k, d, method, "h100-sxm"), "hardware": {"count": 8}})
    assert big["compute"]["gpu_hours"] >= small["compute"]["gpu_hours"] * 0.999
    assert big["memory"]["min_gpus"] >= small["memory"]["min_gpus"] or not big["memory"]["fits"]


@FAST
@given(
    params,
    tokens,
    st.floats(min_value=1.01, max_value=4.0),
    st.floats(min_value=1.0, max_value=4.0),
)
def test_more_tokens_or_epochs_never_need_fewer_gpu_hours(
    n: float, d: float, k: float, e: float
) -> None:
    base = size_dict({**_inp(n, d, "pretrain", "h100-sxm"), "hardware": {"count": 16}})
    more = size_dict(
        {**_inp(n, d * k, "pretrain", "h100-sxm", epochs=e), "hardware": {"count": 16}}
    )
    assert more["compute"]["gpu_hours"] >= base["compute"]["gpu_hours"] * 0.999
    assert more["memory"]["per_gpu_gb"] >= base["memory"]["per_gpu_gb"] * 0.999


@FAST
@given(
    params, tokens, st.floats(min_value=0.5, max_value=200), st.floats(min_value=1.0, max_value=5.0)
)
def test_longer_deadline_never_needs_more_accelerators(
    n: float, d: float, days: float, k: float
) -> None:
    """Among deadlines that can be met; a missed one gets the knee, which may be smaller
    than the size a longer deadline needs just past it (see test_deadline.py)."""
    short = size_dict(_inp(n, d, "pretrain", "h100-sxm", deadline=days))
    long = size_dict(_inp(n, d, "pretrain", "h100-sxm", deadline=days * k))
    if short["timeline"]["deadline"]["met"]:
        assert long["cluster"]["gpus"] <= short["cluster"]["gpus"]
    else:
        fastest = short["timeline"]["deadline"]["fastest_gpus"]
        assert long["cluster"]["gpus_per_job"] <= fastest


@FAST
@given(params, tokens, st.floats(min_value=0.5, max_value=200))
def test_the_recommended_size_is_not_beyond_the_minimum_of_the_time_curve(
    n: float, d: float, days: float
) -> None:
    out = size_dict(_inp(n, d, "pretrain", "h100-sxm", deadline=days))
    gpus, run_days = out["cluster"]["gpus_per_job"], out["timeline"]["wall_clock_days"]
    options = out["timeline"]["options"]
    fastest = min(options, key=lambda o: o["wall_clock_days"])
    assert gpus <= fastest["gpus"] or run_days <= fastest["wall_clock_days"] * 1.001
    larger = [o for o in options if o["gpus"] > gpus]
    if larger:  # the next larger size is not slower: time still falls where we stand
        assert min(larger, key=lambda o: o["gpus"])["wall_clock_days"] <= run_days * 1.001
    if not out["timeline"]["deadline"]["met"]:
        assert out["timeline"]["deadline"]["fastest_days"] <= run_days


@FAST
@given(params, st.floats(min_value=1e9, max_value=5e12))
def test_doubling_tokens_roughly_doubles_gpu_hours(n: float, d: float) -> None:
    one = size_dict({**_inp(n, d, "pretrain", "h100-sxm"), "hardware": {"count": 64}})
    two = size_dict({**_inp(n, 2 * d, "pretrain", "h100-sxm"), "hardware": {"count": 64}})
    ratio = two["compute"]["gpu_hours"] / one["compute"]["gpu_hours"]
    assert 1.9 <= ratio <= 2.1


@FAST
@given(params, tokens, st.floats(min_value=1.01, max_value=4.0), st.sampled_from([8, 64, 512]))
def test_a_larger_model_never_trains_faster_on_the_same_cluster(
    n: float, d: float, k: float, gpus: int
) -> None:
    small = size_dict({**_inp(n, d, "pretrain", "h100-sxm"), "hardware": {"count": gpus}})
    big = size_dict({**_inp(n * k, d, "pretrain", "h100-sxm"), "hardware": {"count": gpus}})
    if small["memory"]["fits"] and big["memory"]["fits"]:
        assert big["timeline"]["wall_clock_days"] >= small["timeline"]["wall_clock_days"] * 0.999


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
bad_numbers = st.one_of(
    st.booleans(),
    st.text(max_size=4),
    st.just(float("nan")),
    st.floats(max_value=0),
    st.just(float("inf")),
    st.just(1e200),
)


@settings(max_examples=80, deadline=None)
@given(json_values)
def test_arbitrary_json_either_parses_or_raises_invalid_input(data: Any) -> None:
    try:
        parse_input(data)
    except InvalidInput as exc:
        assert exc.messages and all(":" in m for m in exc.messages)


@settings(max_examples=50, deadline=None)
@given(
    st.sampled_from(
        [
            "model.total_params",
            "data.tokens",
            "data.epochs",
            "schedule.deadline_days",
            "hardware.count",
            "batch.sequence_length",
        ]
    ),
    bad_numbers,
)
def test_bad_numbers_always_raise_invalid_input(field: str, bad: Any) -> None:
    section, name = field.split(".")
    try:
        parse_input({section: {name: bad}})
    except InvalidInput as exc:
        assert any(m.startswith(field) for m in exc.messages)
    else:
        raise AssertionError(f"{field}={bad!r} was accepted")
