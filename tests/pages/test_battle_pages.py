"""Battle pages: set up, the table assistant (check, typed-in dice, void), finish, the aftermath."""

from __future__ import annotations

import re

import pytest

from battles.models import Battle, BattleEvent, BattleStatus
from battles.services import SideChoice, battle_start
from tests.pages.conftest import make_muster

pytestmark = pytest.mark.django_db


def _battle(muster) -> Battle:
    return battle_start(
        sides=[SideChoice(force=muster.red), SideChoice(force=muster.blue)],
        campaign=muster.campaign,
        scenario="Ford at Chadd's",
        user=muster.alice,
    )


def _figure(battle: Battle, name: str):
    return battle.figures.get(name=name)


def _fire(battle, actor, target, **extra):
    return {
        "actor": actor.pk,
        "check": "fire",
        "against": target.pk,
        "skill": "7",
        "modifier": "0",
        "damage_modifier": "0",
        "weapon": "none",
        "range": "short",
        "shots": "1",
        "target_armour": "0",
        "target_shield": "none",
        "cover": "none",
        **extra,
    }


def test_setting_up_a_battle_starts_it_with_the_ticked_figures(client, muster):
    client.force_login(muster.alice)
    red = list(muster.red.characters.order_by("pk"))

    response = client.post(
        "/battles/new/",
        {
            "campaign": muster.campaign.pk,
            "side1": muster.red.pk,
            "side2": muster.blue.pk,
            "characters1": [red[0].pk],
            "characters2": [c.pk for c in muster.blue.characters.all()],
            "scenario": "Ford at Chadd's",
            "campaign_date": "1777-09-11",
        },
    )

    battle = Battle.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/battles/{battle.pk}/"
    assert list(battle.figures.filter(side__index=0).values_list("name", flat=True)) == [
        red[0].name
    ]
    assert battle.campaign_date.isoformat() == "1777-09-11"


def test_setting_up_without_an_opponent_is_refused_in_place(client, muster):
    client.force_login(muster.alice)

    response = client.post(
        "/battles/new/", {"campaign": muster.campaign.pk, "side1": muster.red.pk}
    )

    assert response.status_code == 400
    assert "choose a force for each side" in response.content.decode()
    assert not Battle.objects.exists()


def test_the_setup_form_lists_the_chosen_forces_figures(client, muster):
    client.force_login(muster.alice)

    html = client.get(
        "/battles/new/",
        {"campaign": muster.campaign.pk, "side1": muster.red.pk, "side2": muster.blue.pk},
    ).content.decode()

    assert 'name="characters1"' in html and 'name="characters2"' in html
    assert "Blue man 1" in html


def test_the_table_shows_figures_by_side_and_the_seed_hash(client, muster):
    battle = _battle(muster)
    client.force_login(muster.alice)

    html = client.get(f"/battles/{battle.pk}/").content.decode()

    assert "Red (side 1)" in html and "Blue (side 2)" in html
    assert battle.seed_sha256 in html
    assert battle.seed not in html


def test_the_table_links_the_game_night_packet_and_it_prints(client, muster):
    battle = _battle(muster)
    client.force_login(muster.alice)

    html = client.get(f"/battles/{battle.pk}/").content.decode()
    packet = client.get(f"/api/battles/{battle.pk}/packet.pdf")

    assert f'href="/api/battles/{battle.pk}/packet.pdf"' in html
    assert packet.status_code == 200 and packet.content.startswith(b"%PDF-")


def test_the_check_form_is_filled_from_the_actor_and_target(client, muster):
    battle = _battle(muster)
    actor, target = _figure(battle, "Red man 2"), _figure(battle, "Blue man 1")
    client.force_login(muster.alice)

    html = client.get(
        f"/battles/{battle.pk}/form/", {"actor": actor.pk, "check": "fire", "against": target.pk}
    ).content.decode()

    assert 'name="skill" value="7"' in html  # Red man 2's fire skill
    assert 'name="target_armour" value="1"' in html  # Blue man 1's armour
    assert 'data-outcome="miss"' in html  # the odds before rolling


