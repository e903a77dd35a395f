"""Demo battles for `seed_demo`: one battle per demo campaign, entered after the fact, reported
by one player and confirmed by the other.

With the embedded defaults the post-battle task runs inline, so the demo club shows processed
battles with ledgers, improvements and wounds; with a broker, the worker processes them.
"""

from __future__ import annotations

from django.db import transaction

from battles.models import Battle
from battles.selectors import rules_for_battle
from battles.services import battle_confirm, battle_finish, battle_record_result, battle_start
from battles.services.results import allowed_skills, allowed_statuses
from battles.services.setup import SideChoice
from campaigns.models import Campaign
from rosters.models import Character, CharacterStatus, Force

DEMO_SCENARIO = "Demo: the fight at the ford"
WAITING_SCENARIO = "Demo: the skirmish at the mill (waiting for confirmation)"


def demo_battles_seed(*, campaigns: list[Campaign]) -> int:
    """Fight one demo battle in each campaign that has none yet; return how many were made."""
    made = 0
    for campaign in campaigns:
        forces = list(Force.objects.filter(campaign=campaign).order_by("pk")[:2])
        if len(forces) == 2 and not Battle.objects.filter(campaign=campaign).exists():
            _demo_battle(campaign, forces)
            made += 1
    return made


def _demo_battle(campaign: Campaign, forces: list[Force]) -> None:
    with transaction.atomic():
        battle = battle_start(
            sides=[SideChoice(force=force) for force in forces],
            campaign=campaign,
            scenario=DEMO_SCENARIO,
            # Fought on the campaign's current date (each demo campaign has its own period).
            campaign_date=campaign.calendar_date,
            user=forces[0].owner,
        )
        battle = battle_record_result(
            battle=battle,
            figures=demo_figure_results(battle),
            sides=_side_results(battle),
            user=forces[0].owner,
        )
        # Consent: the first player reports, the other confirms; the last agreement queues the
        # task on commit (inline with the embedded defaults, a worker otherwise).
        battle_finish(battle=battle, user=forces[0].owner)
        battle_confirm(battle=battle, user=forces[1].owner)


def demo_waiting_battle_seed(*, campaign: Campaign) -> Battle | None:
    """Report a second battle in the campaign that its other player has not confirmed yet, so
    the demo shows consent: "waiting for … to confirm", with Confirm and Dispute for him."""
    forces = list(Force.objects.filter(campaign=campaign).order_by("pk")[:2])
    done = Battle.objects.filter(campaign=campaign, scenario=WAITING_SCENARIO).first()
    if len(forces) < 2 or done is not None:
        return done
    with transaction.atomic():
        battle = battle_start(
            # The first battle's wounded are still recovering: the fit take the field.
            sides=[SideChoice(force=force, characters=_fit(force)) for force in forces],
            campaign=campaign,
            scenario=WAITING_SCENARIO,
            user=forces[0].owner,
        )
        battle = battle_record_result(
            battle=battle,
            figures=demo_figure_results(battle),
            sides=_side_results(battle),
            user=forces[0].owner,
        )
        return battle_finish(battle=battle, user=forces[0].owner)


def _fit(force: Force) -> tuple[Character, ...]:
    return tuple(force.characters.filter(status=CharacterStatus.ACTIVE).order_by("pk"))


def demo_figure_results(battle: Battle) -> list[dict[str, object]]:
    """Two winners with a kill each, two of the losers wounded (also used by the crawl test)."""
    system = rules_for_battle(battle)
    skills = list(allowed_skills(system))
    wounded = "wounded" if "wounded" in allowed_statuses(system) else allowed_statuses(system)[0]
    winners, losers = (list(battle.figures.filter(side__index=i).order_by("pk")) for i in (0, 1))
    results = [{"figure": f.pk, "skills_used": skills[:2], "kills": 1} for f in winners[:2]]
    results += [
        {"figure": f.pk, "wounds": 1, "status": wounded, "skills_used": skills[:1]}
        for f in losers[:2]
    ]
    return results


def _side_results(battle: Battle) -> list[dict[str, object]]:
    return [
        {"side": side.pk, "result": result}
        for side, result in zip(battle.sides.order_by("index"), ("WIN", "LOSS"), strict=True)
    ]
