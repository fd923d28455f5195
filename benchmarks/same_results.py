"""Check that a change to the engine leaves every result byte-for-byte the same.

Usage (from the repository root)::

    python benchmarks/same_results.py                      # working tree against HEAD
    python benchmarks/same_results.py --against main       # ... against another revision
    python benchmarks/same_results.py --count 400 --seed 7 # more or other varied inputs
    python benchmarks/same_results.py --ignore parallelism.context  # a new output field

It sizes the example inputs (``sizing/engine/examples``), the benchmark inputs
(``benchmarks/inputs``) and ``--count`` varied inputs drawn from a seeded
generator (dense and MoE models from 100M to 1T parameters, every method,
precision, optimizer and accelerator, given and searched counts, forced
plans, deadlines, concurrent jobs, sites) with two engines: the one in the
working tree and the one at ``--against`` (extracted with ``git archive``).
Each engine sizes every input in a process of its own, on a fixed answer date, and
the full JSON outputs (or the validation messages of an invalid input) are
compared as text.  Exit status 0 when all are identical, 1 otherwise, with the
first differing inputs and the first key where they differ.

Use it for refactors and speed-ups that must not change any result; a change
that means to change results bumps ``ENGINE_VERSION`` instead.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import math
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TODAY = datetime.date(2026, 12, 2)  # a fixed answer date: results are dated with it
INPUT_DIRS = (ROOT / "sizing" / "engine" / "examples", ROOT / "benchmarks" / "inputs")
ENGINE_FILES = ("sizing/__init__.py", "sizing/engine")

# Varied inputs: the choices each field is drawn from (None = "not sure").
# MoE shapes (experts, experts per token): Mixtral (8, 2), DeepSeek-V2 (160, 6),
# DeepSeek-V3 (256, 8), Switch (128, 1); (16, 2) a small one.
_MOE_SHAPES = ((8, 2), (16, 2), (160, 6), (128, 1), (256, 8))
_METHODS = (None, "pretrain", "continued_pretrain", "full_finetune", "lora", "qlora")
_PRECISIONS = (None, "bf16", "bf16", "fp16", "fp8", "fp32", "tf32")
_OPTIMIZERS = (None, "adamw", "adamw_8bit", "adafactor", "sgd", "lion")
_MODALITIES = ("text", "text", "text", "image", "audio", "video", "multimodal")
_SEQUENCES = (None, 2048, 4096, 8192, 32768)
_COUNTS = (1, 2, 4, 8, 16, 64, 256, 1024, 4096)
_LOCATIONS = (None, "on_prem", "colocation", "cloud", "hybrid")


def varied_inputs(count: int, seed: int, accelerators: list[str], models: list[str]) -> list[Any]:
    """``count`` inputs drawn from the choices above with ``random.Random(seed)``."""
    rng = random.Random(seed)
    return [_varied_input(rng, accelerators, models) for _ in range(count)]


def _maybe(rng: random.Random, share: float, value: Any) -> Any:
    return value if rng.random() < share else None


def _log_uniform(rng: random.Random, low: float, high: float) -> float:
    return float(f"{math.exp(rng.uniform(math.log(low), math.log(high))):.3g}")


def _varied_input(rng: random.Random, accelerators: list[str], models: list[str]) -> Any:
    model: dict[str, Any] = {}
    if rng.random() < 0.3:
        model["name"] = rng.choice(models)
    else:
        model["total_params"] = _log_uniform(rng, 1e8, 1e12)
        if rng.random() < 0.3:
            experts, per_token = rng.choice(_MOE_SHAPES)
            model.update(architecture="moe", experts=experts, experts_per_token=per_token)
    method = rng.choice(_METHODS)
    precision = rng.choice(_PRECISIONS)
    if method == "qlora" and precision in ("fp32", "tf32"):
        precision = "bf16"
    inp: dict[str, Any] = {
        "model": model,
        "training": {
            "method": method,
            "precision": precision,
            "optimizer": rng.choice(_OPTIMIZERS),
            "gradient_checkpointing": rng.choice((None, None, True, False)),
            "experiments": rng.choice((None, 1, 2, 5)),
        },
        "data": {
            "tokens": _maybe(rng, 0.8, _log_uniform(rng, 1e8, 2e13)),
            "epochs": rng.choice((None, 1, 2, 3)),
            "modality": rng.choice(_MODALITIES),
        },
        "batch": {
            "sequence_length": rng.choice(_SEQUENCES),
            "micro_batch_size": rng.choice((None, None, None, 1, 2)),
        },
        "schedule": {
            "deadline_days": _maybe(rng, 0.7, round(rng.uniform(0.5, 180.0), 1)),
            "concurrent_jobs": rng.choice((None, 1, 1, 2, 3)),
        },
        "hardware": {
            "accelerator": _maybe(rng, 0.7, rng.choice(accelerators)),
            "count": _maybe(rng, 0.3, rng.choice(_COUNTS)),
        },
        "software": {"custom_cuda_kernels": rng.choice((None, False, True))},
        "network": {
            "inter_node": rng.choice((None, "infiniband", "roce", "ethernet")),
            "oversubscription": rng.choice((None, None, 1.0, 2.0)),
        },
        "resilience": {"max_lost_hours": rng.choice((None, None, 1.0, 12.0))},
        "deployment": {"location": rng.choice(_LOCATIONS)},
        "roadmap": {"runs_per_month": rng.choice((None, 0.5, 4.0))},
    }
    if rng.random() < 0.15:
        inp["parallelism"] = {
            "tensor": rng.choice((None, 1, 2, 8)),
            "pipeline": rng.choice((None, 1, 4)),
            "zero_stage": rng.choice((None, 0, 1, 3)),
        }
    if inp["hardware"]["count"] is None and rng.random() < 0.1:
        inp["hardware"]["gpus_per_node"] = 4
    return inp


def _size_each(engine_root: str, inputs_path: str, out_path: str) -> None:
    """Size every input with the engine under ``engine_root``; one JSON text per line."""
    sys.path.insert(0, engine_root)
    # Imported here, not at the top: which engine is imported depends on ``engine_root``.
    engine = importlib.import_module("sizing.engine")
    assert Path(engine.__file__).is_relative_to(engine_root), engine.__file__
    lines = []
    for data in json.loads(Path(inputs_path).read_text()):
        try:
            out: Any = engine.size_dict(data, today=TODAY)
        except engine.InvalidInput as exc:
            out = {"invalid": exc.messages}
        lines.append(json.dumps(out))
    Path(out_path).write_text("\n".join(lines) + "\n")


def _run_engine(engine_root: Path, inputs_path: Path, out_path: Path) -> tuple[list[str], float]:
    start = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            __file__,
            "--size-each",
            str(engine_root),
            str(inputs_path),
            str(out_path),
        ],
        check=True,
    )
    return out_path.read_text().splitlines(), time.perf_counter() - start


def extract_revision(revision: str, into: Path, paths: tuple[str, ...] = ENGINE_FILES) -> None:
    """``paths`` (the engine; ``()`` for the whole tree) at ``revision`` into ``into``
    (``git archive``); also used by ``benchmarks/engine.py`` and ``benchmarks/render_turns.py``."""
    into.mkdir(parents=True, exist_ok=True)
    archive = into / "revision.tar"
    with archive.open("wb") as fh:
        subprocess.run(["git", "-C", str(ROOT), "archive", revision, *paths], check=True, stdout=fh)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    archive.unlink()


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in dict.fromkeys([*a, *b]):
            if key not in a or key not in b or a[key] != b[key]:
                if key in a and key in b:
                    return _first_difference(a[key], b[key], f"{path}.{key}")
                return f"{path}.{key}: only in one"
        return f"{path}: key order"
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)} items"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path}: {json.dumps(a)[:200]} != {json.dumps(b)[:200]}"


def _without(line: str, keys: list[str]) -> str:
    """The JSON ``line`` with each dotted key in ``keys`` removed where present."""
    out = json.loads(line)
    for key in keys:
        *parents, last = key.split(".")
        node = out
        for part in parents:
            node = node.get(part, {}) if isinstance(node, dict) else {}
        if isinstance(node, dict):
            node.pop(last, None)
    return json.dumps(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD", help="git revision to compare with")
    parser.add_argument("--count", type=int, default=300, help="varied inputs (default 300)")
    parser.add_argument("--seed", type=int, default=10)
    parser.add_argument(
        "--ignore",
        action="append",
        default=[],
        help="a dotted output key left out of the comparison (a field one engine adds)",
    )
    parser.add_argument("--size-each", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.size_each:
        _size_each(*args.size_each)
        return 0
    sys.path.insert(0, str(ROOT))
    engine = importlib.import_module("sizing.engine")
    named = [p for d in INPUT_DIRS for p in sorted(d.glob("*.json"))]
    inputs = [json.loads(p.read_text()) for p in named]
    labels = [str(p.relative_to(ROOT)) for p in named]
    models = [m.name for m in engine.MODEL_CATALOG]
    inputs += varied_inputs(args.count, args.seed, sorted(engine.ACCELERATORS), models)
    labels += [f"varied input {i}" for i in range(args.count)]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "before").mkdir()
        extract_revision(args.against, work / "before")
        inputs_path = work / "inputs.json"
        inputs_path.write_text(json.dumps(inputs))
        before, before_s = _run_engine(work / "before", inputs_path, work / "before.jsonl")
        after, after_s = _run_engine(ROOT, inputs_path, work / "after.jsonl")
    if args.ignore:
        before = [_without(line, args.ignore) for line in before]
        after = [_without(line, args.ignore) for line in after]
    differ = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    invalid = sum('"invalid"' in line[:12] for line in after)
    print(
        f"{len(inputs)} inputs ({invalid} invalid), engine at {args.against} {before_s:.1f} s, "
        f"working tree {after_s:.1f} s: {len(inputs) - len(differ)} identical, {len(differ)} differ"
    )
    for i in differ[:5]:
        first = _first_difference(json.loads(before[i]), json.loads(after[i]))
        print(f"  {labels[i]}: {first}\n    input: {json.dumps(inputs[i])}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
