"""Where each engine input came from gets its own column instead of riding inside the result."""

from django.db import migrations, models


def move_sources_out_of_results(apps, schema_editor):
    Recommendation = apps.get_model("pipeline", "Recommendation")
    for recommendation in Recommendation.objects.exclude(result=None).iterator():
        result = recommendation.result
        if isinstance(result, dict) and "input_sources" in result:
            recommendation.input_sources = result.pop("input_sources") or {}
            recommendation.result = result
            recommendation.save(update_fields=["input_sources", "result"])


def move_sources_back(apps, schema_editor):
    Recommendation = apps.get_model("pipeline", "Recommendation")
    for recommendation in Recommendation.objects.exclude(result=None).iterator():
        if isinstance(recommendation.result, dict):
            recommendation.result["input_sources"] = recommendation.input_sources
            recommendation.save(update_fields=["result"])


class Migration(migrations.Migration):
    dependencies = [("pipeline", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="recommendation",
            name="input_sources",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(move_sources_out_of_results, move_sources_back),
    ]
