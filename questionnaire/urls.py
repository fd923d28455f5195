from django.urls import path
from django.views.generic import TemplateView

app_name = "questionnaire"

urlpatterns = [
    path("", TemplateView.as_view(template_name="questionnaire/home.html"), name="home"),
]
