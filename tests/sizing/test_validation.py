"""Invalid input is rejected (never clamped), one message per problem naming the field."""

from __future__ import annotations

import pytest

from sizing.engine import InvalidInput, SizingInput, parse_input
from sizing.engine.inputs import TrainingInput
from sizing.engine.parameter_count import DecoderShape
from sizing.engine.validation import check_shape


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"model": {"total_params": "-7"}}, "model.total_params"),
        ({"model": {"total_params": -7}}, "model.total_params"),
        ({"model": {"total_params": True}}, "model.total_params"),
        ({"model": {"total_params": float("nan")}}, "model.total_params"),
        ({"model": {"total_params": float("inf")}}, "model.total_params"),
        ({"model": {"total_params": 1e300}}, "model.total_params"),
        ({"model": {"layers": 3.5}}, "model.layers"),
        ({"model": {"nmae": "x"}}, "model.nmae"),
        ({"modle": {}}, "modle"),
        ({"training": {"method": "rlhf"}}, "training.method"),
        ({"hardware": {"accelerator": "tpu-v9"}}, "hardware.accelerator"),
        ({"data": {"epochs": 0}}, "data.epochs"),
        ({"schedule": {"deadline_days": -1}}, "schedule.deadline_days"),
        ({"roadmap": {"utilisation": 1.5}}, "roadmap.utilisation"),
        ({"model": {"total_params": 7e9, "active_params": 8e9}}, "model.active_params"),
        ({"model": {"name": "no such model anywhere"}}, "model.name"),
        ({"training": "lora"}, "training"),
        ({"software": {"frameworks": "pytorch"}}, "software.frameworks"),
        ({"parallelism": {"context": 0}}, "parallelism.context"),
        (
            {
                "hardware": {"count": 64},
                "parallelism": {"tensor": 8, "context": 2, "pipeline": 2, "data": 4},
            },
            "parallelism.data",
        ),
    ],
)
def test_each_problem_names_its_field(data: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidInput) as exc:
        parse_input(data)
    assert any(m.startswith(field + ":") for m in exc.value.messages), exc.value.messages


def test_all_problems_are_reported_at_once() -> None:
    with pytest.raises(InvalidInput) as exc:
        parse_input({"model": {"total_params": -1, "layers": 0}, "data": {"epochs": -2}})
    assert len(exc.value.messages) == 3


def test_invalid_input_is_a_value_error() -> None:
    assert issubclass(InvalidInput, ValueError)


@pytest.mark.parametrize("data", [[], "x", 3, None])
def test_non_object_input_is_rejected(data: object) -> None:
    with pytest.raises(InvalidInput):
        parse_input(data)


def test_empty_input_is_valid_and_null_means_not_sure() -> None:
    not_sure = SizingInput()  # every answer None
    assert parse_input({}) == not_sure
    assert parse_input({"model": None, "training": {"method": None}}) == not_sure
    assert parse_input({"training": {"method": None, "precision": "bf16"}}) == SizingInput(
        training=TrainingInput(precision="bf16")
    )


@pytest.mark.parametrize(
    ("figures", "field"),
    [
        ({"layers": 10**400}, "layers"),
        ({"hidden_size": 1e300}, "hidden_size"),
        ({"attention_heads": 0}, "attention_heads"),
        ({"kv_heads": -8}, "kv_heads"),
        ({"vocab_size": 10**8}, "vocab_size"),
        ({"experts": 10**6}, "experts"),
        ({"experts_per_token": 0}, "experts_per_token"),
        ({"head_dim": 10**9}, "head_dim"),
        ({"expert_ffn_hidden_size": 10**12}, "expert_ffn_hidden_size"),
        ({"shared_expert_ffn_hidden_size": -1}, "shared_expert_ffn_hidden_size"),
        ({"dense_layers": 33}, "dense_layers"),
        ({"ffn_hidden_size": 2.5}, "ffn_hidden_size"),
    ],
)
def test_an_absurd_model_shape_is_refused_naming_the_figure(figures, field) -> None:
    shape = DecoderShape(
        **{
            "layers": 32,
            "hidden_size": 4096,
            "attention_heads": 32,
            "kv_heads": 8,
            "ffn_hidden_size": 14336,
            "vocab_size": 128256,
            **figures,
        }
    )
    with pytest.raises(InvalidInput) as refused:
        check_shape(shape)
    assert [line.split(":")[0] for line in refused.value.messages] == [field]


def test_a_real_model_shape_passes_the_shape_check() -> None:
    # Llama 3.1 8B's configuration (Meta's model card)
    check_shape(DecoderShape(32, 4096, 32, 8, 14336, 128256))
