"""Who trains, with what: the software answer sets the efficiency prior.

The factors are measured on the published runs by ``benchmarks/calibration.py``; here the engine
is checked to read the answer, to centre on the typical published run without one, and to ship
the factors the harness measures now (``docs/calibration.md``).
"""

from __future__ import annotations

import copy

import pytest

from benchmarks.calibration import FITTED, fit_all, load_rows, predictions
from sizing.engine import size_dict
from sizing.engine.assumptions import overridden, value
from sizing.engine.stack_efficiency import (
    DEEPSPEED,
    HUGGINGFACE,
    MEGATRON,
    PYTORCH,
    TYPICAL,
    stack_family,
)

# A 7B pre-training on a cluster the customer fixed: the GPU-hours follow the utilisation alone.
RUN = {
    "model": {"name": "Llama 2 7B"},
    "training": {"method": "pretrain", "precision": "bf16"},
    "data": {"tokens": 1e12},
    "batch": {"sequence_length": 4096, "global_batch_tokens": 4e6},
    "hardware": {"accelerator": "a100-80gb", "count": 64},
}


def _sized(frameworks: list[str] | None) -> dict:
    data = copy.deepcopy(RUN)
    if frameworks is not None:
        data["software"] = {"frameworks": frameworks}
    return size_dict(data)["compute"]


@pytest.mark.parametrize(
    ("answer", "family"),
    [
        (None, TYPICAL),
        ([], TYPICAL),
        (["jax"], TYPICAL),
        (["pytorch"], PYTORCH),
        (["pytorch", "deepspeed"], DEEPSPEED),
        (["pytorch", "huggingface", "deepspeed"], HUGGINGFACE),  # the Trainer drives DeepSpeed
        (["megatron", "deepspeed"], MEGATRON),  # Megatron-DeepSpeed (BLOOM)
        (["NeMo"], MEGATRON),
    ],
)
def test_the_framework_answer_names_its_software_family(
    answer: list[str] | None, family: str
) -> None:
    assert stack_family(answer) == family


def test_without_a_software_answer_the_run_is_sized_at_the_typical_published_speed() -> None:
    with overridden({"eff_stack_typical": 0.5, "eff_stack_megatron": 1.0}):
        unanswered = _sized(None)
        megatron = _sized(["megatron"])
    assert unanswered["assumed_mfu"] == pytest.approx(megatron["assumed_mfu"] * 0.5, rel=1e-4)
    assert unanswered["gpu_hours"] > 1.9 * megatron["gpu_hours"]


def test_each_family_reaches_its_own_share_of_the_modelled_utilisation() -> None:
    with overridden({"eff_stack_pytorch": 0.8, "eff_stack_huggingface": 0.6}):
        pytorch = _sized(["pytorch"])
        huggingface = _sized(["pytorch", "huggingface"])
    assert huggingface["assumed_mfu"] == pytest.approx(pytorch["assumed_mfu"] * 0.6 / 0.8, rel=1e-4)


def test_the_engine_ships_the_constants_and_factors_the_published_runs_give_now() -> None:
    """Fitted on the development rows (the set-aside fifth unread): docs/calibration.md."""
    rows = load_rows()
    point, stacks = fit_all(rows, predictions(rows))
    for key, fitted in zip(FITTED, point, strict=True):
        assert value(key) == pytest.approx(fitted), key
    for family, factor in stacks:
        assert value(f"eff_stack_{family}") == pytest.approx(factor, abs=0.005), family
