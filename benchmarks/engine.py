"""Time one full recommendation per input, and one CLI call.

Usage, from the repository root::

    python benchmarks/engine.py [REPEATS]               # this engine, as below
    PYTHONPATH=. DJANGO_DEBUG=1 python benchmarks/engine.py --against main --stories
                                                        # this engine against another revision

``--against REVISION`` times the engine in the working tree against the one at ``REVISION``
(extracted with ``git archive``, as ``benchmarks/same_results.py`` does): each engine sizes
every input in a process of its own, the two taking turns for ``--rounds`` rounds so that
load from other work on a shared machine falls on both, and the CPU time of each sizing
(``time.process_time``, not the wall clock) is kept; the median of each input over every
round is printed for both, with their ratio.  ``--stories`` adds the demo's answers and the
public customer stories (``tests/reports/customer_stories.py``), turned into engine input as
the proposals' tests do; that needs Django (``DJANGO_DEBUG=1`` on a development machine).

Inputs: the examples of the command-line contract (``sizing/engine/examples``)
and the larger scales in ``benchmarks/inputs``, which are slower to size:

* ``llama31_405b_pretrain``: Llama 3.1 405B on 15T tokens on H100, sequence
  8,192 and 16M-token batches (Llama 3 Herd of Models, arXiv 2407.21783,
  sec. 1 and Table 4), in a 90-day deadline that no size meets;
* ``deepseek_v3_fp8_pretrain``: DeepSeek-V3 (671B MoE, 37B active) on 14.8T
  tokens in FP8 on H800, batches of 15,360 x 4,096 tokens, within 60 days
  (DeepSeek-V3 technical report, arXiv 2412.19437, abstract, sec. 3.1 and 4.2);
* ``llama31_70b_pretrain``: Llama 3.1 70B on the same 15T tokens in 60 days;
* ``deepseek_v3_published_layout``: the same run on its published 2,048 H800 with its
  published layout (no tensor parallelism, 16 pipeline stages, 64-way expert parallelism;
  sec. 3.2), the slowest example of issue 27;
* ``mixtral_8x22b_pretrain``: Mixtral 8x22B on 2T tokens in 30 days on the
  default accelerator (an engine choice of size, not a published run).

Each is sized
``REPEATS`` times in this process (after one warm-up); the median and the
fastest run are printed: on a shared machine quote the median, and the
minimum shows how much of it was noise.

Targets on the 2-core dev machine (issue 10): < 50 ms per recommendation
(including the plan search, the trade-off table and the alternatives),
< 300 ms per CLI call.
"""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.same_results import extract_revision  # noqa: E402

EXAMPLES = sorted((ROOT / "sizing" / "engine" / "examples").glob("*.json"))
# actual_runs.json beside them is the calibration's record of customers' runs, not an input
LARGE = sorted(
    p for p in (ROOT / "benchmarks" / "inputs").glob("*.json") if p.stem != "actual_runs"
)


def time_input(path: Path, repeats: int) -> list[float]:
    """Seconds per full recommendation of the input at ``path`` (one warm-up not counted)."""
    # Imported here, not at the top: ``--against`` imports another revision's engine instead.
    from sizing.engine import parse_input, size, sizing_result_to_dict

    data = json.loads(path.read_text())
    sizing_result_to_dict(size(parse_input(data)))
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        sizing_result_to_dict(size(parse_input(data)))
        times.append(time.perf_counter() - start)
    return times


