"""How people are named on every staff page, customer page and email: "Erin Engineer"."""


def full_name(user) -> str:
    """The user's full name, else their username; "nobody" for no user."""
    if user is None:
        return "nobody"
    return user.get_full_name() or user.get_username()
