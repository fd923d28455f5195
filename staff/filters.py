"""List filters and search over what the customer said (through ``staff.summary.facts``).

The answers are JSON in the questionnaire's vocabulary; only ``sizing.adapters`` reads it,
so these filters read each candidate row's facts in Python. That is fine for the hundreds to
low thousands of submissions a sales team handles; beyond that, denormalised columns on
Submission (written when it is stored) would let the database filter instead.
"""

from collections.abc import Callable

from django.contrib import admin
from django.db.models import QuerySet

from sizing.engine.vocabulary import VALUES
from staff.summary import SIZE_BANDS, Facts, facts

METHODS = list(VALUES["training.method"].items())
ARCHITECTURES = list(VALUES["model.architecture"].items())
DEPLOYMENTS = list(VALUES["deployment.location"].items())
NOT_SURE = ("not_sure", "Not sure / not answered")


def filter_by_facts(queryset: QuerySet, keep: Callable[[Facts], bool]) -> QuerySet:
    pks = [
        s.pk
        for s in queryset.select_related(None).prefetch_related(None).only("pk", "answers")
        if keep(facts(s))
    ]
    return queryset.filter(pk__in=pks)


class _FactFilter(admin.SimpleListFilter):
    attribute = ""
    options: list[tuple[str, str]] = []

    def lookups(self, request, model_admin):
        return [*self.options, NOT_SURE]

    def queryset(self, request, queryset):
        value = self.value()
        if not value:
            return queryset
        wanted = None if value == NOT_SURE[0] else value
        return filter_by_facts(queryset, lambda f: self.fact(f) == wanted)

    def fact(self, f: Facts):
        return getattr(f, self.attribute)


class MethodFilter(_FactFilter):
    title = "training method"
    parameter_name = "method"
    attribute = "method"
    options = METHODS


class ArchitectureFilter(_FactFilter):
    title = "dense or MoE"
    parameter_name = "architecture"
    attribute = "architecture"
    options = ARCHITECTURES


class SizeBandFilter(_FactFilter):
    title = "model size"
    parameter_name = "size"
    attribute = "size_band"
    options = [(key, label) for key, label, _low, _high in SIZE_BANDS]


class DeploymentFilter(_FactFilter):
    title = "deployment preference"
    parameter_name = "deployment"
    attribute = "deployment"
    options = DEPLOYMENTS


def label(options: list[tuple[str, str]], value: str | None) -> str:
    return dict(options).get(value or "", value or "")
