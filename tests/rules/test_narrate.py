"""Plain words from the rules engine: every check, effect, state, activation and roll of every
system reads as a sentence in the game's words, with no raw key in it.

Sentences are checked over seeded resolutions of every check (random valid parameters, until
each outcome has shown or the budget is spent), over every outcome key directly, over each
system's post-battle procedure on a range of records, and over each activation method's draws.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from typing import Any

import pytest

from rules.campaign import FigureRecord
from rules.checks import Check, Resolution
from rules.cli import main
from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.narrate import (
    change_sentence,
    dice_text,
    effect_text,
    event_sentence,
    outcome_label,
    roll_sentence,
    state_chips,
)
from rules.schema import Field
from rules.simulate import SimFigure
from rules.system import RuleSystem, all_systems, get_system

SYSTEMS = all_systems()
CHECKS = [(system.key, check) for system in SYSTEMS for check in system.checks.values()]
ACTOR, TARGET = "Ned Fletcher", "Will Cooper"
#: Seeded resolutions tried per check while looking for every outcome.
BUDGET = 400

_DANGLING = re.compile(r"\b(at|on|to|for|with|against|around|of|from|near|facing)\s*:")
_RAW = re.compile(r"_|=True|=False|\{|\}|\bNone\b|\[|\]")


def assert_plain(text: str) -> None:
    """A player reads it: words, not keys, no Python repr, no template left unfilled."""
    assert text.strip(), "empty text"
    assert not _RAW.search(text), f"raw key or repr in {text!r}"


def _value(field: Field, rng: random.Random) -> Any:
    if field.kind in ("choice", "die"):
        return rng.choice(field.choice_values())
    if field.kind == "bool":
        return rng.random() < 0.5
    if field.kind == "int":
        low = field.min if field.min is not None else 0
        return rng.randint(low, field.max if field.max is not None else low + 10)
    return field.default if field.default is not None else []


def _params(check: Check, rng: random.Random) -> dict[str, Any]:
    return {f.name: _value(f, rng) for f in check.params.fields}


def resolutions(check: Check) -> dict[str, Resolution]:
    """The first seeded resolution of each outcome, over random valid parameters."""
    rng, found = random.Random(check.name), {}
    for seed in range(BUDGET):
        try:
            resolution = check.resolve(
                _params(check, rng), SeededDice(f"narrate-{seed}", check.name)
            )
        except ValidationError:  # a cross-field rule refused the random parameters
            continue
        found.setdefault(resolution.outcome, resolution)
        if len(found) == len(check.outcomes):
            break
    return found


@pytest.mark.parametrize(("system_key", "check"), CHECKS, ids=lambda v: getattr(v, "name", v))
def test_every_outcome_resolved_reads_as_a_sentence_naming_both_figures(system_key, check):
    found = resolutions(check)

    assert found, f"{check.name} never resolved"
    for resolution in found.values():
        event = resolution.as_json()
        sentence = event_sentence(system_key, event, ACTOR, TARGET)
        assert_plain(sentence)
        assert ACTOR in sentence and TARGET in sentence
        assert sentence.endswith((".", "!", "?"))
        for effect in event["effects"]:
            assert_plain(effect_text(system_key, effect) or "silent")


@pytest.mark.parametrize(("system_key", "check"), CHECKS, ids=lambda v: getattr(v, "name", v))
def test_the_dice_text_shows_every_die_with_what_it_was_for(system_key, check):
    for resolution in resolutions(check).values():
        dice = resolution.as_json()["dice"]
        text = dice_text(dice)

        parts = text.split(" · ") if dice else []
        assert len(parts) == len(dice)
        for part, roll in zip(parts, dice, strict=True):
            assert part.endswith(f": {roll['value']}")
            assert roll["label"].replace("_", " ") in part
        assert "#" not in text
        if dice:
            assert_plain(text)


@pytest.mark.parametrize(("system_key", "check"), CHECKS, ids=lambda v: getattr(v, "name", v))
def test_every_outcome_key_has_a_label_and_a_sentence_even_with_no_figures(system_key, check):
    for outcome in check.outcomes:
        label = outcome_label(system_key, check.name, outcome)
        event = {"check": check.name, "outcome": outcome, "dice": [], "details": {}}

        alone = event_sentence(system_key, event, actor=ACTOR)

        assert_plain(label)
        assert label in event_sentence(system_key, event)
        assert_plain(event_sentence(system_key, event))
        assert_plain(alone)
        assert not _DANGLING.search(alone), f"a preposition with no target in {alone!r}"


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.key)
def test_every_outcome_key_of_more_than_one_word_is_worded_by_its_system(system):
    words = system.words
    unworded = [
        (name, key)
        for name, check in system.checks.items()
        for key in check.outcomes
        if "_" in key
        and key not in words.check_outcomes.get(name, {})
        and key not in words.outcomes
    ]

    assert unworded == []


def _sample_stats(system: RuleSystem) -> dict[str, Any]:
    stats = {}
    for f in system.stats.fields:
        if f.default is not None:
            stats[f.name] = f.default
        elif f.required and f.choices:
            stats[f.name] = f.choices[0][0]
        elif f.required and f.kind == "int":
            stats[f.name] = f.min if f.min is not None else 0
    return system.stats.validate(stats)


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.key)
def test_state_chips_of_a_figure_through_a_battle_show_no_raw_key(system):
    state = system.initial_state(_sample_stats(system))
    chips = list(state_chips(system.key, state))
    for check in system.checks.values():
        for resolution in resolutions(check).values():
            for effect in resolution.effects:
                effect.apply(state)
            system.settle_state(state)
            chips.extend(state_chips(system.key, state))

    for text, bad in chips:
        assert_plain(text)
        assert isinstance(bad, bool)


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.key)
def test_a_fresh_figure_shows_no_trouble(system):
    state = system.initial_state(_sample_stats(system))

    assert [text for text, bad in state_chips(system.key, state) if bad] == []


def _records(system: RuleSystem) -> list[FigureRecord]:
    stats = _sample_stats(system)
    skills = frozenset(f.name for f in system.stats.fields)
    return [
        FigureRecord(
            name="Gridley",
            stats=stats,
            wounds=wounds,
            status=status,
            skills_used=skills,
            kills=1,
            battles_before=2,
            side_result="win",
            extra={"wound_locations": ["left arm", "head"], "hero": "inspired"},
        )
        for wounds, status in ((0, "unhurt"), (1, "wounded"), (3, "wounded"), (5, "out"))
        for status in (status, "dead", "ko", "routed")
    ]


def _options(system: RuleSystem) -> dict[str, Any]:
    options = system.options.validate({})
    # Switch every house rule on, so each procedure has something to roll.
    return {**options, **{f.name: True for f in system.options.fields if f.kind == "bool"}}


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda s: s.key)
def test_every_post_battle_roll_reads_as_a_sentence_about_the_figure(system):
    rolled = 0
    for n, record in enumerate(_records(system)):
        for seed in range(4):
            rolls = system.post_battle(
                record,
                _options(system),
                lambda p, i, n=n, s=seed: SeededDice(f"{n}/{s}", f"{p}/{i}"),
            )
            for roll in rolls:
                data = roll.as_json()
                sentence = roll_sentence(system.key, data, "Gridley")
                assert_plain(sentence)
                assert sentence.startswith("Gridley")
                for change in data["changes"]:
                    assert_plain(change_sentence(system.key, change) or "unchanged")
                if data["dice"]:
                    assert_plain(dice_text(data["dice"]))
                rolled += 1

    assert rolled > 0


@pytest.mark.parametrize(
    ("system_key", "method"),
    [(s.key, name) for s in SYSTEMS for name in s.activation],
)
def test_activation_start_and_draws_read_as_sentences(system_key, method):
    system = get_system(system_key)
    units = ["1:Sharpe", "1:Harper", "2:Ned", "2:Will"]
    dice = SeededDice("narrate-activation", method)
    state = system.activation[method].start(units, system.options.validate({}), dice)
    start = {
        "check": "activation.start",
        "params": {"method": method, "units": units},
        "details": {"turn": state.get("turn")},
    }
    sentences = [event_sentence(system_key, start)]
    for _ in range(60):
        drawn = system.activation[method].draw(state, dice)
        state = drawn.state
        event = {"kind": "activation", "check_name": "activation.draw", "details": drawn.result}
        sentences.append(event_sentence(system_key, event))

    for sentence in sentences:
        assert_plain(sentence)
    # Who acts is named by unit and side (or, in the turn sequence, by player).
    assert any(re.search(r"\(side [12]\)|player [AD]", s) for s in sentences[1:])


def test_a_crippling_shot_reads_in_rencounter_words():
    fire = get_system("rencounter").check("fire")
    event = fire.resolve({"skill": 8}, GivenDice([8, 3])).as_json()

    assert event_sentence("rencounter", event, ACTOR, TARGET) == (
        "Ned Fletcher fires at Will Cooper: crippling wound — 3 wound points, "
        "knocked down by the wound."
    )
    assert dice_text(event["dice"]) == "to hit d12: 8 · damage d12: 3"


def test_a_riposte_names_the_attacker_it_wounds():
    event = {
        "check": "melee",
        "outcome": "riposte",
        "effects": [
            {"who": "actor", "key": "wounds", "op": "add", "value": 1, "note": "minor wound"},
            {"who": "actor", "key": "status", "op": "set", "value": "wounded", "note": ""},
        ],
    }

    assert event_sentence("rencounter", event, ACTOR, TARGET) == (
        "Ned Fletcher attacks Will Cooper: riposte: the parry strikes — "
        "Ned Fletcher: minor wound (1 wound point)."
    )


def test_effects_read_as_what_happened_to_the_figure():
    def effect(key: str, op: str, value: Any, note: str = "") -> Mapping[str, Any]:
        return {"who": "target", "key": key, "op": op, "value": value, "note": note}

    assert effect_text("rencounter", effect("down", "set", True)) == "knocked down"
    assert effect_text("rencounter", effect("wounds", "add", 2)) == "2 wound points"
    assert effect_text("grits_and_glory", effect("shaken", "set", 0)) == ""
    assert effect_text("game_the_90", effect("hits", "add", -2)) == "2 Hits rallied off"
    assert effect_text("d12_skirmish", effect("loaded", "set", False)) == "unloaded"


def test_a_wounded_mans_chips_say_how_badly_and_what_else():
    state = {"wounds": 2, "status": "wounded", "down": True, "loaded": True, "ducked": False}

    assert state_chips("rencounter", state) == (
        ("2 wound points", True),
        ("knocked down", True),
        ("loaded", False),
    )


def test_the_aftermath_says_what_healed_and_where_the_permanent_wound_is():
    roll = {
        "procedure": "aftermath",
        "subject": "2 wound point(s)",
        "outcome": "permanent_1",
        "dice": [],
        "changes": [
            {
                "kind": "permanent_wound",
                "field": "permanent_wounds",
                "before": None,
                "after": "left arm",
                "reason": "permanent wound point",
            }
        ],
        "house_rule": False,
        "details": {"permanent": 1, "healed": 1, "sepsis": 0},
    }

    assert roll_sentence("rencounter", roll, "Gridley") == (
        "Gridley's wound aftermath: one wound point heals, one leaves a permanent wound — left arm."
    )


def test_a_man_who_dies_in_the_aftermath_is_said_to():
    roll = {"procedure": "aftermath", "outcome": "dies", "details": {"permanent": 6, "healed": 0}}

    assert roll_sentence("rencounter", roll, "Sam Jones") == (
        "Sam Jones dies of wounds in the wound aftermath."
    )


def test_an_improvement_says_the_stat_before_and_after():
    roll = {
        "procedure": "improvement",
        "subject": "fire",
        "outcome": "improves",
        "changes": [{"kind": "stat", "field": "fire", "before": 7, "after": 8, "reason": ""}],
    }

    assert roll_sentence("rencounter", roll, "Gridley") == "Gridley improves Fire skill: 7 → 8."


def test_a_joker_names_the_card_the_bonus_and_the_fortune():
    event = {
        "check": "activation.draw",
        "details": {
            "turn": 2,
            "unit": "1:Sharpe",
            "card": "RJ",
            "joker": True,
            "bonus": 2,
            "event": {"fortune_roll": 5, "fortune": "rally"},
        },
    }

    assert event_sentence("grits_and_glory", event) == (
        "Turn 2: Red Joker — Sharpe (side 1) acts at +2; fortune: Rally."
    )


def test_a_reshuffle_card_ends_the_turn():
    event = {"check": "activation.draw", "details": {"turn_ends": True, "turn": 1}}

    assert event_sentence("rencounter", event) == (
        "Reshuffle card: turn 1 ends, the deck is shuffled."
    )


def test_an_unknown_system_still_gets_words_not_keys():
    event = {"check": "fire_at_will", "outcome": "struck_down", "effects": []}

    assert (
        event_sentence("no_such_game", event, ACTOR) == "Ned Fletcher, fire at will: struck down."
    )


def test_friendly_fire_is_allowed_exactly_where_the_texts_allow_it():
    allowed = {
        (system.key, check.name)
        for system in SYSTEMS
        for check in system.checks.values()
        if check.friendly_fire
    }

    assert allowed == {
        ("rencounter", "damage"),
        ("rencounter", "grenade"),
        ("rencounter", "artillery"),
        ("rencounter", "fall"),
        ("grits_and_glory", "damage"),
        ("grits_and_glory", "area_effect"),
        ("grits_and_glory", "into_melee"),
        ("d12_skirmish", "wound"),
    }
    assert get_system("grits_and_glory").check("into_melee").as_json()["friendly_fire"] is True
    assert get_system("escarmouche").check("shoot").as_json()["friendly_fire"] is False


def test_a_dead_mans_chips_say_only_what_put_him_there():
    state = {"wounds": 3, "status": "dead", "down": True, "loaded": True}

    assert state_chips("rencounter", state) == (
        ("3 wound points", True),
        ("dead", True),
        ("knocked down", True),
    )


def test_statuses_entered_by_hand_and_yes_or_no_values_read_in_words():
    assert state_chips("rencounter", {"status": "ko"}) == (("knocked out", True),)
    assert state_chips("d12_skirmish", {"status": "captured"}) == (("surrendered", True),)
    change = {"kind": "career", "field": "veteran", "before": False, "after": True}
    assert change_sentence("game_the_90", change) == "veteran: no → yes"


@pytest.mark.parametrize("system", [s for s in SYSTEMS if s.simulate], ids=lambda s: s.key)
def test_an_auto_resolved_battle_reads_event_by_event(system):
    stats = _sample_stats(system)
    sides = [
        [SimFigure(f"{side}-{n}", f"Trooper {side}{n}", stats, unit=f"{side}") for n in range(3)]
        for side in "AB"
    ]
    names = {figure.ref: figure.name for side in sides for figure in side}
    assert system.simulate is not None

    result = system.simulate(sides, _options(system), SeededDice("narrate-auto", system.key))

    for event in result.events:
        actor = names.get(event.actor)  # the game itself acts for a game-level roll
        target = names.get(event.target) if event.target else None
        sentence = event_sentence(system.key, event.resolution.as_json(), actor, target)
        assert_plain(sentence)
        assert actor is None or actor in sentence
    for state in result.states.values():
        for text, _ in state_chips(system.key, state):
            assert_plain(text)


def test_a_roll_at_the_terminal_carries_its_sentence_and_dice(capsys):
    code = main(["roll", "rencounter", "fire", "skill=8", "--dice", "8,3"])
    data = json.loads(capsys.readouterr().out)

    assert code == 0
    assert data["sentence"] == "Fire: crippling wound — 3 wound points, knocked down by the wound."
    assert data["dice_text"] == "to hit d12: 8 · damage d12: 3"
