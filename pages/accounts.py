"""Accounts on top of django-allauth: sign-in that also takes the old `username` field, sign-up
that asks for a display name and honours invite-only clubs, and the player's profile page."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.forms import LoginForm
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from campaigns.models import Invitation
from campaigns.selectors import signup_needs_invitation
from campaigns.services.invitations import invitation_is_open
from campaigns.services.players import DISPLAY_NAME_MAX, player_profile_update

#: The session key where an opened invitation link is remembered until sign-up.
INVITATION_SESSION_KEY = "muster_invitation"


def remember_invitation(request: HttpRequest, invitation: Invitation) -> None:
    """Carry an opened invitation link (and its right to sign up) through sign-up."""
    request.session[INVITATION_SESSION_KEY] = invitation.pk


def invited(request: HttpRequest) -> bool:
    """Return whether this visitor opened an invitation link that still works."""
    pk = request.session.get(INVITATION_SESSION_KEY)
    invitation = Invitation.objects.filter(pk=pk).first() if pk else None
    return invitation is not None and invitation_is_open(invitation)


class InvitationAwareAdapter(DefaultAccountAdapter):
    """Sign-up is open unless every club is invite-only; an invitation link opens it."""

    def is_open_for_signup(self, request: HttpRequest) -> bool:
        return not signup_needs_invitation() or invited(request)


class SignInForm(LoginForm):
    """allauth's sign-in form, also taking `username` for `login` (scripts and older forms)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        data = kwargs.get("data", args[0] if args else None)
        if data is not None and "login" not in data and "username" in data:
            data = data.copy()
            data["login"] = data["username"]
            if args:
                args = (data, *args[1:])
            else:
                kwargs["data"] = data
        super().__init__(*args, **kwargs)
        # allauth draws these unlabelled, with placeholders; our page labels every field.
        login = self.fields["login"]
        login.label = "Username or e-mail address"
        login.widget.attrs.update(autocomplete="username", autocapitalize="none")
        login.widget.attrs.pop("placeholder", None)
        self.fields["password"].widget.attrs.pop("placeholder", None)
        self.fields["password"].help_text = ""
        if "remember" in self.fields:
            self.fields["remember"].label = "Keep me signed in on this device"


class ProfileForm(forms.Form):
    display_name = forms.CharField(
        label="Display name",
        required=False,
        max_length=DISPLAY_NAME_MAX,
        help_text="Shown in member lists, pairings and standings; empty: your username.",
    )


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """Show and change the player's display name; link to e-mail and password pages."""
    form = ProfileForm(request.POST or None, initial={"display_name": request.user.first_name})
    if request.method == "POST" and form.is_valid():
        try:
            player_profile_update(user=request.user, display_name=form.cleaned_data["display_name"])
        except ValidationError as exc:
            form.add_error("display_name", exc.message_dict["display_name"])
        else:
            messages.success(request, "Your display name is saved.")
            return redirect("profile")
    return render(request, "account/profile.html", {"form": form})