def test_the_odds_preview_matches_the_engine(client, muster):
    from rules.system import get_system

    battle = _battle(muster)
    client.force_login(muster.alice)
    expected = get_system("rencounter").check("fire").odds({"skill": 9}).as_json()["exact"]

    html = client.get(
        f"/battles/{battle.pk}/odds/",
        _fire(battle, _figure(battle, "Red man 1"), _figure(battle, "Blue man 1"), skill="9"),
    ).content.decode()

    for key, fraction in expected.items():
        assert f'data-outcome="{key}"' in html and f'data-exact="{fraction}"' in html


def test_resolving_a_check_logs_the_event_and_keeps_the_choice(client, muster):
    battle = _battle(muster)
    actor, target = _figure(battle, "Red man 1"), _figure(battle, "Blue man 1")
    client.force_login(muster.alice)

    response = client.post(f"/battles/{battle.pk}/check/", _fire(battle, actor, target))

    event = BattleEvent.objects.get()
    assert response.status_code == 302
    assert f"actor={actor.pk}" in response["Location"]
    assert (event.actor, event.target, event.check_name) == (actor, target, "fire")
    assert not event.dice_given


def test_typed_in_dice_are_used_as_given(client, muster):
    battle = _battle(muster)
    actor, target = _figure(battle, "Red man 1"), _figure(battle, "Blue man 1")
    client.force_login(muster.alice)

    client.post(
        f"/battles/{battle.pk}/check/", _fire(battle, actor, target, dice_mode="given", dice="12")
    )

    event = BattleEvent.objects.get()
    assert event.dice_given and event.outcome == "miss"
    assert [d["value"] for d in event.dice] == [12]


def test_too_few_typed_in_dice_are_refused_in_place(client, muster):
    battle = _battle(muster)
    actor, target = _figure(battle, "Red man 1"), _figure(battle, "Blue man 1")
    client.force_login(muster.alice)

    response = client.post(
        f"/battles/{battle.pk}/check/", _fire(battle, actor, target, dice_mode="given", dice="1")
    )

    assert response.status_code == 400
    assert 'role="alert" id="problems"' in response.content.decode()
    assert not BattleEvent.objects.exists()


def test_an_out_of_range_parameter_is_marked_next_to_its_field(client, muster):
    battle = _battle(muster)
    actor, target = _figure(battle, "Red man 1"), _figure(battle, "Blue man 1")
    client.force_login(muster.alice)

    response = client.post(f"/battles/{battle.pk}/check/", _fire(battle, actor, target, skill="40"))

    assert response.status_code == 400
    assert 'id="param-skill-error">Must be at most 12, not 40.' in response.content.decode()
    assert not BattleEvent.objects.exists()


def test_voiding_the_last_event_keeps_it_in_the_log(client, muster):
    battle = _battle(muster)
    actor, target = _figure(battle, "Red man 1"), _figure(battle, "Blue man 1")
    client.force_login(muster.alice)
    client.post(f"/battles/{battle.pk}/check/", _fire(battle, actor, target))

    client.post(f"/battles/{battle.pk}/void/")

    html = client.get(f"/battles/{battle.pk}/").content.decode()
    assert BattleEvent.objects.get(seq=1).voided
    assert "is-voided" in html
    assert "Event #1 voided" in html  # the void is an event of its own


def test_drawing_an_activation_shows_what_was_drawn(client, muster):
    battle = _battle(muster)
    client.force_login(muster.alice)
    client.post(f"/battles/{battle.pk}/activation/", {"method": "dice_counters"})

    client.post(f"/battles/{battle.pk}/draw/")

    html = client.get(f"/battles/{battle.pk}/").content.decode()
    assert 'data-testid="activation"' in html
    assert re.search(r"(Red|Blue) unit \d \(side \d\) activates", html)
    assert "activation.draw" not in html


