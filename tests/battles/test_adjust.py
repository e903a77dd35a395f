"""Quick adjustments: a wound, hit or marker added or taken off by hand is an event in the log
(who, why), voidable like any other, listed by the audit, and read by the next check.

alice plays Red against bob's Blue (tests/battles/conftest.py); eve is a stranger.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import TestCase

from battles import services
from battles.chain import chain_breaks
from battles.models import Battle, BattleEvent, EventKind
from battles.words import event_sentence
from tests.consent import finish_agreed


def _red(battle: Battle) -> Any:
    return battle.figures.filter(side__index=0).order_by("pk").first()


def test_a_wound_added_by_hand_is_logged_with_who_and_why(battle: Battle, cast: Any) -> None:
    red = _red(battle)

    event = services.battle_adjust(
        battle=battle,
        figure=red.pk,
        state_key="wounds",
        change="add",
        reason="the grenade we forgot",
        user=cast.alice,
    )

    red.refresh_from_db()
    assert red.state["wounds"] == 1
    assert event.kind == EventKind.ADJUSTMENT
    assert event.created_by == cast.alice
    assert event.state_before["figures"][str(red.pk)]["state"]["wounds"] == 0
    sentence = event_sentence("rencounter", event)
    assert sentence == f"{red.name}: one wound point added by hand (alice: the grenade we forgot)."


def test_an_adjustment_is_voided_like_any_event(battle: Battle) -> None:
    red = _red(battle)
    services.battle_adjust(battle=battle, figure=red.pk, state_key="down", change="add")
    assert battle.figures.get(pk=red.pk).state["down"] is True

    voided = services.battle_void_last(battle=battle)

    assert voided.kind == EventKind.ADJUSTMENT and voided.voided
    assert battle.figures.get(pk=red.pk).state["down"] is False


def test_the_audit_lists_an_adjustment_as_made_by_hand(battle: Battle, cast: Any) -> None:
    red = _red(battle)
    services.battle_adjust(
        battle=battle, figure=red.pk, state_key="wounds", change="add", user=cast.alice
    )
    sides = [
        {"side": s.pk, "result": r}
        for s, r in zip(battle.sides.order_by("index"), ("WIN", "LOSS"), strict=True)
    ]
    services.battle_record_result(battle=battle, sides=sides)
    with TestCase.captureOnCommitCallbacks(execute=True):
        finish_agreed(battle)

    audit = services.battle_audit(battle=Battle.objects.get(pk=battle.pk))

    (row,) = audit["events"]
    assert row["matches"] is None
    assert row["note"] == "adjusted by hand by alice: no dice"


def test_an_adjustment_and_its_void_are_links_of_the_chain_the_audit_checks(
    battle: Battle, cast: Any
) -> None:
    red = _red(battle)
    blue = battle.figures.filter(side__index=1).order_by("pk").first()
    services.battle_adjust(
        battle=battle, figure=red.pk, state_key="wounds", change="add", user=cast.alice
    )
    services.battle_void_last(battle=battle, user=cast.alice)
    services.battle_adjust(
        battle=battle, figure=red.pk, state_key="down", change="add", reason="tripped"
    )
    services.battle_resolve(
        battle=battle, check="fire", actor=red.pk, target=blue.pk, params={"skill": 9}
    )
    sides = [
        {"side": s.pk, "result": r}
        for s, r in zip(battle.sides.order_by("index"), ("WIN", "LOSS"), strict=True)
    ]
    services.battle_record_result(battle=battle, sides=sides)
    with TestCase.captureOnCommitCallbacks(execute=True):
        finish_agreed(battle)
    battle = Battle.objects.get(pk=battle.pk)

    audit = services.battle_audit(battle=battle)

    kinds = list(battle.events.order_by("seq").values_list("kind", flat=True))
    assert kinds == [EventKind.ADJUSTMENT, EventKind.VOID, EventKind.ADJUSTMENT, EventKind.CHECK]
    assert audit["chain"]["intact"] and audit["chain"]["events"] == 4
    assert audit["chain"]["head"] == battle.log_head
    assert audit["all_match"]
    notes = [row.get("note") for row in audit["events"]]
    assert notes[:3] == [
        "adjusted by hand by alice: no dice",
        "voids event #1",
        "adjusted by hand by nobody signed in: no dice",
    ]
    assert audit["events"][0]["voided"] and audit["events"][3]["matches"] is True


def test_an_adjustment_rewritten_afterwards_breaks_the_chain(battle: Battle) -> None:
    red = _red(battle)
    for reason in ("the grenade we forgot", "and another"):
        services.battle_adjust(
            battle=battle, figure=red.pk, state_key="wounds", change="add", reason=reason
        )
    first = battle.events.get(seq=1)
    with connection.cursor() as cursor:  # as someone with the database in hand could
        cursor.execute(
            "DROP TRIGGER battle_event_append_only ON battles_battleevent"
            if connection.vendor == "postgresql"
            else "DROP TRIGGER battle_event_append_only"
        )
    BattleEvent.objects.filter(pk=first.pk).update(details={**first.details, "reason": "none"})

    battle.refresh_from_db()
    log = list(battle.events.select_related("actor", "target").order_by("seq"))
    breaks = chain_breaks(log, battle.log_head)
    assert breaks[0] == {"seq": 1, "problem": "changed after it was logged"}


def test_the_same_tap_twice_adjusts_once(battle: Battle) -> None:
    red = _red(battle)
    for _ in range(2):
        services.battle_adjust(
            battle=battle, figure=red.pk, state_key="wounds", change="add", key="k1:wounds:add"
        )

    assert battle.figures.get(pk=red.pk).state["wounds"] == 1
    assert battle.events.count() == 1


@pytest.mark.parametrize(
    ("state_key", "change", "message"),
    [
        ("wounds", "remove", "has no wound point to take off"),
        ("down", "remove", "is already not knocked down"),
        ("status", "add", "cannot be adjusted"),
        ("wounds", "double", "say add or remove"),
    ],
)
def test_a_change_that_cannot_be_made_is_refused_and_nothing_is_logged(
    battle: Battle, state_key: str, change: str, message: str
) -> None:
    red = _red(battle)

    with pytest.raises(ValidationError, match=message):
        services.battle_adjust(battle=battle, figure=red.pk, state_key=state_key, change=change)

    assert not battle.events.exists()
    assert battle.figures.get(pk=red.pk).state == red.state


def test_six_wound_points_added_by_hand_kill_but_credit_nobody(battle: Battle) -> None:
    red = _red(battle)
    for _ in range(6):
        services.battle_adjust(battle=battle, figure=red.pk, state_key="wounds", change="add")

    assert battle.figures.get(pk=red.pk).state["status"] == "dead"
    assert sum(f.kills for f in battle.figures.all()) == 0


def test_a_wound_added_by_hand_feeds_the_next_check(battle: Battle, cast: Any) -> None:
    from django.test import Client

    red = _red(battle)
    client = Client()
    client.force_login(cast.alice)

    answer = client.post(
        f"/battles/{battle.pk}/adjust/",
        {"figure": red.pk, "adjust": "wounds:add", "key": "tap-1", "reason": "forgot"},
    )

    assert answer.status_code == 302
    form = client.get(f"/battles/{battle.pk}/form/?actor={red.pk}&check=action").content.decode()
    wounds = re.search(r'<input[^>]*id="param-wounds"[^>]*>', form)
    assert wounds is not None and 'value="1"' in wounds.group(0)
    page = client.get(f"/battles/{battle.pk}/").content.decode()
    assert "one wound point added by hand (alice: forgot)" in page


def test_the_table_shows_a_button_on_each_adjustable_chip(battle: Battle, cast: Any) -> None:
    from django.test import Client

    red = _red(battle)
    services.battle_adjust(battle=battle, figure=red.pk, state_key="wounds", change="add")
    client = Client()
    client.force_login(cast.alice)

    page = client.get(f"/battles/{battle.pk}/").content.decode()

    assert 'name="adjust" value="wounds:remove"' in page
    assert 'name="adjust" value="down:add"' in page


def test_a_stranger_cannot_adjust_and_a_member_who_does_not_play_is_refused(
    battle: Battle, cast: Any
) -> None:
    from django.test import Client

    red = _red(battle)
    for user, status in ((cast.eve, 404), (cast.dave, 403)):
        client = Client()
        client.force_login(user)
        answer = client.post(
            f"/battles/{battle.pk}/adjust/", {"figure": red.pk, "adjust": "wounds:add"}
        )
        assert answer.status_code == status
    assert not battle.events.exists()
