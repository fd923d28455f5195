"""The approval gate and the email outbox.

Submissions that staff had already marked as sent (or won or lost) were shown to their
customers before the gate existed: their latest finished version with a finished proposal is
approved here (by nobody, at migration time), so the customer's page keeps showing what they
were sent rather than falling back to the preliminary estimate.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


ALREADY_WITH_THE_CUSTOMER = ("proposal_sent", "won", "lost")


def approve_what_customers_already_hold(apps, schema_editor):
    Recommendation = apps.get_model("pipeline", "Recommendation")
    Submission = apps.get_model("questionnaire", "Submission")
    now = django.utils.timezone.now()
    for submission in Submission.objects.filter(status__in=ALREADY_WITH_THE_CUSTOMER).iterator():
        latest = (
            Recommendation.objects.filter(
                submission=submission, status="done", proposal__status="done"
            )
            .order_by("-version")
            .first()
        )
        if latest is not None:
            Recommendation.objects.filter(pk=latest.pk).update(approved_at=now)


class Migration(migrations.Migration):

    dependencies = [
        ('pipeline', '0002_recommendation_input_sources'),
        ('questionnaire', '0003_workflow_statuses_with_approval'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='recommendation',
            name='approved_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='recommendation',
            name='approved_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.CreateModel(
            name='OutgoingEmail',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('confirmation', 'Request received (to the customer)'), ('received', 'New request (to the account manager)'), ('needs_review', 'Needs review (to the engineers)'), ('approved', 'Approved, ready to send (to the account manager)'), ('proposal', 'Proposal (to the customer)'), ('viewed', 'Customer opened the proposal (to the account manager)'), ('failed', 'Sizing failed (to staff)')], max_length=20)),
                ('version', models.PositiveIntegerField(blank=True, null=True)),
                ('key', models.CharField(max_length=100, unique=True)),
                ('to', models.JSONField(default=list)),
                ('subject', models.CharField(max_length=300)),
                ('body', models.TextField()),
                ('status', models.CharField(choices=[('pending', 'Waiting to be sent'), ('sending', 'Sending'), ('sent', 'Sent'), ('failed', 'Failed')], db_index=True, default='pending', max_length=20)),
                ('attempts', models.PositiveSmallIntegerField(default=0)),
                ('error', models.TextField(blank=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('sent_at', models.DateTimeField(blank=True, null=True)),
                ('submission', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='emails', to='questionnaire.submission')),
            ],
            options={
                'verbose_name': 'outgoing email',
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.RunPython(approve_what_customers_already_hold, migrations.RunPython.noop),
    ]
