from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "reports"

    def ready(self) -> None:
        from django.core import checks

        from reports.checks import harfbuzz_subsetter, log_missing_subsetter

        checks.register(harfbuzz_subsetter)
        log_missing_subsetter()
