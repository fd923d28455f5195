"""Every admin page of the service; Django's autodiscovery imports this package.

One module per kind of row: submissions (the staff workflow), recommendation and proposal
versions (read-only), and the staff records (audit trail, notes, links, downloads, deletions).
"""

from staff.admin import proposals, recommendations, records, submissions

__all__ = ["proposals", "recommendations", "records", "submissions"]
