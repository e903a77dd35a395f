"""A player's own profile: the name the club sees them by."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from common.users import User

#: Longest display name (the user's `first_name` column holds it).
DISPLAY_NAME_MAX = 150


@transaction.atomic
def player_profile_update(*, user: User, display_name: str) -> User:
    """Set the name shown for the player in member lists, pairings and standings.

    An empty name is allowed: the username is shown instead.
    """
    name = " ".join(display_name.split())
    if len(name) > DISPLAY_NAME_MAX:
        raise ValidationError(
            {"display_name": [f"keep it to {DISPLAY_NAME_MAX} characters or fewer"]}
        )
    user.first_name = name
    user.save(update_fields=["first_name"])
    return user
