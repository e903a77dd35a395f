"""A player's notifications: the list with read/unread, marking read, and the e-mail choice."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from common.users import Visitor, signed_in
from notices.models import Notice, NoticeSettings
from notices.services import notice_settings_update, notices_mark_read

#: How many notices the page lists; older ones stay in the database.
PAGE_SIZE = 50


class EmailChoiceForm(forms.Form):
    email = forms.BooleanField(
        required=False,
        label="Also e-mail me my notifications",
        help_text="Sent to the address on your account.",
    )


#: The home page counts unread notices up to this many ("50+" beyond), in one query.
HOME_COUNT_LIMIT = 50


def recent_notices(user: Visitor) -> dict[str, object]:
    """The home page's notices: the five latest unread ones and how many are unread."""
    if not user.is_authenticated:
        return {"unread": 0, "latest": ()}
    unread = list(
        Notice.objects.filter(user=user, read_at__isnull=True).select_related("campaign")[
            : HOME_COUNT_LIMIT + 1
        ]
    )
    count = f"{HOME_COUNT_LIMIT}+" if len(unread) > HOME_COUNT_LIMIT else len(unread)
    return {"unread": count, "latest": tuple(unread[:5])}


@login_required
def notifications_page(request: HttpRequest) -> HttpResponse:
    """List the player's notifications, newest first; unread ones are marked as such."""
    user = signed_in(request.user)
    choice = NoticeSettings.objects.filter(user=user).first()
    form = EmailChoiceForm(initial={"email": bool(choice and choice.email)})
    notices = Notice.objects.filter(user=user).select_related("campaign")[:PAGE_SIZE]
    unread = Notice.objects.filter(user=user, read_at__isnull=True).count()
    context = {"notices": notices, "unread": unread, "form": form}
    return render(request, "pages/notifications.html", context)


@login_required
@require_POST
def notifications_read(request: HttpRequest) -> HttpResponse:
    """Mark one notice (`notice`) or all of them read; sending it twice changes nothing."""
    raw = request.POST.get("notice", "")
    ids = [int(raw)] if raw.isdigit() else None
    notices_mark_read(user=signed_in(request.user), notice_ids=ids)
    return redirect("notifications")


@login_required
@require_POST
def notifications_email(request: HttpRequest) -> HttpResponse:
    """Save the player's e-mail choice."""
    form = EmailChoiceForm(request.POST)
    form.is_valid()  # a checkbox is always valid: absent means no
    user = signed_in(request.user)
    row = notice_settings_update(user=user, email=form.cleaned_data.get("email", False))
    if row.email and not user.email:
        messages.warning(request, "Add an e-mail address to your account to receive them.")
    else:
        messages.success(request, "Your e-mail choice is saved.")
    return redirect("notifications")
