from django.apps import AppConfig
from django.conf import settings
from django.contrib.auth.signals import user_logged_in


def shorten_staff_session(sender, request, user, **kwargs) -> None:
    """Staff sessions expire after STAFF_SESSION_AGE_SECONDS instead of the site default.

    The admin holds customers' business data, so a forgotten staff login should not last
    the two weeks a customer's questionnaire session may need.
    """
    if user.is_staff and hasattr(request, "session"):
        request.session.set_expiry(settings.STAFF_SESSION_AGE_SECONDS)


class StaffConfig(AppConfig):
    name = "staff"
    verbose_name = "Staff workflow"

    def ready(self) -> None:
        user_logged_in.connect(shorten_staff_session, dispatch_uid="staff-session-age")
