"""Give a staff member an authenticator on their behalf and print its secret once.

For a person who cannot scan the set-up page's code, and for scripts that sign in (the
production smoke test): a TOTP code for the printed secret is
``django_otp.oath.totp(base64.b32decode(SECRET))``. Refuses when the user already has one
(``reset_second_factor`` first): a secret is never shown twice.
"""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from staff.sign_in.devices import (
    confirm_authenticator,
    has_second_factor,
    pending_authenticator,
    secret_for_typing,
)


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser):
        parser.add_argument("username", help="The staff member's username.")
        parser.add_argument(
            "--secret-only",
            action="store_true",
            help="Print only the base32 secret (no spaces), for a script.",
        )

    def handle(self, *args, username: str, secret_only: bool = False, **options):
        user_model = get_user_model()
        try:
            user = user_model.objects.get(**{user_model.USERNAME_FIELD: username})
        except user_model.DoesNotExist:
            raise CommandError(f"There is no user {username!r}.") from None
        if has_second_factor(user):
            raise CommandError(
                f"{username} has an authenticator already; remove it first with "
                f"`manage.py reset_second_factor {username}`."
            )
        device = pending_authenticator(user)
        recovery_codes = confirm_authenticator(device)
        secret = secret_for_typing(device)
        if secret_only:
            self.stdout.write(secret.replace(" ", ""))
            return
        self.stdout.write(
            f"Authenticator set up for {username}. Add this secret to an authenticator app "
            f"(time-based, six digits, 30 seconds):\n  {secret}\nor open: {device.config_url}\n"
            f"Recovery codes (each signs in once; shown only now): {' '.join(recovery_codes)}"
        )
