"""Recognising an uploaded file and reading it with the reader of its format."""

from __future__ import annotations

from collections.abc import Callable

from questionnaire.prefill import axolotl, deepspeed, hf_config, llama_factory, megatron, torchtune
from questionnaire.prefill.found import Found, Settings
from questionnaire.prefill.reading import UnreadableFile, read_document

# (is it this format?, read it): tried in order, the most specific markers first.
_JSON_FORMATS: tuple[tuple[Callable[[Settings], bool], Callable[[Settings], Found]], ...] = (
    (hf_config.is_hf_config, hf_config.read_hf_config),
    (deepspeed.is_deepspeed, deepspeed.read_deepspeed),
)
_YAML_FORMATS: tuple[tuple[Callable[[Settings], bool], Callable[[Settings], Found]], ...] = (
    (torchtune.is_torchtune, torchtune.read_torchtune),
    (llama_factory.is_llama_factory, llama_factory.read_llama_factory),
    (axolotl.is_axolotl, axolotl.read_axolotl),
    *_JSON_FORMATS,  # YAML holds JSON too: a config.json saved as .yaml is still one
)
FORMAT_NAMES = (
    hf_config.FORMAT_NAME,
    axolotl.FORMAT_NAME,
    torchtune.FORMAT_NAME,
    llama_factory.FORMAT_NAME,
    deepspeed.FORMAT_NAME,
    megatron.FORMAT_NAME,
)
NOT_RECOGNISED = (
    "We could read the file, but it is not one of the kinds we know: a model's config.json, "
    "an Axolotl, torchtune or LLaMA-Factory recipe, a DeepSpeed configuration or a list of "
    "Megatron-LM arguments."
)


def read_answers(content: bytes) -> Found:
    """What the file says about the questions; :class:`UnreadableFile` when it cannot be used."""
    document = read_document(content)
    settings = Settings(document.data)
    if document.syntax == "arguments":
        return megatron.read_megatron(settings)
    formats = _JSON_FORMATS if document.syntax == "json" else _YAML_FORMATS
    for recognises, read in formats:
        if recognises(settings):
            return read(settings)
    raise UnreadableFile(NOT_RECOGNISED)
