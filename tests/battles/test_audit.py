"""The audit re-derives every roll from the revealed seed and names any row that differs."""

from __future__ import annotations

import pytest

from battles import services
from battles.errors import BattleConflict
from battles.models import Battle
from rules.dice import CURRENT_SCHEME, HMAC_SHA256, SCHEMES, SHAKE_256
from tests.battles.conftest import Cast, finished, start_battle
from tests.consent import finish_agreed


def _processed(cast: Cast) -> Battle:
    battle = finished(cast)
    services.battle_process(battle_id=battle.pk)
    return Battle.objects.get(pk=battle.pk)


def test_every_roll_of_a_processed_battle_matches_the_revealed_seed(cast: Cast) -> None:
    battle = _processed(cast)

    report = services.battle_audit(battle=battle)

    assert report["seed_matches_hash"] and report["all_match"]
    assert len(report["ledger"]) == battle.ledger.count() > 0
    assert report["mismatched"] == []


def test_a_tampered_ledger_row_is_reported_by_id(cast: Cast) -> None:
    battle = _processed(cast)
    row = battle.ledger.order_by("pk").first()
    forged = [{**row.dice[0], "value": 1 if row.dice[0]["value"] != 1 else 2}, *row.dice[1:]]
    type(row).objects.filter(pk=row.pk).update(dice=forged)

    report = services.battle_audit(battle=battle)

    assert report["all_match"] is False
    assert report["mismatched"] == [row.pk]


def test_a_deleted_ledger_row_is_reported_missing(cast: Cast) -> None:
    battle = _processed(cast)
    row = battle.ledger.order_by("pk").first()
    row.delete()

    report = services.battle_audit(battle=battle)

    missing = [r for r in report["ledger"] if r.get("missing")]
    assert [(r["procedure"], r["index"]) for r in missing] == [(row.procedure, row.index)]


def test_the_audit_waits_until_the_seed_is_revealed(cast: Cast) -> None:
    battle = finished(cast)

    with pytest.raises(BattleConflict, match="revealed"):
        services.battle_audit(battle=battle)


def _played_with_scheme(cast: Cast, scheme: int, *, shots: int = 1) -> Battle:
    """A battle rolled at the table (`shots` fire checks) and processed with the given dice
    scheme throughout."""
    battle = start_battle(cast)
    Battle.objects.filter(pk=battle.pk).update(dice_scheme=scheme)
    battle.refresh_from_db()
    red, blue = (battle.figures.filter(side__index=i).first() for i in (0, 1))
    for _ in range(shots):
        services.battle_resolve(
            battle=battle, check="fire", actor=red.pk, target=blue.pk, params={"skill": 8}
        )
    services.battle_record_result(
        battle=battle, sides=[{"side": s.pk, "result": "DRAW"} for s in battle.sides.all()]
    )
    finish_agreed(battle)
    services.battle_process(battle_id=battle.pk)
    return Battle.objects.get(pk=battle.pk)


def test_a_new_battle_is_rolled_with_the_current_dice_scheme(cast: Cast) -> None:
    assert start_battle(cast).dice_scheme == CURRENT_SCHEME


@pytest.mark.parametrize("scheme", SCHEMES)
def test_server_rolled_events_and_the_ledger_re_derive_with_the_battles_scheme(
    cast: Cast, scheme: int
) -> None:
    battle = _played_with_scheme(cast, scheme)

    report = services.battle_audit(battle=battle)

    assert report["dice_scheme"] == scheme and report["all_match"]
    assert report["events"][0]["matches"] is True


def test_the_audit_really_uses_the_battles_scheme(cast: Cast) -> None:
    # Four shots: one d12 to hit may come out the same under either scheme (1 in 12), so a
    # single event could match by chance; four cannot all do so but once in 20,000 seeds.
    battle = _played_with_scheme(cast, HMAC_SHA256, shots=4)
    Battle.objects.filter(pk=battle.pk).update(dice_scheme=SHAKE_256)  # a forged scheme

    report = services.battle_audit(battle=Battle.objects.get(pk=battle.pk))

    assert not report["all_match"]
    assert any(event["matches"] is False for event in report["events"])
