from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """The project's own checks (``manage.py check --deploy``); no models."""

    name = "config"
    verbose_name = "Configuration"

    def ready(self) -> None:
        from django.core import checks

        from config.deploy_checks import embedded_services_in_production

        checks.register(embedded_services_in_production, checks.Tags.database, deploy=True)
