"""Setting up a battle: who may fight is clear before anyone is refused."""

from __future__ import annotations

import pytest

from battles.models import Battle, BattleStatus, PostBattleRoll
from battles.services import SideChoice, battle_start
from rosters.models import CharacterStatus
from rosters.services import character_update

pytestmark = pytest.mark.django_db


def _wounded_in_an_earlier_battle(muster, character, heals: str) -> None:
    earlier = Battle.objects.filter(status=BattleStatus.PROCESSED).first()
    if earlier is None:
        earlier = battle_start(sides=[SideChoice(force=muster.red), SideChoice(force=muster.blue)])
        Battle.objects.filter(pk=earlier.pk).update(status=BattleStatus.PROCESSED)
    PostBattleRoll.objects.create(
        battle=earlier,
        character=character,
        procedure="aftermath",
        index=0,
        outcome="heals",
        result={"changes": [{"kind": "recovers_on", "after": heals}]},
    )
    character_update(character=character, status=CharacterStatus.RECOVERING)


def _setup(client, muster, **extra):
    query = {"campaign": muster.campaign.pk, "side1": muster.red.pk, "side2": muster.blue.pk}
    return client.get("/battles/new/", {**query, **extra}).content.decode()


def test_a_recovering_figure_is_unticked_and_greyed_with_the_date_he_heals(client, muster):
    patient = muster.red.characters.get(name="Red man 1")
    _wounded_in_an_earlier_battle(muster, patient, "1777-10-11")
    client.force_login(muster.alice)

    html = _setup(client, muster)

    assert f'id="characters1-{patient.pk}" disabled' in html
    assert "recovering until 11 Oct 1777" in html
    assert f'value="{patient.pk}" checked' not in html


def test_a_recovering_figure_healed_by_the_battle_date_may_fight(client, muster):
    patient = muster.red.characters.get(name="Red man 1")
    _wounded_in_an_earlier_battle(muster, patient, "1777-10-11")
    client.force_login(muster.alice)

    html = _setup(client, muster, campaign_date="1777-10-12")

    assert f'value="{patient.pk}" checked' in html
    assert "healed by 11 Oct 1777" in html


def test_the_dead_are_greyed_with_the_date_they_died(client, muster):
    fallen = muster.red.characters.get(name="Red man 2")
    character_update(character=fallen, status=CharacterStatus.DEAD)
    client.force_login(muster.alice)

    html = _setup(client, muster)

    assert f'id="characters1-{fallen.pk}" disabled' in html
    assert "dead since" in html


def test_forces_are_listed_with_their_system_and_campaign(client, muster):
    client.force_login(muster.alice)

    html = _setup(client, muster)

    assert "Red — Rencounter — Brandywine" in html
    assert "Blue (bob) — Rencounter — Brandywine" in html


def test_the_campaign_date_defaults_to_the_campaigns_current_date(client, muster):
    client.force_login(muster.alice)

    html = _setup(client, muster)

    assert 'name="campaign_date"' in html and 'value="1777-09-11"' in html


def test_every_refused_figure_is_named_with_his_force(client, muster):
    patients = list(muster.red.characters.order_by("pk")[:2])
    for patient in patients:
        _wounded_in_an_earlier_battle(muster, patient, "1777-10-11")
    client.force_login(muster.alice)

    response = client.post(
        "/battles/new/",
        {
            "campaign": muster.campaign.pk,
            "side1": muster.red.pk,
            "side2": muster.blue.pk,
            "characters1": [p.pk for p in patients],
            "characters2": [c.pk for c in muster.blue.characters.all()],
            "campaign_date": "1777-09-11",
        },
    )

    assert response.status_code == 400
    html = response.content.decode()
    for patient in patients:
        assert f"{patient.name} (Red) is recovering until 11 Oct 1777" in html
