from django.contrib import admin
from django.urls import include, path

from config.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # The staff sign-in (password, then a second factor), ahead of the admin's own login URL.
    path("admin/", include("staff.sign_in.urls")),
    path("admin/", admin.site.urls),
    path("staff/", include("staff.urls")),
    path("proposals/", include("staff.download_urls")),
    path("", include("questionnaire.urls")),
]
