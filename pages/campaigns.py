"""The campaign page: standings, recent battles, forces and members; links to manage it."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from campaigns.selectors import campaigns_managed_by, campaigns_visible_to
from pages.selectors import campaign_overview
from rules.system import get_system


@login_required
def campaign_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a campaign to its members; organisers also get the links to manage it."""
    campaign = get_object_or_404(campaigns_visible_to(request.user).select_related("club"), pk=pk)
    context = {
        "overview": campaign_overview(campaign),
        "campaign": campaign,
        "system": get_system(campaign.system),
        "manages": campaigns_managed_by(request.user).filter(pk=campaign.pk).exists(),
    }
    return render(request, "pages/campaign.html", context)
