"""The demo club (one finished battle per rule system, a league in progress) and a few battles
built for the chronicle's sake: a rare roll, a death."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import TestCase

from battles.demo import demo_battles_seed
from battles.models import Battle
from battles.services import (
    SideChoice,
    battle_record_result,
    battle_resolve,
    battle_start,
)
from campaigns.models import Campaign
from league.demo_season import demo_season_seed
from rosters.demo import demo_seed
from rosters.models import Force
from tests.consent import finish_agreed

#: A word a player never reads: a key with an underscore ("defender_multiple_hits").
RAW_KEY = re.compile(r"\b[A-Za-z0-9]+_[A-Za-z0-9_]+\b")


@pytest.fixture
def demo(db, settings, tmp_path, django_capture_on_commit_callbacks) -> dict[str, Campaign]:
    """Seed the demo club as `seed_demo` does, post-battle rolls and all; return its campaigns
    by system."""
    settings.VAR_DIR = tmp_path
    login = demo_seed()
    campaigns = list(Campaign.objects.filter(club__slug="demo"))
    with django_capture_on_commit_callbacks(execute=True):
        demo_battles_seed(campaigns=campaigns)
    demo_season_seed(club_slug="demo", organiser="olivia", password=login.password)
    return {c.system: c for c in campaigns}


def fight(campaign: Campaign, scenario: str) -> Battle:
    """Set up a battle between the campaign's first two forces, two months after the demo's
    (its wounded have recovered by then)."""
    forces = list(Force.objects.filter(campaign=campaign).order_by("pk")[:2])
    return battle_start(
        sides=[SideChoice(force=f) for f in forces],
        campaign=campaign,
        scenario=scenario,
        campaign_date=campaign.calendar_date + timedelta(days=61),
        user=forces[0].owner,
    )


def finish(battle: Battle, figures: list[dict[str, Any]]) -> Battle:
    """Enter the result (side 1 wins) and finish: the post-battle task runs inline."""
    sides = [
        {"side": side.pk, "result": result}
        for side, result in zip(battle.sides.order_by("index"), ("WIN", "LOSS"), strict=True)
    ]
    battle = battle_record_result(battle=battle, figures=figures, sides=sides)
    with TestCase.captureOnCommitCallbacks(execute=True):
        finish_agreed(battle)
    return Battle.objects.get(pk=battle.pk)


def rare_fight(campaign: Campaign) -> Battle:
    """An Escarmouche battle whose one logged fight ended in a 1-in-144 result (dice given)."""
    battle = fight(campaign, "The rare fight")
    attacker = battle.figures.filter(side__index=0).order_by("pk").first()
    defender = battle.figures.filter(side__index=1).order_by("pk").first()
    # Default parameters: one active die for the attacker, three defence dice. 5 against
    # 1, 1, 1 is "defender multiple hits", which the engine gives exactly 1/144.
    battle_resolve(
        battle=battle, check="fight", actor=attacker.pk, target=defender.pk, dice=[5, 1, 1, 1]
    )
    return finish(battle, [])
