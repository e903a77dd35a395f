"""Checks prepared once per question (issue 29): each face's result is worked out once, every
die is still drawn and recorded with its label, each roll owns its details, and a club's
tables answer for that club alone."""

from __future__ import annotations

from typing import Any

import pytest

from rules import house
from rules.checks import Outcome, by_face, face_steps, no_dice, question, resolved_by
from rules.dice import D6, D12, GivenDice, SeededDice
from rules.errors import DiceError, ValidationError
from rules.simulate import questions_for
from rules.system import get_system


def test_a_face_is_worked_out_once_then_looked_up():
    worked: list[int] = []

    def outcome(face: int) -> Outcome:
        worked.append(face)
        return Outcome("high" if face > 3 else "low", {"roll": face})

    roll = by_face(D6, "hits", outcome)
    dice = SeededDice("s", "c")
    results = [roll(dice) for _ in range(200)]

    assert sorted(worked) == [1, 2, 3, 4, 5, 6]  # each face once, however often it came up
    assert [r.details["roll"] for r in results] == [r.value for r in dice.rolls]
    assert {(r.die, r.label) for r in dice.rolls} == {("d6", "hits")}


def test_each_roll_owns_its_details():
    roll = by_face(D6, "hits", lambda face: Outcome("hit", {"roll": face}))
    dice = GivenDice([4, 4])

    first = roll(dice)
    first.details["friendly_fire"] = True  # what the table service adds to its own copy
    second = roll(dice)

    assert second.details == {"roll": 4}
    assert no_dice(Outcome("acts", {"turns": 1}))(dice).details is not (
        no_dice(Outcome("acts", {"turns": 1}))(dice).details
    )


def test_a_face_may_lead_to_the_next_die():
    def attack(first: int) -> Any:
        if first < 6:
            return Outcome("miss", {"attack": first})
        return by_face(D12, "damage", lambda second: Outcome("hit", {"damage": second}))

    roll = by_face(D6, "attack", attack)
    dice = GivenDice([6, 11, 2])

    assert roll(dice) == ("hit", {"damage": 11}, ())
    assert roll(dice) == ("miss", {"attack": 2}, ())
    assert [(r.die, r.value, r.label) for r in dice.rolls] == [
        ("d6", 6, "attack"),
        ("d12", 11, "damage"),
        ("d6", 2, "attack"),
    ]


def test_face_steps_hand_out_their_final_values_as_they_are():
    roll = face_steps(D6, "to hit", lambda face: ("miss", face), tuple)

    assert roll(GivenDice([3])) == ("miss", 3)


def test_a_question_tells_equal_values_of_other_types_apart():
    assert question({"hits": 1}) != question({"hits": True})
    assert question({"hits": 1}) == question({"hits": 1})
    with pytest.raises(TypeError):
        hash(question({"weapons": ["rifle"]}))


def test_the_resolver_prepares_each_question_once_and_keeps_its_own_copy():
    prepared: list[dict[str, Any]] = []

    def prepare(params: Any) -> Any:
        prepared.append(dict(params))
        return no_dice(Outcome(f"hits_{params['hits']}"))

    resolve = resolved_by(prepare)
    params = {"hits": 1}
    dice = GivenDice([])

    assert resolve(params, dice).key == "hits_1"
    params["hits"] = 2  # the caller's mapping changes: the remembered question does not
    assert resolve(params, dice).key == "hits_2"
    assert resolve({"hits": 1}, dice).key == "hits_1"
    assert resolve({"hits": True}, dice).key == "hits_True"  # True is not 1 here
    assert resolve({"hits": [1]}, dice).key == "hits_[1]"  # unhashable: prepared afresh
    assert prepared == [{"hits": 1}, {"hits": 2}, {"hits": True}, {"hits": [1]}]


def test_a_clubs_pack_answers_after_the_base_rules_answered_the_same_question():
    system = get_system("game_the_90")
    document = house.template(system)
    serjeants = next(row for row in document["tables"]["unit_types"] if row["key"] == "serjeants")
    serjeants["melee_modifier"] += 2
    housed = system.with_house(document)
    params = {"attacker": "serjeants", "target": "serjeants"}

    base = [system.check("melee").resolve(params, SeededDice("s", f"{n}")) for n in range(30)]
    under = [housed.check("melee").resolve(params, SeededDice("s", f"{n}")) for n in range(30)]
    prepared = housed.check("melee").prepare(params)
    rolled = [prepared.roll(SeededDice("s", f"{n}")) for n in range(30)]

    assert [r.dice for r in base] == [r.dice for r in under] == [r.dice for r in rolled]
    assert all(u.details["hits"] >= b.details["hits"] for b, u in zip(base, under, strict=True))
    assert any(u.details["hits"] > b.details["hits"] for b, u in zip(base, under, strict=True))
    assert [r.details for r in rolled] == [r.details for r in under]


@pytest.mark.parametrize(
    ("system", "check", "params", "given", "words"),
    [
        (
            "rencounter",
            "melee",
            {"attack_skill": 9, "parry_skill": 3},
            [2],
            "die #2 (d12 for parry)",
        ),
        ("d12_skirmish", "hand_to_hand", {}, [7], "die #2 (d12 for enemy hand to hand)"),
        ("rencounter", "aftermath", {"wounds": 2}, [4], "die #2 (d6 for wound point 2)"),
    ],
)
def test_given_dice_run_out_where_they_ran_out_before(system, check, params, given, words):
    with pytest.raises(DiceError, match=words.replace("(", r"\(").replace(")", r"\)")):
        get_system(system).check(check).resolve(params, GivenDice(given))


def test_a_batch_keeps_its_questions_per_set_of_checks():
    system = get_system("game_the_90")
    housed = system.with_house(house.template(system))
    questions = questions_for(system.checks)

    assert questions_for(system.checks) is questions  # every battle of the batch shares them
    assert questions_for(housed.checks) is not questions  # a club's checks keep their own
    prepared = questions.prepare(("melee", "d6", 3), "melee", {"target_hits": 3})
    assert questions.asked[("melee", "d6", 3)] is prepared
    assert prepared.values["target_hits"] == 3
    with pytest.raises(ValidationError):
        questions.prepare(("melee", "d6", 99), "melee", {"target_hits": 99})
