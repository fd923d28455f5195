from django.contrib import admin
from django.urls import include, path

from config.health import healthz
from config.staff_login import staff_login

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # Ahead of the admin's own login URL (same path): see config/staff_login.py.
    path("admin/login/", staff_login),
    path("admin/", admin.site.urls),
    path("staff/", include("staff.urls")),
    path("proposals/", include("staff.download_urls")),
    path("", include("questionnaire.urls")),
]
