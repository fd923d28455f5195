"""How hard the PDF writer compresses a proposal's streams.

WeasyPrint writes PDFs with pydyf, which deflates every stream (page content, fonts, the
structure tree) at zlib's slowest level, 9 (pydyf 0.13, ``Stream.data``), and offers no
setting for it. For a proposal, level 9 buys little: on the demo proposal, level 6 (zlib's
own default) wrote 149,706 bytes instead of 144,365 (+3.7 %) in 45 ms less CPU, a twentieth of
a render (benchmarks/pipeline.py, 2026-12-05; level 1: 184,681 bytes, no faster than 6).
So pydyf is given a view of zlib whose ``compressobj`` deflates at :data:`PDF_DEFLATE_LEVEL`;
everything else it asks of zlib is zlib's own. The PDF is as valid and reads the same: only
the size of its compressed streams changes.
"""

import zlib
from typing import Any

import pydyf

# zlib's default level: nearly level 9's size at a fraction of its time (see above).
PDF_DEFLATE_LEVEL = 6


class _ZlibAtProposalLevel:
    """zlib as pydyf sees it, its streams deflated at :data:`PDF_DEFLATE_LEVEL`."""

    @staticmethod
    def compressobj(level: int = PDF_DEFLATE_LEVEL, *args: Any, **kwargs: Any) -> Any:
        return zlib.compressobj(PDF_DEFLATE_LEVEL, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(zlib, name)


def use_proposal_deflate_level() -> None:
    """Make pydyf deflate at :data:`PDF_DEFLATE_LEVEL`; called once when reports.document is
    imported, before any PDF is written."""
    pydyf.zlib = _ZlibAtProposalLevel()  # type: ignore[attr-defined]
