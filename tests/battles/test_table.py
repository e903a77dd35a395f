"""The table assistant: seeded and typed-in dice, effects, voiding, activation, breakpoint."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from battles import services
from battles.models import Battle, BattleStatus
from battles.services.table import event_dice
from rules.systems.rencounter.activation import RESHUFFLE
from tests.battles.conftest import Cast, start_battle


def _pair(battle: Battle) -> tuple[int, int]:
    red = battle.figures.filter(side__index=0).order_by("pk").first()
    blue = battle.figures.filter(side__index=1).order_by("pk").first()
    return red.pk, blue.pk


def test_server_dice_come_from_the_battle_seed_and_the_event_number(battle: Battle) -> None:
    red, blue = _pair(battle)

    event = services.battle_resolve(
        battle=battle, check="fire", actor=red, target=blue, params={"skill": 9}
    )

    expected = event_dice(battle, 1)
    assert [d["value"] for d in event.dice] == [expected.roll(12) for _ in event.dice]
    assert event.seq == 1 and not event.dice_given


def test_typed_in_dice_decide_the_outcome_and_wound_the_target(battle: Battle) -> None:
    red, blue = _pair(battle)

    # attack 1 against 7 is a good hit, parry 12 fails, damage 9 - 2 = 7: serious
    event = services.battle_resolve(
        battle=battle,
        check="melee",
        actor=red,
        target=blue,
        params={"attack_skill": 7, "parry_skill": 7},
        dice=[1, 12, 9],
    )

    target = battle.figures.get(pk=blue)
    assert event.outcome == "hit" and event.dice_given
    assert target.state["wounds"] == 2 and target.state["down"] is True
    assert battle.figures.get(pk=red).skills_used == ["melee"]
    assert Battle.objects.get(pk=battle.pk).status == BattleStatus.IN_PROGRESS


def test_wound_points_that_add_up_to_six_kill_and_count_as_a_kill(battle: Battle) -> None:
    red, blue = _pair(battle)
    target = battle.figures.get(pk=blue)
    target.state = {**target.state, "wounds": 4, "status": "wounded"}
    target.save(update_fields=["state"])

    # the same serious hit as above (2 points) brings him to six: dead, whatever the hit alone
    services.battle_resolve(
        battle=battle,
        check="melee",
        actor=red,
        target=blue,
        params={"attack_skill": 7, "parry_skill": 7},
        dice=[1, 12, 9],
    )

    assert battle.figures.get(pk=blue).state["status"] == "dead"
    assert battle.figures.get(pk=red).kills == 1


def test_voiding_the_last_event_restores_the_state_and_keeps_the_event(battle: Battle) -> None:
    red, blue = _pair(battle)
    before = battle.figures.get(pk=blue).state
    services.battle_resolve(
        battle=battle,
        check="melee",
        actor=red,
        target=blue,
        params={"attack_skill": 7, "parry_skill": 7},
        dice=[1, 12, 9],
    )

    voided = services.battle_void_last(battle=battle)

    # The event stays; the void is logged after it, naming it.
    assert voided.voided and battle.events.count() == 2
    assert battle.events.get(seq=2).details["voids"] == 1
    assert battle.figures.get(pk=blue).state == before
    assert battle.figures.get(pk=red).skills_used == []


def test_a_killing_blow_counts_a_kill_for_the_actor(battle: Battle) -> None:
    red, blue = _pair(battle)

    services.battle_resolve(
        battle=battle, check="damage", actor=red, target=blue, params={}, dice=[1]
    )

    assert battle.figures.get(pk=blue).state["status"] == "dead"
    assert battle.figures.get(pk=red).kills == 1


def test_the_breakpoint_is_marked_when_a_side_crosses_it_and_cleared_when_voided(
    battle: Battle,
) -> None:
    red, _ = _pair(battle)
    blues = list(battle.figures.filter(side__index=1).order_by("pk"))
    for blue in blues[:2]:
        services.battle_resolve(
            battle=battle, check="damage", actor=red, target=blue.pk, params={}, dice=[1]
        )
    side = battle.sides.get(index=1)
    assert side.broke_at_seq == 2

    services.battle_void_last(battle=battle)

    side.refresh_from_db()
    assert side.broke_at_seq is None


def _stack_deck(battle: Battle, *, reshuffle_on_top: bool) -> list[str]:
    # The shuffle depends on the battle's fresh seed; put the card each test is about on top.
    state = Battle.objects.get(pk=battle.pk).activation_state
    deck = sorted(state["deck"], key=lambda card: (card == RESHUFFLE) != reshuffle_on_top)
    Battle.objects.filter(pk=battle.pk).update(activation_state={**state, "deck": deck})
    battle.refresh_from_db()
    return deck


def test_activation_cards_are_drawn_with_the_deck_kept_on_the_battle(battle: Battle) -> None:
    services.battle_activation_start(battle=battle, method="cards")
    deck = _stack_deck(battle, reshuffle_on_top=False)

    draw = services.battle_activation_draw(battle=battle)

    state = Battle.objects.get(pk=battle.pk).activation_state
    assert state["deck"] == deck[1:]
    assert draw.kind == "ACTIVATION" and draw.seq == 2


def test_drawing_the_reshuffle_card_ends_the_turn_with_a_fresh_deck(battle: Battle) -> None:
    services.battle_activation_start(battle=battle, method="cards")
    deck = _stack_deck(battle, reshuffle_on_top=True)

    services.battle_activation_draw(battle=battle)

    state = Battle.objects.get(pk=battle.pk).activation_state
    assert state["turn"] == 2
    assert sorted(state["deck"]) == sorted(deck)


def test_voiding_a_draw_puts_the_card_back(battle: Battle) -> None:
    services.battle_activation_start(battle=battle, method="cards")
    deck = Battle.objects.get(pk=battle.pk).activation_state["deck"]
    services.battle_activation_draw(battle=battle)

    services.battle_void_last(battle=battle)

    assert Battle.objects.get(pk=battle.pk).activation_state["deck"] == deck


@pytest.mark.parametrize(
    ("check", "params", "dice", "field"),
    [
        ("parley", {}, None, "check"),
        ("fire", {"skill": 13}, None, "params"),
        ("fire", {"skill": 7}, [7, 7, 7, 7], "dice"),
        ("action", {"experience": 4}, [7], "dice"),
    ],
)
def test_bad_checks_are_refused_and_change_nothing(
    battle: Battle, check: str, params: dict, dice: list | None, field: str
) -> None:
    red, blue = _pair(battle)

    with pytest.raises(ValidationError) as raised:
        services.battle_resolve(
            battle=battle, check=check, actor=red, target=blue, params=params, dice=dice
        )

    assert field in raised.value.message_dict
    assert not battle.events.exists()


def test_a_figure_from_another_battle_is_refused(cast: Cast, battle: Battle) -> None:
    other = start_battle(cast)
    stranger = other.figures.first()

    with pytest.raises(ValidationError, match="not in this battle"):
        services.battle_resolve(
            battle=battle, check="action", actor=stranger.pk, params={"experience": 4}
        )
