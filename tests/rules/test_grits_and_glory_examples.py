"""Every worked example of the Grits & Glory text, as a test."""

from fractions import Fraction

from rules.dice import GivenDice
from rules.systems.grits_and_glory import SYSTEM
from rules.systems.grits_and_glory.checks import _damage_dice, _fighting_modifier
from rules.systems.grits_and_glory.tables import BASE

DAMAGE = SYSTEM.check("damage")
FIGHTING = SYSTEM.check("fighting")


def test_a_sabre_in_a_d10_strength_hand_rolls_d10_plus_d6():
    params = DAMAGE.params.validate({"weapon": "sabre", "strength": 10})

    dice = _damage_dice(params, BASE.DAMAGE_SOURCES[params["weapon"]])
    result = DAMAGE.resolve(params, GivenDice([7, 4]))

    assert dice == (10, 6)
    assert [r.die for r in result.dice] == ["d10", "d6"]
    assert result.details["total"] == 11


def test_the_sabre_damage_dice_ace_and_add():
    result = DAMAGE.resolve({"weapon": "sabre", "strength": 10}, GivenDice([10, 3, 6, 2]))

    assert result.details["dice"] == [13, 8]


def test_a_d6_strength_spear_hitting_with_a_raise_rolls_three_d6():
    params = DAMAGE.params.validate({"weapon": "spear", "strength": 6, "raise_hit": True})

    result = DAMAGE.resolve(params, GivenDice([2, 3, 4]))

    assert _damage_dice(params, BASE.DAMAGE_SOURCES[params["weapon"]]) == (6, 6, 6)
    assert [r.die for r in result.dice] == ["d6", "d6", "d6"]


def test_four_attackers_ganging_up_each_add_three():
    params = FIGHTING.params.validate({"die": 6, "gang_up": 3})

    result = FIGHTING.resolve(params, GivenDice([1]))

    assert _fighting_modifier(BASE, params) == 3
    assert result.details["total"] == 4
    assert result.outcome == "miss"  # 4 against the default Parry 5


def test_ganging_up_never_adds_more_than_four():
    params = FIGHTING.params.validate({"die": 6, "gang_up": 9})

    assert _fighting_modifier(BASE, params) == 4


def test_a_hero_with_two_wounds_rolls_at_minus_two():
    result = FIGHTING.resolve({"die": 8, "wounds": 2, "parry": 4}, GivenDice([5]))

    assert result.details["total"] == 3


def test_a_third_action_costs_minus_four_on_every_roll():
    result = FIGHTING.resolve({"die": 8, "actions": 3, "parry": 2}, GivenDice([7]))

    assert result.details["total"] == 3


def test_untrained_rolls_a_d4_minus_two():
    result = SYSTEM.check("trait").resolve({"die": 10, "untrained": True}, GivenDice([4, 3]))

    assert [r.die for r in result.dice] == ["d4", "d4"]
    assert result.details["total"] == 5


def test_fanfire_brings_the_shooting_penalty_to_minus_four():
    result = SYSTEM.check("autofire").resolve(
        {"die": 8, "shots": 6, "fanfire": True}, GivenDice([8, 2, 8, 3, 1, 6, 7, 4])
    )

    assert result.details["modifier"] == -4
    assert result.outcome == "hits_2"  # the aced 10 and 11 reach 4 after -4
    assert result.details["jammed"] is True


def test_a_wild_card_only_jams_when_both_dice_show_one():
    shooting = SYSTEM.check("shooting")

    one_die = shooting.resolve({"die": 8, "wild_card": True}, GivenDice([1, 5]))
    both = shooting.resolve({"die": 8, "wild_card": True}, GivenDice([1, 1]))

    assert one_die.outcome == "hit"
    assert both.outcome == "miss_jammed"


def test_a_shaken_extra_shaken_again_by_damage_is_wounded_and_removed():
    result = DAMAGE.resolve(
        {"weapon": "knife", "strength": 6, "toughness": 5, "target_shaken": True}, GivenDice([3, 2])
    )

    assert result.outcome == "removed"


def test_each_raise_on_damage_wounds_a_wild_card():
    result = DAMAGE.resolve(
        {"weapon": "sabre", "strength": 6, "toughness": 5, "target_wild_card": True},
        GivenDice([6, 5, 2]),
    )  # 11+2 = 13

    assert result.outcome == "wounded"
    assert result.details["wounds"] == 2


def test_a_wild_card_with_three_wounds_is_incapacitated_by_a_fourth():
    result = DAMAGE.resolve(
        {
            "weapon": "sabre",
            "strength": 6,
            "toughness": 5,
            "target_wild_card": True,
            "target_wounds": 3,
        },
        GivenDice([5, 4]),
    )

    assert result.outcome == "removed"


def test_a_soak_roll_with_two_raises_cancels_three_of_five_wounds():
    result = SYSTEM.check("soak").resolve({"die": 12, "wounds": 5}, GivenDice([12, 1]))

    assert result.details["soaked"] == 3
    assert result.outcome == "soaked_some"


def test_the_battle_may_end_on_a_ten_after_turn_six_and_nine_or_ten_after_turn_seven():
    end = SYSTEM.check("end_game")

    assert end.odds({"turn": 6}).probabilities["ends"] == Fraction(1, 10)
    assert end.odds({"turn": 7}).probabilities["ends"] == Fraction(2, 10)
    assert end.resolve({"turn": 30}, GivenDice([1])).outcome == "continues"


def test_a_joker_adds_two_to_trait_and_damage_rolls():
    fight = FIGHTING.resolve({"die": 6, "joker": True, "parry": 2}, GivenDice([2]))
    damage = DAMAGE.resolve({"weapon": "knife", "strength": 6, "joker": True}, GivenDice([2, 1]))

    assert fight.details["total"] == 4
    assert damage.details["total"] == 5


def test_a_volley_of_ten_figures_rolls_three_wild_dice():
    result = SYSTEM.check("volley_fire").resolve({"die": 6, "figures": 10}, GivenDice([1, 2, 3, 4]))

    assert len(result.details["wild_dice"]) == 3
    assert result.outcome == "hit"


def test_a_rider_gains_two_toughness_when_hit():
    result = DAMAGE.resolve(
        {"weapon": "knife", "strength": 6, "toughness": 5, "mounted_target": True},
        GivenDice([4, 2]),
    )

    assert result.details["toughness"] == 7
    assert result.outcome == "no_effect"
