from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """The project's own checks (``manage.py check --deploy``) and the request id's end; no
    models."""

    name = "config"
    verbose_name = "Configuration"

    def ready(self) -> None:
        from django.core import checks
        from django.core.signals import request_finished

        from config.deploy_checks import embedded_services_in_production
        from config.log_context import forget_request_id

        checks.register(embedded_services_in_production, checks.Tags.database, deploy=True)
        request_finished.connect(forget_request_id, dispatch_uid="config.forget_request_id")
