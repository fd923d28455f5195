"""The demo proposal's render in this checkout against another revision, taking turns.

    PYTHONPATH=. .venv/bin/python benchmarks/render_turns.py --against 8e637e9
    PYTHONPATH=. .venv/bin/python benchmarks/render_turns.py --against main --rounds 6 --renders 9

On a shared machine the speed moves by a tenth within minutes, more than most changes to the
render; two revisions timed minutes apart cannot be told apart. So each round renders the demo
in a fresh process of each revision in turn, this checkout first and then the other (extracted
with ``git archive``, as ``benchmarks/same_results.py`` does), each process set up as a
worker's pool process is (start-up objects frozen for the garbage collector, one warm-up
render) and timing ``--renders`` renders of ``reports.document.render_data`` in CPU time
(``time.process_time``: steadier than the wall clock). It prints each round's medians, the
median and range of each revision's over the rounds, the machine's speed before and after
(``benchmarks/machine_speed.py``), and whether the two PDFs are byte for byte the same.
No database or broker is needed.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.machine_speed import speed_line  # noqa: E402
from benchmarks.same_results import extract_revision  # noqa: E402

# Run in the revision's own tree: its reports, templates and stylesheet.
CHILD = """
import hashlib, json, os, statistics, sys, time
sys.path.insert(0, os.getcwd())
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DJANGO_DEBUG", "1")
import django
django.setup()
from config.celery import freeze_start_up_objects
from reports.demo import demo_data
from reports.document import render_data
freeze_start_up_objects()
data = demo_data()
render_data(data)
seconds = []
for _ in range(int(sys.argv[1])):
    started = time.process_time()
    rendered = render_data(data)
    seconds.append(time.process_time() - started)
print(json.dumps({
    "median": statistics.median(seconds),
    "min": min(seconds),
    "pages": rendered.page_count,
    "pdf": hashlib.sha256(rendered.pdf).hexdigest(),
}))
"""


def render_in(tree: Path, renders: int) -> dict:
    """One process in ``tree``: its demo render timed ``renders`` times."""
    env = {**os.environ, "PYTHONPATH": str(tree), "DJANGO_VAR_DIR": str(tree / "var")}
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(renders)],
        cwd=tree,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the revision to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--renders", type=int, default=9, help="timed renders per process")
    args = parser.parse_args()
    print(speed_line())
    with tempfile.TemporaryDirectory() as scratch:
        other = Path(scratch) / "tree"
        extract_revision(args.against, other, paths=())
        trees = {"this checkout": ROOT, args.against: other}
        found: dict[str, list[dict]] = {name: [] for name in trees}
        for number in range(1, args.rounds + 1):
            line = []
            for name, tree in trees.items():
                result = render_in(tree, args.renders)
                found[name].append(result)
                line.append(f"{name} {result['median']:.3f} s")
            print(f"round {number}: " + ", ".join(line), flush=True)
    print(speed_line())
    for name, results in found.items():
        medians = [r["median"] for r in results]
        print(
            f"{name}: median {statistics.median(medians):.3f} s of CPU per render "
            f"(rounds {min(medians):.3f}–{max(medians):.3f}; {results[-1]['pages']} pages)"
        )
    ours, theirs = (statistics.median(r["median"] for r in v) for v in found.values())
    print(f"change: {100 * (ours - theirs) / theirs:+.1f} %")
    same = {r["pdf"] for v in found.values() for r in v}
    print("PDFs: byte for byte the same" if len(same) == 1 else "PDFs: they differ")


if __name__ == "__main__":
    main()
