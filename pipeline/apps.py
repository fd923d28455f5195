from django.apps import AppConfig
from django.db.models.signals import post_save


class PipelineConfig(AppConfig):
    name = "pipeline"
    verbose_name = "Sizing and proposal pipeline"

    def ready(self) -> None:
        from anymail.signals import tracking

        from pipeline.delivery_events import on_tracking_event
        from pipeline.facts import record_facts_on_save
        from questionnaire.models import Submission

        # The staff list filters on what the answers say: kept beside each submission as it is
        # saved (pipeline/facts.py), so no filter reads every submission's answers.
        post_save.connect(
            record_facts_on_save, sender=Submission, dispatch_uid="pipeline.record_facts"
        )
        # An email service's bounce and complaint webhooks mark the outbox row.
        tracking.connect(on_tracking_event, dispatch_uid="pipeline.delivery_events")
