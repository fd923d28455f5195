"""The proposal's tables of figures: what the engine worked out, and what it was told.

Labels and units come from the one vocabulary (``sizing.engine.vocabulary``), numbers from the
one formatter (``sizing.engine.numbers``); this module only chooses which fields a table shows.
"""

from collections.abc import Callable
from typing import Any

from sizing.public import (
    OUTPUT_VALUES,
    SHARES,
    SOURCES,
    accelerator_hours,
    describe_value,
    format_percent,
    format_quantity,
    format_times,
    input_term,
    output_label_and_unit,
)

# The figures each area shows in its table, in order; the rest of a section stays in the stored
# result (and the staff pages). Sentences, charts and tables of their own cover the others.
KEY_FIGURES: dict[str, tuple[str, ...]] = {
    "compute": (
        "gpu_hours",
        "all_experiments_gpu_hours",
        "training_flops",
        "peak_tflops",
        "assumed_mfu",
        "tokens_per_s",
    ),
    "memory": ("per_gpu_gb", "usable_gpu_gb", "min_gpus"),
    "parallelism": (),  # the recommendation's sentence names every split
    "cluster": ("gpus", "nodes", "gpus_per_node", "gpus_per_job", "spare_nodes"),
    "concurrency": ("full_size_runs", "scheduler"),
    # what the plan would use is said in Why, against what the server's slot carries
    "network": ("nic_gbps", "nics_per_node", "step_time_s"),
    "storage": (
        "dataset_capacity_tb",
        "scratch_capacity_tb",
        "checkpoint_size_gb",
        "checkpoints_retained",
        "checkpoint_capacity_tb",
        "total_capacity_tb",
        "read_gb_per_s",
        "checkpoint_write_gb_per_s",
    ),
    "hosts": ("cpu_cores_per_node", "ram_gb_per_node", "local_nvme_tb_per_node", "pcie_generation"),
    "resilience": (
        "checkpoint_interval_hours",
        "job_mtbf_hours",
        "expected_interruptions",
        "expected_lost_hours",
        "spare_nodes",
    ),
    "deployment": (
        "servers",
        "facility_power_kw",
        "facility_power_with_pue_kw",
        "racks",
        "nodes_per_rack",
        "rack_power_kw",
    ),
}
# Counts of things shown with their noun, so "1 nodes" can never be written.
_RATES = {"expected_interruptions": ("interruption", "run")}


def figure_rows(area: str, section: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The key figures of one result section as (label, formatted value, field name) rows; the
    name tags the value, so the checker holds it to the same figure on other pages."""
    rows = []
    for name in KEY_FIGURES.get(area, ()):
        value = section.get(name)
        if value is None or isinstance(value, dict | list | tuple):
            continue
        label, unit = output_label_and_unit(name)
        if name.endswith("gpu_hours") and isinstance(value, int | float):
            rows.append((label, accelerator_hours(value), name))
        elif name in _RATES and isinstance(value, int | float):
            rows.append((label, format_times(value, *_RATES[name]), name))
        elif name in SHARES and isinstance(value, int | float):
            rows.append((label, format_percent(value), name))
        elif name in OUTPUT_VALUES:
            rows.append((label, OUTPUT_VALUES[name].get(str(value), str(value)), name))
        else:
            rows.append((label, format_quantity(value, unit), name))
    return rows


def input_rows(
    engine_input: dict[str, Any],
    fields: tuple[str, ...],
    sources: dict[str, str],
    own: Callable[[str], str | None] | None = None,
) -> list[tuple[str, str, str]]:
    """(label, value, where it came from) for the engine-input fields behind one section.

    ``own`` gives, for an input the adapter converted from one answer, the customer's answer
    in their own unit ("" to tell it in the input's words): that value is theirs, not worked
    out ("12 hours", not "0.5 days (worked out from your answers)")."""
    rows = []
    for spec in fields:
        section, _, name = spec.partition(".")
        values = engine_input.get(section) or {}
        names = [name] if name else list(values)
        for field_name in names:
            value = values.get(field_name)
            if value is None or value == [] or value == "":
                continue
            path = f"{section}.{field_name}"
            given = own(path) if own and sources.get(path) == "derived" else None
            if given is not None:
                shown = given or describe_value(path, value)
                rows.append((input_term(path).label, shown, SOURCES["customer"]))
                continue
            source = SOURCES.get(sources.get(path, ""), "")
            rows.append((input_term(path).label, describe_value(path, value), source))
    return rows
