from sizing.engine import size_dict

BASE = {
    "model": {"name": "Llama 3.1 8B"},
    "training": {"method": "pretrain"},
    "data": {"tokens": 2e11},
    "schedule": {"deadline_days": 10},
}


def test_several_concurrent_runs_get_full_capacity_and_an_open_question_about_it():
    one = size_dict(BASE)
    three = size_dict({**BASE, "schedule": {"deadline_days": 10, "concurrent_jobs": 3}})
    per_job = three["cluster"]["gpus_per_job"]
    assert per_job == one["cluster"]["gpus_per_job"]
    assert three["cluster"]["gpus"] >= 3 * per_job
    asked = [q for q in three["open_questions"] if "full-size runs at once" in q]
    assert asked == [
        f"The cluster holds 3 full-size runs at once (3 x {per_job} accelerators): "
        "are some of them smaller experiments that need less?"
    ]
    assert not [q for q in one["open_questions"] if "full-size runs at once" in q]
