from django.urls import path

from pipeline.metrics import metrics

urlpatterns = [
    # Prometheus, behind METRICS_TOKEN (pipeline/metrics.py).
    path("metrics", metrics, name="metrics"),
]
