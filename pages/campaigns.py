"""The campaign page: standings, my game this round, recent battles, forces and members; the
organiser's links and member actions."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import NoReverseMatch, reverse

from campaigns.models import Campaign, HouseRules
from campaigns.selectors import campaigns_managed_by, campaigns_visible_to
from campaigns.services.house_rules import house_rules_changes, house_rules_versions
from common.users import Visitor
from league.models import Pairing
from pages.league import MyGame, ReportForm, initial_from, my_game, my_open_games, my_report
from pages.ratings import campaign_ratings_context
from pages.selectors import campaign_overview
from rules.system import get_system


@login_required
def campaign_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a campaign to its members; organisers also get the links to manage it."""
    campaign = get_object_or_404(campaigns_visible_to(request.user).select_related("club"), pk=pk)
    overview = campaign_overview(campaign)
    manages = campaigns_managed_by(request.user).filter(pk=campaign.pk).exists()
    context = {
        "overview": overview,
        "campaign": campaign,
        "system": get_system(campaign.system),
        "manages": manages,
        "games": _games(campaign, overview.pairings, request.user),
        "ratings": campaign_ratings_context(campaign, overview.members),
        "house": campaign_house_rules(campaign, manages=manages),
    }
    if manages:
        context["waiting"] = tuple(
            campaign.join_requests.select_related("user").order_by("created_at", "pk")
        )
        context["disputed"] = Pairing.objects.filter(
            round__campaign_id=campaign.pk, disputed=True
        ).count()
    return render(request, "pages/campaign.html", context)


def _games(
    campaign: Campaign, pairings: tuple[Pairing, ...], user: Visitor
) -> list[tuple[MyGame, ReportForm | None]]:
    """The player's game in every open round, each with its report form; with no round open,
    their game in the current round (to show how it ended)."""
    games = list(my_open_games(campaign, user)) if user.is_authenticated else []
    if not games:
        game = my_game(pairings, user)
        games = [game] if game is not None else []
    return [(game, _report_form(game)) for game in games]


def _report_form(game: MyGame | None) -> ReportForm | None:
    if game is None or not game.open:
        return None
    report = my_report(game)
    initial = {**initial_from(game), "link": getattr(report, "link", "")}
    initial["text"] = getattr(report, "text", "")
    # Several games on one page (two rounds open): each form's ids are its own.
    return ReportForm(game=game, initial=initial, auto_id=f"id_{game.pairing.pk}_%s")


#: Changes from the rules as written the campaign page lists before "and N more".
HOUSE_CHANGES_SHOWN = 8


@dataclass(frozen=True)
class HouseRulesSummary:
    """What the campaign page says of the house rules: the version, what it changes, links."""

    current: HouseRules | None
    from_written: tuple[str, ...]
    more: int
    since_previous: tuple[str, ...]
    previous: HouseRules | None
    editor_url: str


def campaign_house_rules(campaign: Campaign, *, manages: bool) -> HouseRulesSummary | None:
    """The house rules the campaign plays (None when its system has no editable tables)."""
    system = get_system(campaign.system)
    if system.house is None:
        return None
    versions = list(house_rules_versions(campaign)[:2])
    current = versions[0] if versions else None
    previous = versions[1] if len(versions) > 1 else None
    changed = house_rules_changes(campaign, None, current) if current else []
    return HouseRulesSummary(
        current=current,
        from_written=tuple(changed[:HOUSE_CHANGES_SHOWN]),
        more=max(len(changed) - HOUSE_CHANGES_SHOWN, 0),
        since_previous=tuple(house_rules_changes(campaign, previous, current)) if previous else (),
        previous=previous,
        editor_url=_editor_url(campaign) if manages else "",
    )


def _editor_url(campaign: Campaign) -> str:
    # The organiser's editor page is its own module (pages: campaign-house-rules); until it
    # is routed, the campaign page offers no link rather than a broken one.
    try:
        return reverse("campaign-house-rules", args=[campaign.pk])
    except NoReverseMatch:
        return ""
