"""The character page: the career — stats, equipment, wounds, timeline and stats over time."""

from __future__ import annotations

import pytest

from battles.services import SideChoice, battle_record_result, battle_start
from battles.services.pipeline import battle_process
from rosters.services import character_update
from tests.consent import finish_agreed

pytestmark = pytest.mark.django_db


def _fought(muster, django_capture_on_commit_callbacks):
    battle = battle_start(
        sides=[SideChoice(force=muster.red), SideChoice(force=muster.blue)],
        campaign=muster.campaign,
        scenario="Cooch's Bridge",
    )
    sides = list(battle.sides.order_by("index"))
    battle_record_result(
        battle=battle,
        sides=[{"side": sides[0].pk, "result": "WIN"}, {"side": sides[1].pk, "result": "LOSS"}],
    )
    with django_capture_on_commit_callbacks(execute=False):
        finish_agreed(battle)
    battle_process(battle_id=battle.pk)
    return battle


def test_the_career_shows_the_stat_line_and_equipment(client, muster):
    character = muster.red.characters.get(name="Red man 1")
    client.force_login(muster.alice)

    html = client.get(f"/characters/{character.pk}/").content.decode()

    assert "F 6 M 7" in html
    assert "Flintlock musket" in html


def test_a_processed_battle_appears_on_the_timeline(
    client, muster, django_capture_on_commit_callbacks
):
    character = muster.red.characters.get(name="Red man 1")
    battle = _fought(muster, django_capture_on_commit_callbacks)
    client.force_login(muster.alice)

    html = client.get(f"/characters/{character.pk}/").content.decode()

    assert "Fought in Cooch&#x27;s Bridge" in html
    assert f'href="/battles/{battle.pk}/"' in html


def test_a_hand_edit_shows_before_and_after_and_draws_a_stat_chart(client, muster):
    character = muster.red.characters.get(name="Red man 1")
    character_update(character=character, user=muster.alice, stats={"fire": 9}, note="drill")
    client.force_login(muster.alice)

    html = client.get(f"/characters/{character.pk}/").content.decode()

    assert "<del>6</del> → <ins>9</ins>" in html
    assert '<svg class="chart chart--steps"' in html


def test_another_player_in_the_campaign_reads_the_career(client, muster):
    character = muster.red.characters.get(name="Red man 1")
    client.force_login(muster.bob)

    assert client.get(f"/characters/{character.pk}/").status_code == 200


def test_a_stranger_cannot_read_the_career(client, muster):
    character = muster.red.characters.get(name="Red man 1")
    client.force_login(muster.charlie)

    assert client.get(f"/characters/{character.pk}/").status_code == 404


@pytest.mark.parametrize("edits", [1, 15])
def test_the_career_costs_the_same_queries_however_long_the_record(
    client, muster, django_assert_num_queries, edits
):
    character = muster.red.characters.get(name="Red man 1")
    for n in range(edits):
        character_update(character=character, user=muster.alice, stats={"fire": 6 + n % 6})
    client.force_login(muster.alice)
    client.get(f"/characters/{character.pk}/")

    with django_assert_num_queries(CAREER_QUERIES):
        client.get(f"/characters/{character.pk}/")


#: session, user, character, service record, battles fought, post-battle rolls, the campaign's
#: house-rules version (the stats read under it).
CAREER_QUERIES = 7
