"""Rencounter's three ways to order unit activations, as JSON state machines.

Units are named by strings; "Side:Unit" puts a unit on a side (the dice-and-markers method
needs sides to break ties). A name without a colon is a side of its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.activation import ActivationMethod, Draw, State, shuffle
from rules.dice import Dice
from rules.errors import RulesError

RESHUFFLE = "RESHUFFLE"
_DIE_SIZES = (4, 6, 8, 10, 12, 20)


def side_of(unit: str) -> str:
    """Return the side a unit name belongs to."""
    return unit.split(":", 1)[0] if ":" in unit else unit


# --- cards ----------------------------------------------------------------------------------


def _full_deck(state: State) -> list[str]:
    cards = [u for u in state["units"] for _ in range(state["cards_per_unit"])]
    return cards + ([RESHUFFLE] if state["reshuffle"] else [])


def cards_start(units: Sequence[str], options: Mapping[str, Any], dice: Dice) -> State:
    """Shuffle a deck of unit cards (and the reshuffle card, if used)."""
    state: State = {
        "method": "cards",
        "units": list(units),
        "turn": 1,
        "held": [],
        "cards_per_unit": int(options.get("cards_per_unit", 1)),
        "reshuffle": bool(options.get("reshuffle_card", True)),
        "may_hold": bool(options.get("held_cards", False)),
    }
    state["deck"] = shuffle(_full_deck(state), dice, "shuffle cards")
    return state


def _new_turn(state: State, dice: Dice) -> State:
    # Held cards are lost when the turn ends.
    return {
        **state,
        "turn": state["turn"] + 1,
        "held": [],
        "deck": shuffle(_full_deck(state), dice, "shuffle cards"),
    }


def cards_draw(state: State, dice: Dice) -> Draw:
    """Turn the next card: a unit activates (or its held card is spent), or the turn ends."""
    if not state["deck"]:
        state = _new_turn(state, dice)
    card, deck = state["deck"][0], state["deck"][1:]
    if card == RESHUFFLE:
        return Draw(
            _new_turn({**state, "deck": deck}, dice), {"turn_ends": True, "turn": state["turn"]}
        )
    held = list(state["held"])
    discarded = card in held
    if discarded:  # a second card for a unit holding one discards the held card
        held.remove(card)
    result = {
        "unit": card,
        "turn": state["turn"],
        "discarded_held": discarded,
        "may_hold": state["may_hold"],
    }
    return Draw({**state, "deck": deck, "held": held}, result)


def hold_card(state: State, unit: str) -> State:
    """Keep the unit's just-drawn card to act after any later activation this turn."""
    if not state["may_hold"]:
        raise RulesError("this campaign does not use held cards")
    if unit in state["held"]:
        raise RulesError(f"{unit} already holds a card")
    return {**state, "held": [*state["held"], unit]}


def play_held(state: State, unit: str) -> State:
    """Spend a held card: the unit acts now."""
    if unit not in state["held"]:
        raise RulesError(f"{unit} holds no card")
    return {**state, "held": [u for u in state["held"] if u != unit]}


# --- dice and markers -----------------------------------------------------------------------


def markers_start(units: Sequence[str], options: Mapping[str, Any], dice: Dice) -> State:
    """Every unit is unmarked at the start of a turn."""
    return {"method": "dice_markers", "units": list(units), "done": [], "turn": 1}


def markers_draw(state: State, dice: Dice) -> Draw:
    """Roll a d6 per unmarked unit; the highest acts (same-side ties all act)."""
    if len(state["done"]) >= len(state["units"]):
        state = {**state, "done": [], "turn": state["turn"] + 1}
    waiting = [u for u in state["units"] if u not in state["done"]]
    winners, rolls = _highest(waiting, 6, dice)
    result = {"units": winners, "turn": state["turn"], "rolls": rolls}
    return Draw({**state, "done": [*state["done"], *winners]}, result)


def _highest(units: Sequence[str], sides: int, dice: Dice) -> tuple[list[str], list[Any]]:
    """Roll for each unit; reroll ties at the top between opposing sides."""
    contenders, history = list(units), []
    while True:
        rolls = {u: dice.roll(sides, f"activation: {u}") for u in contenders}
        history.append(rolls)
        top = max(rolls.values())
        tied = [u for u in contenders if rolls[u] == top]
        if len({side_of(u) for u in tied}) == 1:
            return tied, history
        contenders = tied


# --- dice and counters ----------------------------------------------------------------------


def counters_start(units: Sequence[str], options: Mapping[str, Any], dice: Dice) -> State:
    """Every unit's tally starts at zero; the die fits the number of units."""
    sides = next((s for s in _DIE_SIZES if s >= len(units)), _DIE_SIZES[-1])
    return {
        "method": "dice_counters",
        "units": list(units),
        "die": sides,
        "tally": dict.fromkeys(units, 0),
        "turn": 0,
    }


def counters_draw(state: State, dice: Dice) -> Draw:
    """Roll die + tally per unit; the highest acts and resets, the others add one."""
    tally = state["tally"]
    totals = {u: dice.roll(state["die"], f"activation: {u}") + tally[u] for u in state["units"]}
    top = max(totals.values())
    tied = [u for u in state["units"] if totals[u] == top]
    while len(tied) > 1:  # tie breakers: roll again among the tied
        breaks = {u: dice.roll(state["die"], f"tie break: {u}") for u in tied}
        tied = [u for u in tied if breaks[u] == max(breaks.values())]
    winner = tied[0]
    new_tally = {u: 0 if u == winner else tally[u] + 1 for u in state["units"]}
    # The first unit is the reference unit: each of its activations counts a turn.
    turn = state["turn"] + (winner == state["units"][0])
    return Draw(
        {**state, "tally": new_tally, "turn": turn},
        {"unit": winner, "totals": totals, "turn": turn},
    )


METHODS: dict[str, ActivationMethod] = {
    m.name: m
    for m in (
        ActivationMethod(
            "cards",
            "Cards (unit cards, optional reshuffle card)",
            cards_start,
            cards_draw,
            "Options: reshuffle_card, cards_per_unit, held_cards",
        ),
        ActivationMethod("dice_markers", "Dice and markers", markers_start, markers_draw),
        ActivationMethod("dice_counters", "Dice and counters", counters_start, counters_draw),
    )
}
