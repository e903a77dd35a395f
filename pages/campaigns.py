"""The campaign page: standings, my game this round, recent battles, forces and members; the
organiser's links and member actions."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from campaigns.models import Pairing
from campaigns.selectors import campaigns_managed_by, campaigns_visible_to
from pages.league import MyGame, ReportForm, initial_from, my_game, my_report
from pages.ratings import campaign_ratings_context
from pages.selectors import campaign_overview
from rules.system import get_system


@login_required
def campaign_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a campaign to its members; organisers also get the links to manage it."""
    campaign = get_object_or_404(campaigns_visible_to(request.user).select_related("club"), pk=pk)
    overview = campaign_overview(campaign)
    manages = campaigns_managed_by(request.user).filter(pk=campaign.pk).exists()
    game = my_game(overview.pairings, request.user)
    context = {
        "overview": overview,
        "campaign": campaign,
        "system": get_system(campaign.system),
        "manages": manages,
        "game": game,
        "report_form": _report_form(game),
        "ratings": campaign_ratings_context(campaign, overview.members),
    }
    if manages:
        context["waiting"] = tuple(
            campaign.join_requests.select_related("user").order_by("created_at", "pk")
        )
        context["disputed"] = Pairing.objects.filter(
            round__campaign_id=campaign.pk, disputed=True
        ).count()
    return render(request, "pages/campaign.html", context)


def _report_form(game: MyGame | None) -> ReportForm | None:
    if game is None or not game.open:
        return None
    report = my_report(game)
    initial = {**initial_from(game), "link": getattr(report, "link", "")}
    initial["text"] = getattr(report, "text", "")
    return ReportForm(game=game, initial=initial)
