"""Recommendation now belongs to the ``pipeline`` app (its table stays): drop the old state."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("sizing", "0001_initial"),
        ("pipeline", "0001_initial"),
        ("reports", "0002_proposal_moves_to_pipeline"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="Recommendation")],
            database_operations=[],
        )
    ]
