"""How the proposal read the customer's data, said in the executive summary.

A dataset given as a size on disk is read as plain text (``raw_text_bytes_per_token``,
``sizing/engine/resolve/run.py``); files such as PDF or Office documents hold far less text
than their size, so the summary says how the size was read, and warns when a fine-tune
comes out at pre-training scale (``pretraining_scale_tokens``), the usual sign of such a
misreading.
"""

from __future__ import annotations

from sizing.public import (
    PRETRAINING_METHODS,
    SIZE_READ_AS_TEXT,
    StoredResult,
    assumption_value,
    format_count,
    format_quantity,
)


def _used(result: StoredResult, key: str):
    return next((item for item in result.assumptions if item.key == key), None)


def data_reading(result: StoredResult) -> list[str]:
    """Sentences for the summary: how a size on disk was read, and a fine-tune's tokens at
    pre-training scale; empty when neither applies."""
    tokens = _used(result, "data.tokens")
    if tokens is None or not isinstance(tokens.value, int | float):
        return []
    said = []
    size = _used(result, "data.dataset_size_tb")
    if str(tokens.source).startswith(SIZE_READ_AS_TEXT) and size is not None:
        per_token = assumption_value("raw_text_bytes_per_token")
        said.append(
            f"Your data: {format_quantity(size.value, 'TB')} read as about "
            f"{format_count(tokens.value)} tokens of plain text ({per_token:g} bytes a token). "
            "Files such as PDF, Word or slides hold far less text than their size: if yours "
            "are such files, the run and its cost would be much smaller (see the open questions)."
        )
    method = _used(result, "training.method")
    epochs = _used(result, "data.epochs")
    read = tokens.value * (epochs.value if epochs and isinstance(epochs.value, int | float) else 1)
    scale = assumption_value("pretraining_scale_tokens")
    if method is not None and method.value not in PRETRAINING_METHODS and read > scale:
        said.append(
            f"Check the size of your data: a fine-tune that reads {format_count(read)} tokens "
            f"is at pre-training scale (more than {format_count(scale)}); fine-tunes usually "
            "read far fewer, and this plan is sized to read them all."
        )
    return said
