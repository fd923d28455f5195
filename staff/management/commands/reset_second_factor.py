"""Remove a staff member's authenticator and recovery codes (a lost phone): at their next
sign-in, after the password, they set up a new one. Confirm who is asking before running it."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from staff.sign_in.devices import remove_second_factor


class Command(BaseCommand):
    help = __doc__

    def add_arguments(self, parser):
        parser.add_argument("username", help="The staff member's username.")

    def handle(self, *args, username: str, **options):
        user_model = get_user_model()
        try:
            user = user_model.objects.get(**{user_model.USERNAME_FIELD: username})
        except user_model.DoesNotExist:
            raise CommandError(f"There is no user {username!r}.") from None
        removed = remove_second_factor(user)
        if removed == 0:
            self.stdout.write(f"{username} had no second factor; nothing removed.")
            return
        self.stdout.write(
            f"Removed the authenticator and recovery codes of {username}. After the password, "
            "their next sign-in asks them to set up a new authenticator."
        )
