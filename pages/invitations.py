"""Joining a campaign: the organiser's invitation links (with a QR code for the club night),
the page a player opens from such a link, and the organiser's member actions (approve a
waiting player, remove a member).

Who may do what is the API's: organisers manage, members read, strangers get 404.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from urllib.parse import urlencode

import segno
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from campaigns.models import Campaign, Invitation, JoinRequest, Membership, Role
from campaigns.selectors import campaigns_managed_by, campaigns_visible_to, invitation_for
from campaigns.services import (
    campaign_update,
    invitation_accept,
    invitation_create,
    invitation_is_open,
    invitation_revoke,
    join_request_approve,
    join_request_decline,
    membership_remove,
)
from common.users import signed_in
from pages.accounts import remember_invitation
from rules.system import get_system

#: How long a new link may stay open, as the organiser's form offers it.
EXPIRY_CHOICES = [
    ("", "Never (until you revoke it)"),
    ("1", "After 1 day"),
    ("7", "After 7 days"),
    ("30", "After 30 days"),
]


class InvitationForm(forms.Form):
    expires_in = forms.ChoiceField(
        label="The link stops working",
        choices=EXPIRY_CHOICES,
        required=False,
        help_text="Revoke it at any time below.",
    )

    def expires_at(self) -> datetime | None:
        days = self.cleaned_data.get("expires_in")
        return timezone.now() + timedelta(days=int(days)) if days else None


class JoiningForm(forms.Form):
    approve_joiners = forms.BooleanField(
        label="New players wait for an organiser's approval",
        required=False,
        help_text="Off: whoever opens a working link joins at once.",
    )


def managed_campaign(request: HttpRequest, pk: int) -> Campaign:
    """Return a campaign the user organises: 404 for strangers, 403 for other members."""
    campaign = get_object_or_404(campaigns_visible_to(request.user).select_related("club"), pk=pk)
    if not campaigns_managed_by(request.user).filter(pk=campaign.pk).exists():
        raise PermissionDenied("Only the campaign's organisers manage it.")
    return campaign


def join_url(request: HttpRequest, invitation: Invitation) -> str:
    path = reverse("campaign-join", args=[invitation.campaign_id, invitation.code])
    return request.build_absolute_uri(path)


def qr_svg(url: str) -> str:
    """Return the link as an inline SVG QR code, big enough to scan across a table."""
    return segno.make(url, error="m", micro=False).svg_inline(
        scale=6, border=2, omitsize=True, title="QR code of the invitation link"
    )


# --- the organiser's invitation page ----------------------------------------------------------


@login_required
def campaign_invitations(request: HttpRequest, pk: int) -> HttpResponse:
    """List the campaign's links (open ones with a QR code); POST makes a new one."""
    campaign = managed_campaign(request, pk)
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            invitation_create(
                campaign=campaign, user=signed_in(request.user), expires_at=form.expires_at()
            )
        except ValidationError as exc:
            form.add_error("expires_in", exc.messages)
        else:
            messages.success(request, "A new invitation link is ready.")
            return redirect("campaign-invitations", pk=campaign.pk)
    return _invitations_page(request, campaign, form)


def _invitations_page(
    request: HttpRequest, campaign: Campaign, form: InvitationForm, status: int = 200
) -> HttpResponse:
    invitations = list(campaign.invitations.select_related("created_by").order_by("-created_at"))
    open_links = [
        {"invitation": i, "url": join_url(request, i), "qr": qr_svg(join_url(request, i))}
        for i in invitations
        if invitation_is_open(i)
    ]
    closed = [i for i in invitations if not invitation_is_open(i)]
    context = {
        "campaign": campaign,
        "system": get_system(campaign.system),
        "form": form,
        "joining": JoiningForm(initial={"approve_joiners": campaign.approve_joiners}),
        "open_links": open_links,
        "closed": closed,
    }
    return render(request, "pages/campaign_invitations.html", context, status=status)


@login_required
@require_POST
def invitation_revoke_page(request: HttpRequest, pk: int, invitation_pk: int) -> HttpResponse:
    """Stop a link working (pressing it twice is harmless)."""
    campaign = managed_campaign(request, pk)
    invitation = get_object_or_404(campaign.invitations, pk=invitation_pk)
    invitation_revoke(invitation=invitation, user=signed_in(request.user))
    messages.success(request, "The link is revoked: it no longer lets anyone join.")
    return redirect("campaign-invitations", pk=campaign.pk)


