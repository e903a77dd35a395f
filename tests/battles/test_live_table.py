"""The live table's log: each player acts for their own figures, the log is one hash chain,
a tampered event is named by the audit, and two phones acting at once keep one order.

alice plays Red, bob plays Blue, olivia organises the campaign (see conftest).
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, connections

from battles import services
from battles.chain import GENESIS, chain_breaks, chain_head, event_hash
from battles.models import Battle, BattleEvent
from tests.battles.conftest import Cast, make_cast, start_battle
from tests.consent import finish_agreed


def _figures(battle: Battle) -> tuple[Any, Any]:
    red = battle.figures.filter(side__index=0).order_by("pk").first()
    blue = battle.figures.filter(side__index=1).order_by("pk").first()
    return red, blue


def _fire(battle: Battle, actor: Any, target: Any, user: Any = None, key: str = "") -> BattleEvent:
    return services.battle_resolve(
        battle=battle,
        check="fire",
        actor=actor.pk,
        target=target.pk,
        params={"skill": 9},
        user=user,
        key=key,
    )


def test_on_their_own_phones_bob_cannot_act_for_alices_figure(cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    red, blue = _figures(battle)

    with pytest.raises(ValidationError, match=f"{red.name} is alice's figure"):
        _fire(battle, red, blue, user=cast.bob)

    assert battle.events.count() == 0


def test_on_their_own_phones_each_acts_for_their_own_and_the_organiser_for_anyone(
    cast: Cast,
) -> None:
    battle = start_battle(cast, one_phone=False)
    red, blue = _figures(battle)

    _fire(battle, red, blue, user=cast.alice)
    _fire(battle, blue, red, user=cast.bob)
    _fire(battle, red, blue, user=cast.olivia)

    assert battle.events.count() == 3


def test_bob_cannot_void_alices_event_on_their_own_phones(cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    red, blue = _figures(battle)
    _fire(battle, red, blue, user=cast.alice)

    with pytest.raises(ValidationError, match="alice's figure"):
        services.battle_void_last(battle=battle, user=cast.bob)

    assert not battle.events.get(seq=1).voided


def test_one_phone_mode_lets_either_player_tap_for_both_sides(cast: Cast) -> None:
    battle = start_battle(cast)  # one phone: the default, and every older battle's mode
    red, blue = _figures(battle)

    _fire(battle, red, blue, user=cast.bob)

    assert battle.one_phone and battle.events.count() == 1


def test_an_action_sent_again_by_the_other_phone_is_applied_once(cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    red, blue = _figures(battle)

    first = _fire(battle, red, blue, user=cast.alice, key="tap-7")
    again = _fire(battle, red, blue, user=cast.alice, key="tap-7")
    from_bob = _fire(battle, red, blue, user=cast.bob, key="tap-7")  # replayed elsewhere

    assert first.pk == again.pk == from_bob.pk
    assert battle.events.count() == 1


def test_every_event_links_to_the_one_before_and_the_battle_keeps_the_head(cast: Cast) -> None:
    battle = start_battle(cast)
    red, blue = _figures(battle)
    services.battle_activation_start(battle=battle, method="cards")
    _fire(battle, red, blue)
    services.battle_void_last(battle=battle)

    battle.refresh_from_db()
    log = list(battle.events.order_by("seq"))
    assert [e.kind for e in log] == ["ACTIVATION", "CHECK", "VOID"]
    assert log[0].prev_hash == GENESIS
    assert log[1].prev_hash == event_hash(log[0], log[0].prev_hash)
    assert battle.log_head == chain_head(log)
    assert chain_breaks(log, battle.log_head) == []


def _tamper(event: BattleEvent, **changes: Any) -> None:
    """Rewrite an event behind the application's back (the append-only trigger dropped first,
    as someone with the database in hand could); the test's transaction puts it back."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("DROP TRIGGER battle_event_append_only ON battles_battleevent")
        else:
            cursor.execute("DROP TRIGGER battle_event_append_only")
    BattleEvent.objects.filter(pk=event.pk).update(**changes)


def _processed_with_events(cast: Cast) -> Battle:
    battle = start_battle(cast)
    red, blue = _figures(battle)
    for _ in range(3):
        _fire(battle, red, blue)
    sides = [
        {"side": s.pk, "result": r}
        for s, r in zip(battle.sides.order_by("index"), ("WIN", "LOSS"), strict=True)
    ]
    services.battle_record_result(battle=battle, sides=sides)
    finish_agreed(battle)
    services.battle_process(battle_id=battle.pk)
    return Battle.objects.get(pk=battle.pk)


def test_the_audit_checks_the_chain_and_shows_its_head(cast: Cast) -> None:
    battle = _processed_with_events(cast)

    report = services.battle_audit(battle=battle)

    assert report["chain"]["intact"] and report["all_match"]
    assert report["chain"]["head"] == battle.log_head and len(battle.log_head) == 64


def test_a_tampered_event_breaks_the_chain_and_the_audit_names_it(cast: Cast) -> None:
    battle = _processed_with_events(cast)
    second = battle.events.get(seq=2)
    _tamper(second, outcome="miss" if second.outcome != "miss" else "hit")

    report = services.battle_audit(battle=battle)

    assert report["all_match"] is False
    assert report["chain"]["first_bad_event"] == 2
    assert report["chain"]["problem"] == "event #2: changed after it was logged"


def test_tampering_with_the_newest_event_is_caught_by_the_head(cast: Cast) -> None:
    battle = _processed_with_events(cast)
    _tamper(battle.events.get(seq=3), details={"forged": True})

    report = services.battle_audit(battle=battle)

    assert report["chain"]["first_bad_event"] == 3


@pytest.mark.django_db(transaction=True)
def test_two_phones_acting_at_once_keep_one_log_order() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs row locks across connections: run with DATABASE_URL=postgres://...")
    cast = make_cast()
    battle = start_battle(cast, one_phone=False)
    red, blue = _figures(battle)
    start = threading.Barrier(2)
    problems: list[BaseException] = []

    def phone(user: Any, actor: Any, target: Any) -> None:
        try:
            start.wait()
            for i in range(8):
                _fire(battle, actor, target, user=user, key=f"{user.username}-{i}")
        except BaseException as exc:  # reported below, in the test's own thread
            problems.append(exc)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=phone, args=(cast.alice, red, blue)),
        threading.Thread(target=phone, args=(cast.bob, blue, red)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    battle.refresh_from_db()
    log = list(battle.events.order_by("seq"))
    assert problems == []
    assert [e.seq for e in log] == list(range(1, 17))
    assert chain_breaks(log, battle.log_head) == []


def test_the_after_page_shows_the_chain_head_and_that_it_holds(client, cast: Cast) -> None:
    battle = _processed_with_events(cast)
    client.force_login(cast.alice)

    html = client.get(f"/battles/{battle.pk}/after/").content.decode()

    assert battle.log_head in html and 'data-testid="chain-ok"' in html


def test_a_log_exported_before_the_hash_chain_is_linked_on_import(cast: Cast) -> None:
    from campaign_backup.campaign import campaign_export, campaign_import

    battle = _processed_with_events(cast)
    document = campaign_export(campaign=cast.campaign)
    for exported in document["battles"]:
        del exported["log_head"]
        for event in exported["events"]:
            del event["prev_hash"]

    restored = campaign_import(document=document, club_slug="restored").battles.get()
    report = services.battle_audit(battle=restored)

    # The same events in the same order: the same chain, whatever their new ids.
    assert report["chain"]["intact"] and restored.log_head == battle.log_head
