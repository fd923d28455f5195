"""How a long-lived process's garbage collector treats what it loaded at start-up.

A web worker (gunicorn) or a Celery pool process imports Django, the apps and WeasyPrint once:
several hundred thousand objects that live as long as the process. Left alone, Python's
collector walks them again at every full collection, and collects its youngest generation every
700 allocations, which a proposal render (a million short-lived boxes and styles) or a page
view reaches many times over. Issue 29 measured both on the demo render (benchmarks/pipeline.py,
2026-12-05): freezing the start-up objects halved the collector's time (0.15-0.28 -> 0.08-0.10 s
of CPU), and collecting the youngest generation every 10,000 allocations took another 0.05-0.06 s
off a 1.1 s render (with collection switched off entirely, 0.10 s). A questionnaire walked
in-process (benchmarks/wizard_steps.py) cost 5-6 % less CPU with both.
"""

import gc

# Allocations between two collections of the youngest generation (Python's default is 700). The
# older generations keep their defaults, so garbage in cycles is still freed within a render or a
# few dozen page views.
YOUNG_GENERATION_THRESHOLD = 10_000


def hold_start_up_objects() -> None:
    """Collect start-up garbage, then move everything the process holds out of the collector's
    sight (``gc.freeze``) and collect the youngest generation less often. Call once, when the
    process has loaded what it keeps."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_GENERATION_THRESHOLD, *gc.get_threshold()[1:])
