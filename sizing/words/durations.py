"""How long one run takes, with its likely range, in the unit people use: "20.2 days (likely
15–24 days)", "3.8 hours", "47 seconds (likely 7–47 seconds)".

The one formatter (``sizing.engine.numbers``) counts down to minutes; a very small run takes
seconds, and its range then read "0.12–0.78 minutes" and its time "about under a minute"
(the proposal checker's unit rule). Every surface says one run's time through here.
"""

from __future__ import annotations

from sizing.engine.numbers import format_days, format_days_range, format_number, format_range
from sizing.words.plural import count_of

_SECONDS_PER_DAY = 24 * 60 * 60
_MINUTES_PER_DAY = 24 * 60


def run_time(days: float) -> str:
    """One run's time: "20.2 days", "10 hours", "45 seconds"."""
    seconds = days * _SECONDS_PER_DAY
    if 0 < seconds < 59.5:
        return count_of(max(1, round(seconds)), "second")
    return format_days(days)


def run_time_range(low: float, high: float) -> str:
    """The likely range of one run's time: "15–24 days", "3.8–26 hours", "7–47 seconds",
    "under a minute to 3 minutes"."""
    if high * 24 >= 2 or low * _MINUTES_PER_DAY >= 1:
        return format_days_range(low, high)
    if high * _MINUTES_PER_DAY < 2:  # all of it within two minutes: in seconds
        return format_range(
            max(1, round(low * _SECONDS_PER_DAY)), max(1, round(high * _SECONDS_PER_DAY)), "seconds"
        )
    return f"under a minute to {format_days(high)}"


# Accelerator time in the unit that keeps it a whole-looking number: (unit, per hour).
_ACCELERATOR_TIME = (
    ("accelerator-hours", 1),
    ("accelerator-minutes", 60),
    ("accelerator-seconds", 3600),
)


def accelerator_hours(value: float, pair: tuple[float, float] | None = None) -> str:
    """Accelerator time [accelerator-h], with its range: "153,776 accelerator-hours
    (110,000–180,000)"; a tiny run in accelerator-minutes ("16 accelerator-minutes (6–41)") or
    seconds ("30 accelerator-seconds (7–47)"), chosen by the smaller of the figure and the low
    end of its range, so neither reads "0" or "0.12"."""
    least = min(value, pair[0]) if pair else value
    unit, scale = next(
        ((unit, scale) for unit, scale in _ACCELERATOR_TIME if least * scale >= 1),
        _ACCELERATOR_TIME[-1],
    )
    text = f"{format_number(round(value * scale) if scale > 1 else value)} {unit}"
    if pair:
        text += f" ({format_range(pair[0] * scale, pair[1] * scale)})"
    return text
