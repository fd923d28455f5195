"""Mounted at /admin/ ahead of the admin's own URLs (config/urls.py): the two sign-in steps."""

from django.urls import path

from staff.sign_in import password, views

app_name = "staff_sign_in"

urlpatterns = [
    # The admin's own login URL (same path), so ``admin:login`` and LOGIN_URL lead here.
    path("login/", password.staff_login),
    path("second-factor/", views.code, name="code"),
    path("second-factor/set-up/", views.set_up, name="set_up"),
    path("second-factor/sign-out/", views.sign_out, name="sign_out"),
]
