"""One-line facts about a submission for the staff list, filters and CSV.

The customer's answers are read through ``sizing.adapters`` (the one module that knows the
questionnaire's vocabulary), so these facts use the engine contract's terms: model name and
parameters, dense or MoE, training method, deployment location.
"""

import logging
from dataclasses import dataclass

from questionnaire.models import Submission
from sizing import adapters
from sizing.engine import ACCELERATORS
from sizing.models import Recommendation

logger = logging.getLogger(__name__)

# Size bands for the list filter, by total parameters: (key, label, low, high).
SIZE_BANDS = [
    ("lt1b", "under 1B", 0.0, 1e9),
    ("1-10b", "1B to 10B", 1e9, 10e9),
    ("10-100b", "10B to 100B", 10e9, 100e9),
    ("100b+", "100B and more", 100e9, float("inf")),
]


@dataclass(frozen=True)
class Facts:
    model_name: str | None = None
    total_params: float | None = None
    architecture: str | None = None
    method: str | None = None
    deployment: str | None = None

    @property
    def size_band(self) -> str | None:
        if self.total_params is None:
            return None
        for key, _label, low, high in SIZE_BANDS:
            if low <= self.total_params < high:
                return key
        return None


def facts(submission: Submission) -> Facts:
    """What the customer said about the model, method and deployment (None: not sure)."""
    try:
        engine_input = adapters.build_engine_input(answers=submission.answers).engine_input
    except Exception:  # a malformed old answer must not break the staff list
        logger.exception("could not read the answers of submission %s", submission.pk)
        return Facts()
    model = engine_input.get("model") or {}
    params = model.get("total_params")
    return Facts(
        model_name=model.get("name"),
        total_params=float(params) if isinstance(params, int | float) else None,
        architecture=model.get("architecture"),
        method=(engine_input.get("training") or {}).get("method"),
        deployment=(engine_input.get("deployment") or {}).get("location"),
    )


def format_params(params: float | None) -> str:
    if params is None:
        return ""
    for scale, suffix in ((1e12, "T"), (1e9, "B"), (1e6, "M")):
        if params >= scale:
            return f"{params / scale:.3g}{suffix}"
    return f"{params:.3g}"


def model_and_size(f: Facts) -> str:
    """E.g. "Llama 3.1 8B", "custom · 13B", "Mixtral 8x7B · 46.7B · MoE"."""
    size = format_params(f.total_params)
    name = f.model_name or ""
    # Model names usually carry their size ("Llama 3.1 8B"); do not say it twice.
    if size and size.lower() in name.lower().replace(" ", ""):
        size = ""
    parts = [p for p in (name, size) if p]
    if f.architecture == "moe":
        parts.append("MoE")
    return " · ".join(parts)


def recommended_cluster(recommendation: Recommendation | None, *, short: bool = False) -> str:
    """E.g. "64 × NVIDIA H100 SXM5 80GB" ("64 × h100-sxm" when short); "" if not finished."""
    if recommendation is None or recommendation.status != Recommendation.Status.DONE:
        return ""
    cluster = (recommendation.result or {}).get("cluster") or {}
    accelerator, gpus = cluster.get("accelerator"), cluster.get("gpus")
    if not accelerator:
        return ""
    spec = ACCELERATORS.get(accelerator)
    name = spec.name if spec and not short else accelerator
    return f"{gpus} × {name}" if gpus else name
