"""Which accelerators the customer's software and choice of makers allow (``platforms.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from sizing.engine import InvalidInput, parse_input, size_dict
from sizing.engine.hardware import ACCELERATORS
from sizing.engine.platforms import FRAMEWORK_STACKS, STACKS, software_stacks

SMALL_RUN: dict[str, Any] = {"model": {"name": "Llama 2 7B"}, "data": {"tokens": 1e9}}


def _size(**sections: Any) -> dict[str, Any]:
    return size_dict({**SMALL_RUN, **sections})


def _makers(out: dict[str, Any]) -> set[str]:
    return {ACCELERATORS[a["accelerator"]].vendor for a in out["alternatives"]}


# --- software: which stacks each framework runs on ------------------------------------------


@pytest.mark.parametrize(
    ("frameworks", "stacks"),
    [
        (["pytorch"], ("cuda", "rocm", "gaudi")),
        (["megatron"], ("cuda", "rocm", "gaudi")),  # ROCm/Megatron-LM (Primus), HabanaAI fork
        (["flash-attn"], ("cuda", "rocm")),  # FlashAttention-2 on MI200/MI300
        (["triton"], ("cuda", "rocm")),  # Triton: NVIDIA and AMD GPUs
        (["jax"], ("cuda", "rocm")),  # no JAX on Gaudi
        (["tensorflow"], ("cuda", "rocm")),  # Gaudi dropped TensorFlow after 1.14
        (["deepspeed", "huggingface"], ("cuda", "rocm", "gaudi")),
        (["nemo"], ("cuda",)),
        (["pytorch", "jax"], ("cuda", "rocm")),
        (["an-in-house-framework"], ("cuda", "rocm", "gaudi")),  # unknown: restricts nothing
    ],
)
def test_each_framework_runs_on_the_stacks_its_makers_document(
    frameworks: list[str], stacks: tuple[str, ...]
) -> None:
    assert software_stacks(frameworks, False) == stacks


def test_custom_cuda_kernels_run_on_nvidia_only() -> None:
    assert software_stacks(["pytorch"], True) == ("cuda",)


def test_every_accelerator_runs_a_known_stack_and_every_framework_runs_on_cuda() -> None:
    assert {acc.software for acc in ACCELERATORS.values()} == set(STACKS)
    assert all("cuda" in stacks for stacks in FRAMEWORK_STACKS.values())


def test_megatron_flashattention_and_triton_keep_amd_in_the_comparison() -> None:
    out = _size(software={"frameworks": ["megatron", "flash-attn", "triton"]})
    assert "AMD" in _makers(out)
    assert "Intel" not in _makers(out)
    assert (
        "Intel Gaudi 3 (HL-325L): FlashAttention and Triton do not run on Intel Gaudi software"
        in out["excluded_accelerators"]
    )
    assert not any(e.startswith("AMD") for e in out["excluded_accelerators"])


def test_jax_rules_out_gaudi_only() -> None:
    out = _size(software={"frameworks": ["jax"]})
    assert out["excluded_accelerators"] == [
        "Intel Gaudi 3 (HL-325L): JAX does not run on Intel Gaudi software",
        "Intel Gaudi 2 (HL-225H): JAX does not run on Intel Gaudi software",
    ]


# --- the customer's choice of makers -----------------------------------------------------------


@pytest.mark.parametrize(
    ("vendors", "accelerator", "makers"),
    [
        (["nvidia"], "h100-sxm", {"NVIDIA"}),
        (["amd"], "mi300x", {"AMD"}),
        (["intel"], "gaudi3", {"Intel"}),
        (["nvidia", "amd"], "h100-sxm", {"NVIDIA", "AMD"}),
    ],
)
def test_the_recommendation_and_its_alternatives_keep_to_the_allowed_makers(
    vendors: list[str], accelerator: str, makers: set[str]
) -> None:
    out = _size(hardware={"vendors": vendors})
    assert out["cluster"]["accelerator"] == accelerator
    assert _makers(out) <= makers
    compared = {out["cluster"]["accelerator"], *(a["accelerator"] for a in out["alternatives"])}
    excluded = len(out["excluded_accelerators"])
    allowed = [a for a in ACCELERATORS.values() if a.vendor in makers]
    assert excluded == len(ACCELERATORS) - len(allowed)
    assert compared <= {a.id for a in allowed}


def test_an_excluded_maker_is_listed_with_the_plain_reason() -> None:
    out = _size(hardware={"vendors": ["amd"]})
    assert (
        "NVIDIA H100 SXM5 80GB: made by NVIDIA; you asked for AMD accelerators only"
        in out["excluded_accelerators"]
    )
    assert "you asked for AMD accelerators only" in out["drivers"]
    ids = set(ACCELERATORS)
    assert not any(word in ids for e in out["excluded_accelerators"] for word in e.split())


def test_a_given_accelerator_of_an_excluded_maker_is_sized_with_a_warning() -> None:
    out = _size(hardware={"accelerator": "mi300x", "vendors": ["nvidia"]})
    assert out["cluster"]["accelerator"] == "mi300x"
    assert (
        "AMD Instinct MI300X 192GB: made by AMD; you asked for NVIDIA accelerators only"
        in (out["warnings"])
    )


def test_makers_and_software_that_exclude_everything_keep_the_maker_and_warn() -> None:
    out = _size(hardware={"vendors": ["amd"]}, software={"custom_cuda_kernels": True})
    assert out["cluster"]["accelerator"] == "mi300x"
    assert (
        "AMD Instinct MI300X 192GB: custom CUDA kernels do not run on AMD ROCm" in (out["warnings"])
    )
    assert out["alternatives"] == []


def test_no_preference_compares_every_maker_and_is_listed_as_assumed() -> None:
    out = _size()
    assert out["excluded_accelerators"] == []
    makers = next(a for a in out["assumptions"] if a["key"] == "hardware.vendors")
    assert (makers["value"], makers["provided_by"]) == ("any", "assumed")


def test_given_makers_are_recorded_as_the_customers() -> None:
    out = _size(hardware={"vendors": ["amd", "nvidia"]})
    makers = next(a for a in out["assumptions"] if a["key"] == "hardware.vendors")
    assert (makers["value"], makers["provided_by"]) == ("nvidia, amd", "customer")


@pytest.mark.parametrize("bad", [[], ["ibm"], "amd", ["amd", 3]])
def test_an_unknown_or_empty_list_of_makers_is_refused_naming_the_field(bad: object) -> None:
    with pytest.raises(InvalidInput) as error:
        parse_input({"hardware": {"vendors": bad}})
    assert error.value.messages[0].startswith("hardware.vendors: must be a list of one or more")


def test_makers_are_kept_once_in_catalog_order() -> None:
    parsed = parse_input({"hardware": {"vendors": ["intel", "nvidia", "intel"]}})
    assert parsed.hardware.vendors == ("nvidia", "intel")
