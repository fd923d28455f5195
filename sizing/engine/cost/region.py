"""The cloud region a residency answer points to, and the basis its prices are stated on.

A residency answer names a country or a group ("Germany", "UK and EU only"); the cloud
options are then to run in a region there.  The first place the answer names picks the
region: its country and the city where the large clouds have a region for it [1]_ [2]_.

The catalog's hourly prices are the worldwide median of public list prices
(:mod:`.accelerator_prices`, region ``GLOBAL``), not a region's own: the basis says so, and
that the region is quoted, rather than inventing a regional markup no source gives.

References
----------
.. [1] AWS Regions and Availability Zones (docs.aws.amazon.com/global-infrastructure):
       eu-central-1 Frankfurt, eu-west-2 London, eu-west-3 Paris, eu-west-1 Ireland,
       eu-north-1 Stockholm, eu-south-1 Milan, eu-south-2 Spain, eu-central-2 Zurich,
       us-east-1 N. Virginia, ca-central-1 Canada Central.
.. [2] Azure geographies (azure.microsoft.com/explore/global-infrastructure/geographies):
       Germany West Central (Frankfurt), Netherlands as West Europe (Amsterdam), Poland
       Central (Warsaw), Norway East (Oslo).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# (codes written in capitals, names in any case, the place as a sentence names it, the region's
# city), most specific first: a country before the group it belongs to.  Codes are matched as
# written so that "us" in "stay with us" names no country; two-letter country codes are not
# read ("IT", "NO" and "DE" are also words).
_PLACES: tuple[tuple[str, str, str, str], ...] = (
    ("", "germany|deutschland|german", "Germany", "Frankfurt"),
    ("UK|GB", "britain|england|united kingdom", "the United Kingdom", "London"),
    ("", "france|french", "France", "Paris"),
    ("", "ireland", "Ireland", "Dublin"),
    ("", "netherlands|holland|dutch", "the Netherlands", "Amsterdam"),
    ("", "sweden|swedish", "Sweden", "Stockholm"),
    ("", "norway", "Norway", "Oslo"),
    ("", "italy", "Italy", "Milan"),
    ("", "spain", "Spain", "Madrid"),
    ("", "poland", "Poland", "Warsaw"),
    ("", "switzerland|swiss", "Switzerland", "Zurich"),
    ("", "canada", "Canada", "Montreal"),
    ("EU|EEA", "europe|european union|european", "the EU", "Frankfurt"),
    ("US|USA", "united states|america", "the United States", "Northern Virginia"),
)


@dataclass(frozen=True)
class CloudRegion:
    """Where the cloud options run, from the residency answer."""

    place: str  # "Germany", "the EU"
    city: str  # "Frankfurt"
    answer: str  # the customer's residency answer as given


def cloud_region(data_residency: str | None) -> CloudRegion | None:
    """The region the answer names first (module docstring); None without an answer or a
    place this table knows."""
    if not data_residency:
        return None
    found = []
    for codes, names, place, city in _PLACES:
        matches = [
            re.search(rf"\b(?:{codes})\b", data_residency) if codes else None,
            re.search(rf"\b(?:{names})\b", data_residency, re.IGNORECASE),
        ]
        starts = [m.start() for m in matches if m]
        if starts:
            found.append((min(starts), place, city))
    if not found:
        return None
    _, place, city = min(found)
    return CloudRegion(place=place, city=city, answer=data_residency)
