"""Recommendation and Proposal move here from ``sizing`` and ``reports``: state only.

The tables keep their names (``sizing_recommendation``, ``reports_proposal``), so existing rows
stay where they are; only Django's idea of which app owns them changes. ``sizing`` 0002 and
``reports`` 0002 drop the old state; ``staff`` 0003 repoints its foreign keys and moves the
content types (and so the roles' permissions) to this app.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import reports.storage


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("questionnaire", "0002_draft_revision"),
        ("sizing", "0001_initial"),
        ("reports", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="Recommendation",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("version", models.PositiveIntegerField()),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        ("error", models.TextField(blank=True)),
                        ("engine_version", models.CharField(blank=True, max_length=40)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "Pending"),
                                    ("running", "Running"),
                                    ("done", "Done"),
                                    ("failed", "Failed"),
                                ],
                                default="pending",
                                max_length=20,
                            ),
                        ),
                        ("overrides", models.JSONField(blank=True, default=dict)),
                        ("engine_input", models.JSONField(blank=True, null=True)),
                        ("result", models.JSONField(blank=True, null=True)),
                        (
                            "requested_by",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.SET_NULL,
                                related_name="+",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "submission",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="recommendations",
                                to="questionnaire.submission",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "sizing_recommendation",
                        "ordering": ["submission", "-version"],
                        "abstract": False,
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("submission", "version"),
                                name="unique_recommendation_version",
                            )
                        ],
                    },
                ),
                migrations.CreateModel(
                    name="Proposal",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("version", models.PositiveIntegerField()),
                        ("attempts", models.PositiveSmallIntegerField(default=0)),
                        ("error", models.TextField(blank=True)),
                        ("engine_version", models.CharField(blank=True, max_length=40)),
                        ("created_at", models.DateTimeField(auto_now_add=True)),
                        ("updated_at", models.DateTimeField(auto_now=True)),
                        ("finished_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("pending", "Pending"),
                                    ("rendering", "Rendering"),
                                    ("done", "Done"),
                                    ("failed", "Failed"),
                                ],
                                default="pending",
                                max_length=20,
                            ),
                        ),
                        (
                            "pdf",
                            models.FileField(
                                blank=True,
                                storage=reports.storage.proposal_storage,
                                upload_to=reports.storage.proposal_path,
                            ),
                        ),
                        ("sha256", models.CharField(blank=True, max_length=64)),
                        ("size_bytes", models.PositiveIntegerField(blank=True, null=True)),
                        ("page_count", models.PositiveSmallIntegerField(blank=True, null=True)),
                        (
                            "recommendation",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="proposal",
                                to="pipeline.recommendation",
                            ),
                        ),
                        (
                            "submission",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="proposals",
                                to="questionnaire.submission",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "reports_proposal",
                        "ordering": ["submission", "-version"],
                        "abstract": False,
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("submission", "version"), name="unique_proposal_version"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        )
    ]
