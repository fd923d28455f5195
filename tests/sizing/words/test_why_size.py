"""The proposal gives one reason for the cluster's size, the engine's binding constraint (the
review page's too), and says plainly when the memory plan is tight."""

import copy
from datetime import date
from functools import cache

from reports.demo import demo_answers, demo_data
from reports.wording import recommendation_sentence, why_sentences
from sizing.stored_result import read_result
from sizing.words.estimate import MEMORY, size_set_by

TODAY = date(2026, 12, 2)


@cache
def raw(scenario: str = "") -> dict:
    return dict(demo_data(answers=demo_answers(scenario), today=TODAY).result)


def memory_bound(per_gpu_gb: float = 75.9):
    """The reader's walk: memory sets 2 accelerators, 75.9 GB of 76 GB usable, 2-day deadline."""
    result = copy.deepcopy(raw("lora-one-node"))
    result["cluster"].update(gpus=2, gpus_per_job=2)
    result["memory"].update(min_gpus=2, per_gpu_gb=per_gpu_gb, usable_gpu_gb=76.0, fits=True)
    result["timeline"].update(deadline_days=2.0, deadline={"met": True})
    return result


def test_a_memory_bound_plan_gives_memory_as_its_one_reason_not_the_deadline():
    result = memory_bound()
    assert size_set_by(result) == MEMORY
    why = " ".join(why_sentences("compute", read_result(result)))
    assert "is sized to finish a run within your deadline" not in why
    assert "The memory the model needs sets the cluster at 2 accelerators for one run" in why
    assert "; fewer would meet your deadline of 2 days." in why


def test_a_deadline_bound_plan_says_the_deadline_sets_it():
    why = " ".join(why_sentences("compute", read_result(raw())))
    assert "The cluster is sized to finish a run within your deadline of 21 days." in why


def test_a_plan_using_more_than_95_percent_of_usable_memory_is_called_tight_with_what_to_do():
    said = recommendation_sentence("memory", read_result(memory_bound()))
    assert "75.9 GB of its 76 GB usable memory, so the plan fits, but tightly" in said
    assert "it leaves only 100 MB of the usable memory free" in said
    assert "already keeps a margin (4 GB of the 80 GB) free" in said
    assert "Our engineer checks it on a trial run" in said


def test_a_plan_with_room_simply_fits():
    said = recommendation_sentence("memory", read_result(memory_bound(60.0)))
    assert said.endswith("of its 76 GB usable memory, so the plan fits.")


def test_one_accelerator_is_the_smallest_cluster_not_a_plural():
    result = memory_bound()
    result["cluster"].update(gpus=1, gpus_per_job=1)
    result["memory"].update(min_gpus=1)
    why = " ".join(why_sentences("compute", read_result(result)))
    assert "One accelerator holds the model and is the smallest cluster" in why
    assert "1 accelerators" not in why
