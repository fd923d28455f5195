"""Every admin page of the service; Django's autodiscovery imports this package.

One module per kind of row: submissions (the staff workflow), recommendation and proposal
versions (read-only), the staff records (audit trail, notes, links, downloads, deletions) and
the email outbox.
"""

from staff.admin import emails, proposals, recommendations, records, submissions

__all__ = ["emails", "proposals", "recommendations", "records", "submissions"]
