"""The project restated in one sentence from the customer's answers."""

import pytest

from sizing.words.project import project_from_answers


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("Llama 3.1 8B", "of Llama 3.1 8B on"),  # a name stays as written
        ("Mixtral 8x7B", "of Mixtral 8x7B on"),
        ("Our own 7B decoder", "of our own 7B decoder on"),  # customer 2 read "of Our own"
        ("Video diffusion transformer", "of a video diffusion transformer on"),  # customer 3
        ("30B mixture of experts", "of a 30B mixture of experts on"),  # customer 7
    ],
)
def test_a_model_described_in_words_reads_as_part_of_the_sentence(name, said):
    engine_input = {
        "training": {"method": "pretrain"},
        "model": {"name": name},
        "data": {"tokens": 2e12},
    }
    sources = {"training.method": "customer", "model.name": "customer", "data.tokens": "customer"}
    assert said in project_from_answers(engine_input, sources)