def test_finishing_runs_the_post_battle_rolls_and_shows_the_audit(
    client, muster, django_capture_on_commit_callbacks
):
    battle = _battle(muster)
    client.force_login(muster.alice)
    sides = list(battle.sides.order_by("index"))
    client.post(
        f"/battles/{battle.pk}/result/",
        {f"result-{sides[0].pk}": "WIN", f"vp-{sides[0].pk}": "3", f"result-{sides[1].pk}": "LOSS"},
    )

    reported = client.post(f"/battles/{battle.pk}/finish/")
    waiting = client.get(reported["Location"]).content.decode()
    client.force_login(muster.bob)  # the other side confirms on his own phone
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/battles/{battle.pk}/confirm/")

    battle.refresh_from_db()
    html = client.get(response["Location"]).content.decode()
    assert "Waiting for bob (Blue) to confirm" in waiting
    assert battle.status == BattleStatus.PROCESSED
    assert battle.seed in html
    assert 'data-testid="audit-ok"' in html


def test_finishing_before_the_result_is_entered_is_refused(client, muster):
    battle = _battle(muster)
    client.force_login(muster.alice)

    response = client.post(f"/battles/{battle.pk}/finish/")

    battle.refresh_from_db()
    assert response.status_code == 400
    assert "enter a result for Red, Blue" in response.content.decode()
    assert battle.status == BattleStatus.SETUP


def test_a_member_who_does_not_play_reads_the_table_but_cannot_roll(client, muster):
    battle = _battle(muster)
    outsider = muster.charlie
    from campaigns.models import Role
    from tests.factories import MembershipFactory

    MembershipFactory(user=outsider, campaign=muster.campaign, role=Role.PLAYER)
    client.force_login(outsider)
    actor, target = _figure(battle, "Red man 1"), _figure(battle, "Blue man 1")

    html = client.get(f"/battles/{battle.pk}/").content.decode()
    response = client.post(f"/battles/{battle.pk}/check/", _fire(battle, actor, target))

    assert 'id="check-form"' not in html
    assert response.status_code == 403
    assert not BattleEvent.objects.exists()


def test_a_stranger_cannot_see_the_battle(client, muster):
    battle = _battle(muster)
    client.force_login(muster.charlie)

    assert client.get(f"/battles/{battle.pk}/").status_code == 404


@pytest.mark.parametrize("size", [2, 20])
def test_the_table_costs_the_same_queries_at_any_roster_size(
    client, django_assert_num_queries, size
):
    muster = make_muster(size=size)
    battle = _battle(muster)
    client.force_login(muster.alice)
    client.get(f"/battles/{battle.pk}/")

    with django_assert_num_queries(TABLE_QUERIES):
        client.get(f"/battles/{battle.pk}/")


@pytest.mark.parametrize("size", [2, 20])
def test_the_after_page_costs_the_same_queries_at_any_battle_size(
    client, django_assert_num_queries, django_capture_on_commit_callbacks, size
):
    muster = make_muster(size=size)
    battle = _battle(muster)
    client.force_login(muster.alice)
    sides = list(battle.sides.order_by("index"))
    client.post(
        f"/battles/{battle.pk}/result/",
        {f"result-{sides[0].pk}": "DRAW", f"result-{sides[1].pk}": "DRAW"},
    )
    client.post(f"/battles/{battle.pk}/finish/")
    client.force_login(muster.bob)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/battles/{battle.pk}/confirm/")
    client.get(f"/battles/{battle.pk}/after/")

    with django_assert_num_queries(AFTER_QUERIES):
        client.get(f"/battles/{battle.pk}/after/")


#: session, user, battle, its sides, audit (figures, ledger, events), the ledger to show,
#: the figures for the per-side report and the event log in words.
AFTER_QUERIES = 10


#: session, user, the battle (with who the user is to it: `battles.selectors.with_access`), its
#: sides (with their players), figures, events. Was 7 with a query of its own for "may the user
#: play?"; the battle's own query answers it now.
TABLE_QUERIES = 6
#: A check posted by htmx and answered with the table in one round trip (it was a redirect and
#: a table page: 26 queries in bench/club_night.py --costs): user, the battle (with access),
#: its sides' owners; `battle_resolve`'s 8 (savepoint, the battle locked, its sides with the
#: next number and the key's event, figures, the changed figure, event, the battle's head,
#: release); then the events to show. The battle, its sides and figures are drawn as the
#: service left them, locked and changed in place (`pages.battles._seated`; 15 when they were
#: read again).
ACTION_QUERIES = 12