@login_required
@require_POST
def campaign_joining(request: HttpRequest, pk: int) -> HttpResponse:
    """Switch whether players who open a link wait for approval."""
    campaign = managed_campaign(request, pk)
    form = JoiningForm(request.POST)
    form.is_valid()  # a checkbox: missing means off, nothing else can be wrong
    campaign_update(campaign=campaign, approve_joiners=form.cleaned_data["approve_joiners"])
    messages.success(
        request,
        "New players now wait for your approval."
        if campaign.approve_joiners
        else "New players now join as soon as they open a link.",
    )
    return redirect("campaign-invitations", pk=campaign.pk)


# --- the player's side: opening a link ---------------------------------------------------------


def campaign_join(request: HttpRequest, pk: int, code: str) -> HttpResponse:
    """Show the campaign an invitation leads to; POST joins it (signed-in players only).

    An anonymous visitor is offered sign-up and sign-in, each bringing them back here; the
    link's right to sign up (for an invite-only club) is kept in their session meanwhile.
    """
    invitation = invitation_for(pk, code)
    if invitation is None:
        raise Http404("No such invitation.")
    campaign = invitation.campaign
    context = {
        "campaign": campaign,
        "system": get_system(campaign.system),
        "invitation": invitation,
    }
    if not invitation_is_open(invitation):
        return render(request, "pages/campaign_join.html", {**context, "closed": True}, status=410)
    if not request.user.is_authenticated:
        remember_invitation(request, invitation)
        back = urlencode({"next": request.path})
        context.update(signup_url=f"{reverse('account_signup')}?{back}")
        context.update(login_url=f"{reverse('account_login')}?{back}")
        return render(request, "pages/campaign_join.html", context)
    if request.method == "POST":
        return _join(request, invitation)
    member = Membership.objects.filter(campaign=campaign, user_id=request.user.pk).first()
    if member is not None:
        return redirect("campaign-page", pk=campaign.pk)
    waiting = JoinRequest.objects.filter(campaign=campaign, user_id=request.user.pk).exists()
    players = campaign.memberships.filter(role=Role.PLAYER).count()
    return render(
        request, "pages/campaign_join.html", {**context, "waiting": waiting, "players": players}
    )


def _join(request: HttpRequest, invitation: Invitation) -> HttpResponse:
    try:
        joined = invitation_accept(invitation=invitation, user=signed_in(request.user))
    except ValidationError:
        messages.error(request, "This invitation link stopped working a moment ago.")
        return redirect("campaign-join", pk=invitation.campaign_id, code=invitation.code)
    if joined.membership is None:
        messages.info(request, "Asked: an organiser will let you in.")
        return redirect("campaign-join", pk=invitation.campaign_id, code=invitation.code)
    messages.success(request, f"Welcome to {invitation.campaign.name}.")
    return redirect("campaign-page", pk=invitation.campaign_id)


# --- the organiser's member actions -------------------------------------------------------------


@login_required
@require_POST
def join_request_decide(request: HttpRequest, pk: int, request_pk: int) -> HttpResponse:
    """Approve or turn away a player waiting to join."""
    campaign = managed_campaign(request, pk)
    waiting = campaign.join_requests.select_related("user").filter(pk=request_pk).first()
    if waiting is None:  # decided already (a second press, or another organiser)
        return redirect(f"{reverse('campaign-page', args=[campaign.pk])}#members-title")
    name = waiting.user.get_username()
    if request.POST.get("decision") == "approve":
        join_request_approve(join_request=waiting, user=signed_in(request.user))
        messages.success(request, f"{name} is now a player in {campaign.name}.")
    else:
        join_request_decline(join_request=waiting, user=signed_in(request.user))
        messages.success(request, f"{name} was turned away.")
    return redirect(f"{reverse('campaign-page', args=[campaign.pk])}#members-title")


@login_required
def member_remove(request: HttpRequest, pk: int, member_pk: int) -> HttpResponse:
    """Ask to confirm removing a member; POST removes them."""
    campaign = managed_campaign(request, pk)
    member = campaign.memberships.select_related("user").filter(pk=member_pk).first()
    back = f"{reverse('campaign-page', args=[campaign.pk])}#members-title"
    if member is None:  # removed already: a second press changes nothing
        return redirect(back)
    error = ""
    if request.method == "POST":
        try:
            membership_remove(membership=member, user=signed_in(request.user))
        except ValidationError as exc:
            error = " ".join(exc.messages)
        else:
            messages.success(request, f"{member.player_name} is no longer in {campaign.name}.")
            return redirect(back)
    context = {"campaign": campaign, "member": member, "error": error}
    return render(
        request, "pages/campaign_member_remove.html", context, status=400 if error else 200
    )
