"""The admin's house-rules editor: the same typed rows as the organiser's page
(`campaigns.house_rules_forms`), inside the admin, for staff who run the campaign's club as well
as its organisers. Preview and "Add a row" redraw the page; Save keeps a new version.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse

from campaigns.house_rules_forms import (
    STATUS,
    Editor,
    Preview,
    editor_post,
    editor_start,
    stale_warning,
    version_history,
)
from campaigns.models import Campaign
from campaigns.services.house_rules import house_rules_current
from rules.system import get_system


def house_rules_view(
    request: HttpRequest, campaign: Campaign, context: dict[str, object]
) -> HttpResponse:
    """Show the editor for a campaign the user runs; POST previews, adds a row or saves."""
    here = reverse("admin:campaigns_campaign_house_rules", args=[campaign.pk])
    if get_system(campaign.system).house is None:
        return _page(request, campaign, context, None, None)
    if request.method != "POST":
        return _page(request, campaign, context, editor_start(campaign), None)
    result = editor_post(campaign, request.POST, request.user)
    if result.kind == "saved" and result.version is not None:
        messages.success(
            request, f"Saved {campaign}'s house rules as version {result.version.number}."
        )
        return HttpResponseRedirect(here)
    if result.kind == "stale":
        messages.warning(request, stale_warning(result))
    if result.kind == "unchanged":
        messages.info(request, "Nothing changed, so no new version was saved.")
        return HttpResponseRedirect(here)
    status = STATUS.get(result.kind, 200)
    return _page(request, campaign, context, result.editor, result.preview, status=status)


def _page(
    request: HttpRequest,
    campaign: Campaign,
    context: dict[str, object],
    editor: Editor | None,
    preview: Preview | None,
    *,
    status: int = 200,
) -> HttpResponse:
    context = {
        **context,
        "title": f"{campaign}: house rules",
        "campaign": campaign,
        "system": get_system(campaign.system),
        "editor": editor,
        "preview": preview,
        "action": reverse("admin:campaigns_campaign_house_rules", args=[campaign.pk]),
        "current": house_rules_current(campaign),
        "history": version_history(campaign),
    }
    return TemplateResponse(
        request, "admin/campaigns/campaign/house_rules.html", context, status=status
    )
