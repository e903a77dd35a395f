"""Accounts on top of django-allauth: sign-in that also takes the old `username` field, sign-up
that asks for a display name and honours invite-only clubs, and the player's profile page."""

from __future__ import annotations

from typing import Any

from allauth.account import app_settings as allauth_settings
from allauth.account.adapter import DefaultAccountAdapter, get_adapter
from allauth.account.forms import LoginForm, SignupForm
from allauth.account.utils import filter_users_by_email
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
from common.users import User, signed_in

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


class QuietSignupForm(SignupForm):
    """Sign-up that does not say whether an e-mail address is registered.

    allauth hides a registered address only when e-mail verification is mandatory (both answers
    are then "we sent you a mail"). Muster's verification is optional, so a registered address
    would be refused with "already registered": a lookup service for the club's members.
    Instead the account is made exactly as any other (same answer, same redirect) but without
    that address, and the address's owner gets allauth's "someone tried to sign up with your
    address" mail; the newcomer can add an address of their own from the profile page.
    """

    taken_email = ""

    def validate_unique_email(self, value: str) -> str:
        verification = allauth_settings.EMAIL_VERIFICATION
        quiet_already = verification == allauth_settings.EmailVerificationMethod.MANDATORY
        if not quiet_already and filter_users_by_email(value):
            self.taken_email = value
            return value
        checked: str = super().validate_unique_email(value)  # allauth is untyped
        return checked

    def save(self, request: HttpRequest) -> User:
        if self.taken_email:
            self.cleaned_data["email"] = ""
            get_adapter(request).send_account_already_exists_mail(self.taken_email)
        user: User = super().save(request)  # allauth is untyped
        return user


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
    user = signed_in(request.user)
    form = ProfileForm(request.POST or None, initial={"display_name": user.first_name})
    if request.method == "POST" and form.is_valid():
        try:
            player_profile_update(user=user, display_name=form.cleaned_data["display_name"])
        except ValidationError as exc:
            form.add_error("display_name", exc.message_dict["display_name"])
        else:
            messages.success(request, "Your display name is saved.")
            return redirect("profile")
    return render(request, "account/profile.html", {"form": form})
