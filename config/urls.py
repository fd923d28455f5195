from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    # /livez, /readyz and /healthz are answered before the URLconf (config/health.py).
    # An email service's bounce and complaint webhooks, behind ANYMAIL_WEBHOOK_SECRET
    # (pipeline/delivery_events.py).
    path("email/anymail/", include("anymail.urls")),
    path("", include("pipeline.urls")),
    # The staff sign-in (password, then a second factor), ahead of the admin's own login URL.
    path("admin/", include("staff.sign_in.urls")),
    path("admin/", admin.site.urls),
    path("staff/", include("staff.urls")),
    path("proposals/", include("staff.download_urls")),
    path("", include("questionnaire.urls")),
]
