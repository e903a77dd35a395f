"""The extra fields of sign-up (allauth's ACCOUNT_SIGNUP_FORM_CLASS).

Its own module: allauth imports it while building its forms, so it must not import them back.
"""

from __future__ import annotations

from django import forms
from django.http import HttpRequest

from campaigns.services.players import DISPLAY_NAME_MAX, player_profile_update
from common.users import User


class SignupExtras(forms.Form):
    """What sign-up asks beyond allauth's username, e-mail and password."""

    display_name = forms.CharField(
        label="Display name",
        required=False,
        max_length=DISPLAY_NAME_MAX,
        help_text="How your club sees you in pairings and standings; empty: your username.",
    )

    def signup(self, request: HttpRequest, user: User) -> None:
        player_profile_update(user=user, display_name=self.cleaned_data.get("display_name", ""))
