"""Proposal now belongs to the ``pipeline`` app (its table stays): drop the old state.

``staff`` 0003 repoints the share-link and download foreign keys first (its ``run_before``).
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("reports", "0001_initial"),
        ("pipeline", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Proposal")],
            database_operations=[],
        )
    ]