def cli_call_ms(repeats: int) -> float:
    """Median wall-clock time of one CLI call on the first example [ms]."""
    cli = []
    for _ in range(max(3, repeats // 2)):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "sizing.engine", str(EXAMPLES[0])],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
        cli.append(time.perf_counter() - start)
    return statistics.median(cli) * 1e3


def timed_inputs(stories: bool) -> dict[str, Any]:
    """The inputs ``--against`` times, by name: the examples, the large inputs and, with
    ``stories``, the demo's and each public customer story's answers as engine input."""
    named = {path.stem: json.loads(path.read_text()) for path in (*EXAMPLES, *LARGE)}
    if stories:
        named.update(_story_inputs())
    return named


def _story_inputs() -> dict[str, Any]:
    # Django and the tests' helpers only for this: the engine itself needs neither.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from reports.demo import demo_answers
    from sizing.adapters import build_engine_input
    from tests.reports.customer_stories import STORIES
    from tests.reports.test_generated_proposals import answers_of

    answers = {"demo": demo_answers()}
    answers.update({f"story {name}": answers_of(story) for name, story in STORIES.items()})
    return {
        name: build_engine_input(answers=given, today=ANSWER_DATE).engine_input
        for name, given in answers.items()
    }


ANSWER_DATE = datetime.date(2026, 12, 2)  # as same_results.py: results are dated with it


def _time_each(engine_root: str, inputs_path: str, repeats: str, out_path: str) -> None:
    """CPU seconds of each sizing of each input with the engine under ``engine_root``
    (one warm-up not counted), as JSON by input name."""
    sys.path.insert(0, engine_root)
    # Imported here, not at the top: which engine is imported depends on ``engine_root``.
    engine = importlib.import_module("sizing.engine")
    assert Path(engine.__file__).is_relative_to(engine_root), engine.__file__
    out: dict[str, list[float]] = {}
    for name, data in json.loads(Path(inputs_path).read_text()).items():
        engine.size_dict(data, today=ANSWER_DATE)
        times = out[name] = []
        for _ in range(int(repeats)):
            start = time.process_time()
            engine.size_dict(data, today=ANSWER_DATE)
            times.append(time.process_time() - start)
    Path(out_path).write_text(json.dumps(out))


def compare(against: str, stories: bool, rounds: int, repeats: int) -> None:
    """Time the working tree's engine against the one at ``against`` (module docstring)."""
    named = timed_inputs(stories)
    times: dict[str, dict[str, list[float]]] = {"before": {}, "after": {}}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        extract_revision(against, work / "before")
        inputs_path = work / "inputs.json"
        inputs_path.write_text(json.dumps(named))
        for _ in range(rounds):
            for label, root in (("before", work / "before"), ("after", ROOT)):
                out_path = work / f"{label}.json"
                subprocess.run(
                    [
                        sys.executable,
                        __file__,
                        "--time-each",
                        str(root),
                        str(inputs_path),
                        str(repeats),
                        str(out_path),
                    ],
                    check=True,
                )
                for name, each in json.loads(out_path.read_text()).items():
                    times[label].setdefault(name, []).extend(each)
    print(f"CPU ms per sizing, median of {rounds} x {repeats}: engine at {against} -> working tree")
    for name in named:
        before = statistics.median(times["before"][name]) * 1e3
        after = statistics.median(times["after"][name]) * 1e3
        print(f"  {name:<40} {before:7.1f} -> {after:7.1f}   x{after / before:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeats", nargs="?", type=int, default=9)
    parser.add_argument("--against", help="git revision to time the working tree against")
    parser.add_argument("--stories", action="store_true", help="add the customer stories")
    parser.add_argument("--rounds", type=int, default=4, help="turns of each engine (--against)")
    parser.add_argument("--time-each", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.time_each:
        _time_each(*args.time_each)
        return
    if args.against:
        compare(args.against, args.stories, args.rounds, args.repeats)
        return
    for path in (*EXAMPLES, *LARGE):
        times = time_input(path, args.repeats)
        print(
            f"recommendation {path.stem:<28} median {statistics.median(times) * 1e3:7.1f} ms"
            f"   min {min(times) * 1e3:7.1f} ms"
        )
    print(f"CLI call ({EXAMPLES[0].name:<30})   median {cli_call_ms(args.repeats):7.1f} ms")


if __name__ == "__main__":
    main()
