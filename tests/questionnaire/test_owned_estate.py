"""Question 14 asks what the customer already owns, the power they have and their budget
ceiling (issue 26): the answers are read against the catalog, kept as typed, fed to the
engine, and the first estimate sizes on the owned accelerators before anything is bought."""

from __future__ import annotations

import pytest

from questionnaire.forms.operations import DeploymentForm
from questionnaire.models import Draft
from questionnaire.paths import KEY_FIELDS
from questionnaire.questions import get_question
from sizing.public import build_engine_input, read_owned
from tests.questionnaire.conftest import post_step, step_url, walk_to_review

ROBOTICS = {  # customer 5: two DGX A100, a 34B model on 30 billion tokens in three weeks
    "model": {"model_name": "", "architecture": "dense", "total_params": "34B"},
    "method": {"method": "full_finetune", "phases": "1", "experiments": "1"},
    "data": {"dataset_size": "30B tokens", "dataset_unit": "tokens", "epochs": "1"},
    "timeline": {"run_time_hours": "3 weeks", "runs_per_month": "0.33"},
    "deployment": {"location": "hybrid", "owned": "two DGX A100 (16 A100 80GB)"},
}


@pytest.mark.parametrize(
    ("typed", "accelerator", "count"),
    [
        ("16 A100 80GB", "a100-80gb", 16),
        ("two DGX A100", "a100-80gb", 16),
        ("512 H100", "h100-sxm", 512),
        ("4x L40S", "l40s", 4),
        ("8 × AMD Instinct MI300X 192GB", "mi300x", 8),
    ],
)
def test_what_they_own_is_read_against_the_catalog(typed: str, accelerator: str, count: int):
    owned = read_owned(typed)
    assert owned is not None
    assert (owned.accelerator, owned.count) == (accelerator, count)


@pytest.mark.parametrize("typed", ["", "none", "Not sure", "n/a"])
def test_none_and_not_sure_are_valid_answers(typed: str):
    form = DeploymentForm(data={"owned": typed, "location": "on_premises"})
    assert form.is_valid(), form.errors
    assert read_owned(typed) is None


def test_an_accelerator_not_in_the_catalog_asks_again():
    form = DeploymentForm(data={"owned": "some GPUs"})
    assert not form.is_valid()
    assert "16 A100 80GB" in form.errors["owned"][0]


def test_the_ceilings_read_money_and_power_as_people_write_them():
    form = DeploymentForm(data={"power_kw": "2 MW", "budget_usd": "$40 million"})
    assert form.is_valid(), form.errors
    answer = form.to_answer()
    assert answer["power_kw"] == 2000 and answer["budget_usd"] == 40_000_000
    assert answer["power_kw_text"] == "2 MW" and answer["budget_usd_text"] == "$40 million"


def test_the_short_path_asks_what_they_own_and_their_ceilings():
    assert {"owned", "power_kw", "budget_usd"} <= set(KEY_FIELDS["deployment"])
    assert not get_question("deployment").expert


def test_the_answers_feed_the_engines_estate():
    answers = {
        "deployment": {"owned": "16 A100 80GB", "power_kw": 2000, "budget_usd": 4e7},
    }
    built = build_engine_input(answers=answers).engine_input
    assert built["estate"] == {
        "accelerator": "a100-80gb",
        "count": 16,
        "power_kw": 2000,
        "budget_usd": 4e7,
    }


@pytest.mark.django_db
def test_the_first_estimate_sizes_on_what_they_own_and_buys_nothing(client):
    draft_id = walk_to_review(client, ROBOTICS)
    page = client.get(step_url(draft_id, "review")).content.decode()
    start = page.index('class="first-estimate"')
    estimate = page[start : page.index("</section>", start)]
    assert "The accelerators you own, in your data centre" in estimate
    assert "16 × NVIDIA A100 SXM4 80GB you already own" in estimate
    assert "You own 16 × NVIDIA A100 SXM4 80GB: one run takes about" in estimate
    assert "past your deadline of 21 days" in estimate
    assert "rented for about" in estimate  # what to add, with its cost
    assert "no capital" in estimate
    assert "bought in year 1" not in estimate


@pytest.mark.django_db
def test_what_they_own_is_kept_on_the_page_when_they_come_back(client):
    draft_id = walk_to_review(client, ROBOTICS)
    post_step(client, draft_id, "deployment", {**ROBOTICS["deployment"], "budget_usd": "$2M"})
    stored = Draft.objects.get(pk=draft_id).step_data["deployment"]
    assert stored["deployment-owned"] == ["two DGX A100 (16 A100 80GB)"]
    page = client.get(step_url(draft_id, "deployment")).content.decode()
    assert 'value="two DGX A100 (16 A100 80GB)"' in page
    assert 'value="$2M"' in page


@pytest.mark.parametrize(
    ("typed", "fabric", "gbps", "storage_tb"),
    [
        (
            "two DGX A100 servers (16 A100 80GB, HDR InfiniBand, a 200 TB NAS)",
            "infiniband",
            200,
            200,
        ),
        ("64 H100 on 400G RoCE with 1.5 PB of Lustre", "ethernet", 400, 1500),
        ("8 x MI300X, 400 GbE", "ethernet", 400, None),
        ("32 H100, NDR InfiniBand", "infiniband", 400, None),
        ("16 A100", None, None, None),
    ],
)
def test_the_network_and_storage_they_own_are_read_beside_the_accelerators(
    typed: str, fabric: str | None, gbps: int | None, storage_tb: float | None
) -> None:
    owned = read_owned(typed)
    assert owned is not None
    assert (owned.fabric, owned.fabric_gbps, owned.storage_tb) == (fabric, gbps, storage_tb)


def test_a_nas_is_no_count_of_accelerators_and_ib_200_is_no_b200() -> None:
    owned = read_owned("a 200 TB NAS and 16 A100")
    assert owned is not None and (owned.accelerator, owned.count) == ("a100-80gb", 16)
    ib = read_owned("32 H100 with IB 200")
    assert ib is not None and ib.accelerator == "h100-sxm"
