"""Starting a battle: whole forces or chosen figures, extras, snapshots, who is fit to fight."""

from __future__ import annotations

from datetime import date

import pytest
from django.core.exceptions import ValidationError

from battles import services
from battles.models import Battle, BattleStatus, PostBattleRoll
from battles.services import SideChoice
from rosters.models import CharacterStatus
from rosters.services import character_update
from tests.battles.conftest import Cast, start_battle


def test_a_whole_force_takes_every_figure_fit_to_fight(cast: Cast) -> None:
    cast.red.characters.filter(name="Red 3").update(status=CharacterStatus.DEAD)

    battle = start_battle(cast)

    assert battle.status == BattleStatus.SETUP
    assert battle.figures.filter(side__index=0).count() == 2
    assert battle.campaign_date == date(1777, 9, 11)


def test_chosen_figures_and_unnamed_extras_join_the_side(cast: Cast) -> None:
    chosen = tuple(cast.red.characters.order_by("pk")[:1])
    extra = {"name": "Militiaman", "stats": {"experience": 2, "fire": 5, "melee": 5}}

    battle = services.battle_start(
        sides=[
            SideChoice(force=cast.red, characters=chosen, extras=(extra,)),
            SideChoice(force=cast.blue),
        ]
    )

    red = battle.figures.filter(side__index=0).order_by("pk")
    assert [f.name for f in red] == [chosen[0].name, "Militiaman"]
    assert red[1].character is None and red[1].stats["horsemanship"] == 4


def test_permanent_wounds_are_carried_into_the_snapshot_and_the_state(cast: Cast) -> None:
    veteran = cast.red.characters.order_by("pk").first()
    character_update(character=veteran, permanent_wounds=["left arm"])

    battle = start_battle(cast)

    figure = battle.figures.get(character=veteran)
    assert figure.stats["permanent_wounds"] == ["left arm"]
    assert figure.state["wounds"] == 1 and figure.state["status"] == "wounded"


def test_a_figure_still_recovering_on_the_battle_date_is_refused(cast: Cast) -> None:
    earlier = start_battle(cast)
    patient = cast.red.characters.order_by("pk").first()
    Battle.objects.filter(pk=earlier.pk).update(status=BattleStatus.PROCESSED)
    PostBattleRoll.objects.create(
        battle=earlier,
        character=patient,
        procedure="aftermath",
        index=0,
        outcome="permanent_0",
        result={"changes": [{"kind": "recovers_on", "after": "1777-10-11"}]},
    )
    character_update(character=patient, status=CharacterStatus.RECOVERING)

    with pytest.raises(ValidationError, match=r"Red 1 \(Red\) is recovering until 11 Oct 1777"):
        start_battle(cast)
    battle = start_battle(cast, campaign_date=date(1777, 10, 12))

    patient.refresh_from_db()
    assert patient.status == CharacterStatus.RECOVERING  # set-up changes nobody
    assert battle.figures.filter(character=patient).exists()


@pytest.mark.parametrize("problem", ["one side", "same force twice", "bad option"])
def test_a_battle_that_cannot_be_fought_is_refused(cast: Cast, problem: str) -> None:
    sides = {
        "one side": [SideChoice(force=cast.red)],
        "same force twice": [SideChoice(force=cast.red), SideChoice(force=cast.red)],
        "bad option": [SideChoice(force=cast.red), SideChoice(force=cast.blue)],
    }[problem]
    options = {"breakpoint": "9/10"} if problem == "bad option" else None

    with pytest.raises(ValidationError):
        services.battle_start(sides=sides, campaign=cast.campaign, options=options)

    assert not Battle.objects.exists()
