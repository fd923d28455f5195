"""An accelerator of another maker offered for a mixture-of-experts plan says whether the
customer's expert parallelism carries over (sizing/words/rival.py): customer 4 (Mixtral 8x7B,
DeepSpeed and Megatron-style expert parallelism) was offered Intel Gaudi 3 with no word on it."""

from __future__ import annotations

from reports.demo import demo_data
from reports.summary import executive_summary
from sizing.stored_result import read_result
from sizing.words.rival import experts_elsewhere, platform_lines, reads_alternatives
from tests.reports.customer_stories import STORIES
from tests.reports.test_generated_proposals import TODAY, answers_of


def _result(story: str):
    return read_result(demo_data(answers=answers_of(STORIES[story]), today=TODAY).result)


def test_gaudi_offered_for_an_moe_plan_names_intels_forks_and_the_dense_evidence():
    result = _result("4 research lab MoE")
    (offer,) = [
        d for d in executive_summary(result)["decisions"] if "Intel Gaudi 3" in d.split(":")[0]
    ]
    assert "your expert parallelism" in offer
    assert "Intel's own forks (Intel Gaudi software support matrix v1.15" in offer
    assert "all dense models without experts" in offer
    assert offer.endswith("before you choose it.")


def test_an_accelerator_on_the_same_software_or_a_dense_model_needs_no_such_sentence():
    moe = _result("4 research lab MoE")
    assert experts_elsewhere(moe, "b200") == ""  # CUDA, as the plan
    assert experts_elsewhere(moe, "mi300x").startswith("On the AMD Instinct MI300X 192GB,")
    dense = _result("8 game studio tickets")
    assert experts_elsewhere(dense, "mi300x") == ""


def test_the_words_read_the_other_accelerators_only_for_a_plan_beside_an_nvidia_rival():
    # Customer 7's MI325X plan is set beside its NVIDIA counterpart sized on as many accelerators
    amd = demo_data(answers=answers_of(STORIES["7 research centre power limit"]), today=TODAY)
    assert amd.result["cluster"]["accelerator"] == "mi325x" and amd.result["peer"]["fits"]
    assert not reads_alternatives(read_result(amd.result))
    # ... without it (it does not fit, or was not sized) the rival comes from the alternatives
    for peer in ({**amd.result["peer"], "fits": False}, {}):
        without = read_result({**amd.result, "peer": peer})
        assert reads_alternatives(without)
        assert any("Beside it," in line for line in platform_lines(without))
        unsized = read_result({**amd.result, "peer": peer, "alternatives": []})
        assert not any("Beside it," in line for line in platform_lines(unsized))
    assert not reads_alternatives(_result("8 game studio tickets"))  # an NVIDIA plan
