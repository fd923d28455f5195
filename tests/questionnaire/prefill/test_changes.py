"""The file's values go through the questions' forms and merge with the customer's answers."""

from questionnaire.models import Draft
from questionnaire.prefill.changes import prefill_changes
from questionnaire.prefill.found import FoundValue
from questionnaire.services import step_data_from_answer_data


def draft_with(**answers: dict) -> Draft:
    return Draft(
        step_data={slug: step_data_from_answer_data(slug, data) for slug, data in answers.items()}
    )


def rows(changes) -> dict[str, tuple[str, str]]:
    return {c.label: (c.before, c.after) for q in changes.questions for c in q.changes}


def test_an_empty_question_is_filled_in_the_words_of_the_review_page():
    changes = prefill_changes(
        [
            FoundValue("batch", "sequence_length", "4096", "sequence_len"),
            FoundValue("precision", "optimizer", "adamw_8bit", "optimizer"),
        ],
        Draft(step_data={}),
    )
    assert rows(changes) == {
        "Sequence length in tokens": ("", "4,096 tokens"),
        "Optimizer": ("", "8-bit Adam"),
    }
    assert changes.step_data["batch"] == {"batch-sequence_length": ["4096"]}
    assert changes.changes_anything


def test_an_answer_the_customer_gave_shows_old_and_new_and_the_rest_is_kept():
    draft = draft_with(batch={"sequence_length": "2k", "micro_batch_size": "2"})
    changes = prefill_changes(
        [FoundValue("batch", "sequence_length", "8192", "--seq-length")], draft
    )
    assert rows(changes) == {
        "Sequence length in tokens": ("2k (read as 2,048 tokens)", "8,192 tokens")
    }
    assert changes.step_data["batch"]["batch-micro_batch_size"] == ["2"]
    assert changes.step_data["batch"]["batch-sequence_length"] == ["8192"]


def test_a_value_the_form_refuses_is_left_out_with_the_forms_message():
    changes = prefill_changes(
        [
            FoundValue("batch", "micro_batch_size", "0", "micro_batch_size"),
            FoundValue("batch", "gradient_accumulation", "4", "gradient_accumulation_steps"),
            FoundValue("precision", "precision", "int3", "dtype"),
        ],
        Draft(step_data={}),
    )
    refused = {item.label: item for item in changes.refused}
    assert set(refused) == {"Micro-batch size per accelerator", "Number format during training"}
    assert refused["Number format during training"].message.startswith("Select a valid choice")
    assert rows(changes) == {"Gradient accumulation steps": ("", "4")}
    assert "precision" not in changes.step_data


def test_a_value_contradicting_the_customers_other_answers_is_refused():
    draft = draft_with(model={"total_params": "8B", "architecture": "moe"})
    changes = prefill_changes([FoundValue("model", "active_params", "12.9B", "file")], draft)
    assert changes.questions == ()
    assert "cannot be more than the total" in changes.refused[0].message


def test_checkboxes_and_notes_gain_the_files_part_and_not_sure_is_lifted():
    draft = draft_with(
        parallelism={"strategies": ["data"], "notes": "Two nodes today.", "not_sure": "on"}
    )
    changes = prefill_changes(
        [
            FoundValue("parallelism", "strategies", ["tensor", "pipeline"], "--tp"),
            FoundValue("parallelism", "notes", "Megatron-LM: tensor parallel 8.", "sizes"),
        ],
        draft,
    )
    saved = changes.step_data["parallelism"]
    assert saved["parallelism-strategies"] == ["data", "tensor", "pipeline"]
    assert saved["parallelism-notes"] == ["Two nodes today.\nMegatron-LM: tensor parallel 8."]
    assert "parallelism-not_sure" not in saved
    changes = {c.label: c for c in changes.questions[0].changes}
    assert changes["Kinds of parallelism you use or plan"].adds
    assert changes["Not sure yet"].after == "No"


def test_the_same_answer_is_shown_as_unchanged():
    draft = draft_with(method={"method": "lora"})
    changes = prefill_changes([FoundValue("method", "method", "lora", "adapter")], draft)
    assert changes.questions[0].changes[0].same
    assert not changes.changes_anything


def test_a_known_model_name_with_another_size_gets_a_word_of_warning():
    draft = draft_with(model={"model_name": "Llama 3.1 8B"})
    changes = prefill_changes([FoundValue("model", "total_params", "70.6B", "shape")], draft)
    assert "Llama 3.1 8B, which has 8.03B parameters, but give 70.6B" in changes.warnings[0]
    same = prefill_changes([FoundValue("model", "total_params", "8B", "shape")], draft)
    assert same.warnings == ()
