"""The 54-card action deck: a card per unit each turn, counted down from the Ace.

Aces are high and ties between ranks break by suit (spades, hearts, diamonds, clubs). A Joker
may act whenever its owner likes (the deck puts it first; the player may hold it), adds +2 to
trait and damage rolls, and triggers the events table at once. The deck is reshuffled at the
start of the turn after a Joker showed, and also whenever it holds too few cards to deal the
turn (Muster's reading: the text only covers more than 54 units). A unit on Hold keeps its
card face up, is not dealt in at a new turn, and acts (or interrupts) when its player says.

State is plain JSON: `deck` (draw pile), `turn`, `queue` (units still to act this turn, best
card first), `cards` (unit -> card this turn), `held`, `joker_seen`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import partial
from typing import Any

from rules.activation import ActivationMethod, Draw, State, shuffle
from rules.dice import D6, D20, Dice
from rules.errors import RulesError
from rules.systems.grits_and_glory import tables as t

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")  # lowest to highest: clubs, diamonds, hearts, spades
JOKERS = ("BJ", "RJ")
DECK = tuple(f"{rank}{suit}" for rank in RANKS for suit in SUITS) + JOKERS
RED_SUITS = ("H", "D")


def card_value(card: str) -> tuple[int, int]:
    """Return a sort key: Jokers above Aces, then rank, then suit."""
    if card in JOKERS:
        return (len(RANKS), JOKERS.index(card))
    return (RANKS.index(card[:-1]), SUITS.index(card[-1]))


#: Each card's sort key, worked out once: every turn sorts the units by their cards.
CARD_VALUES = {card: card_value(card) for card in DECK}
#: Each card's place in that order, as a number (the auto-resolver's deck sorts by it).
CARD_RANKS = {card: rank for rank, card in enumerate(sorted(DECK, key=CARD_VALUES.__getitem__))}


def is_joker(card: str) -> bool:
    return card in JOKERS


def is_black(card: str) -> bool:
    """Black cards (and Jokers) let the sentry's own player steer it."""
    return card in JOKERS or card[-1] not in RED_SUITS


def _dealt_to(units: Sequence[str]) -> None:
    """Refuse units one deck cannot deal to: a name twice, or more units than cards."""
    if len(set(units)) != len(units):
        raise RulesError("each unit may be named only once")
    if len(units) > len(DECK):
        raise RulesError(f"one deck serves at most {len(DECK)} units")


def start(units: Sequence[str], options: Mapping[str, Any], dice: Dice) -> State:
    """Shuffle a fresh deck for the named units; nothing is dealt until the first draw."""
    _dealt_to(units)
    return {
        "units": list(units),
        "deck": shuffle(DECK, dice, "shuffle"),
        "turn": 0,
        "queue": [],
        "cards": {},
        "held": [],
        "joker_seen": False,
    }


def _deal(state: State, dice: Dice) -> State:
    dealt_to = [u for u in state["units"] if u not in state["held"]]
    deck = list(state["deck"])
    reshuffled = state["joker_seen"] or len(deck) < len(dealt_to)
    if reshuffled:
        kept = {state["cards"].get(u) for u in state["held"]}
        deck = shuffle([c for c in DECK if c not in kept], dice, "shuffle")
    cards = {unit: deck[i] for i, unit in enumerate(dealt_to)}
    ranks = {unit: CARD_VALUES[card] for unit, card in cards.items()}
    queue = sorted(dealt_to, key=ranks.__getitem__, reverse=True)
    held_cards = {u: state["cards"][u] for u in state["held"] if u in state["cards"]}
    return {
        **state,
        "deck": deck[len(dealt_to) :],
        "turn": state["turn"] + 1,
        "queue": queue,
        "cards": {**held_cards, **cards},
        "joker_seen": False,
        "reshuffled": reshuffled,
    }


def draw(state: State, dice: Dice, *, tables: t.GGTables = t.BASE) -> Draw:
    """Turn the next card: who acts, on what card, and the event a Joker sets off (with the
    Joker's bonus of `tables`, a club's to edit)."""
    if not state["queue"]:
        state = _deal(state, dice)
    unit, *rest = state["queue"]
    card = state["cards"][unit]
    joker = card in JOKERS
    result: dict[str, Any] = {
        "turn": state["turn"],
        "unit": unit,
        "card": card,
        "joker": joker,
        "bonus": 0,
    }
    if joker:
        result.update(bonus=tables.JOKER_BONUS, event=roll_event(dice))
    new_state = {**state, "queue": rest, "joker_seen": state["joker_seen"] or joker}
    return Draw(new_state, result)


def draws(units: Sequence[str], dice: Dice) -> Iterator[tuple[str, bool, bool]]:
    """`start`, then `draw` again and again, for units that never go on Hold: each draw as
    (unit, on a Joker, the turn's last card).

    The same cards, events and dice in the same order as the state-passing draws (a test
    compares them), without a new state per card: the auto-resolver draws sixty cards a battle.
    """
    _dealt_to(units)
    pile, count, joker_seen = shuffle(DECK, dice, "shuffle"), len(units), False
    while True:
        # `_deal`: nobody holds a card, so a reshuffle takes the whole deck.
        if joker_seen or len(pile) < count:
            pile = shuffle(DECK, dice, "shuffle")
        hand, pile, joker_seen = pile[:count], pile[count:], False
        # Best card first: no two cards rank the same, so the units never decide the order.
        ranks = map(CARD_RANKS.__getitem__, hand)
        queue = sorted(zip(ranks, hand, units, strict=True), reverse=True)
        last = len(queue) - 1
        for turn, (_, card, unit) in enumerate(queue):
            joker = card in JOKERS
            if joker:
                roll_event(dice)
                joker_seen = True
            yield unit, joker, turn == last


def hold(state: State, unit: str) -> State:
    """Put a unit on Hold: it keeps its card and is not dealt in while it waits."""
    if unit not in state["units"]:
        raise RulesError(f"no unit {unit!r} in this deck")
    queue = [u for u in state["queue"] if u != unit]
    return {**state, "queue": queue, "held": sorted({*state["held"], unit})}


def act_from_hold(state: State, unit: str) -> State:
    """A held unit acts now (or interrupts): it leaves Hold and is dealt in next turn."""
    if unit not in state["held"]:
        raise RulesError(f"unit {unit!r} is not on Hold")
    return {**state, "held": [u for u in state["held"] if u != unit]}


#: The fortunes by the 2d6's total, looked up once (the text's table: a club does not edit it).
_FORTUNE_BY_TOTAL = {total: t.fortune_for(total) for total in range(2, 13)}


def roll_event(dice: Dice) -> dict[str, Any]:
    """Roll 2d6 on the fortunes, and the d20 freak events when the fortune says so."""
    fortune_roll = sum(dice.roll_many(2, D6, "fortune"))
    fortune = _FORTUNE_BY_TOTAL[fortune_roll]
    event: dict[str, Any] = {"fortune_roll": fortune_roll, "fortune": fortune}
    if fortune == "freak_event":
        event["freak_event"] = roll_freak_event(dice)
    return event


def roll_freak_event(dice: Dice, limit: int = 100) -> str:
    """Roll the d20 until it shows an entry (the text has no 16, so a 16 is rolled again)."""
    for _ in range(limit):
        event = t.FREAK_EVENT_BY_ROLL.get(dice.roll(D20, "freak event"))
        if event is not None:
            return event
    raise RulesError("the freak event die showed 16 every time")


def end_game_needs(turn: int) -> int | None:
    """Return the d10 score that ends the battle after `turn`, or None before the rolls start.

    After turn 6 a 10 ends it, after turn 7 a 9 or 10, and so on; a 1 never ends it.
    """
    if turn < t.END_GAME_FIRST_TURN:
        return None
    return max(2, t.END_GAME_DIE - (turn - t.END_GAME_FIRST_TURN))


def game_ends(turn: int, dice: Dice) -> tuple[bool, int | None]:
    """Roll the end-of-game d10 after `turn`; return (ends, the roll or None)."""
    needs = end_game_needs(turn)
    if needs is None:
        return False, None
    roll = dice.roll(t.END_GAME_DIE, "end of game")
    return roll >= needs, roll


def describe(tables: t.GGTables) -> str:
    """The deck in a sentence, with the Joker's bonus of `tables` (a club may change it)."""
    return (
        "A card per unit each turn, Aces high, suits spades-hearts-diamonds-clubs; Jokers act "
        f"any time at {tables.JOKER_BONUS:+d} and roll an event; reshuffle after a Joker."
    )


def build_methods(tables: t.GGTables) -> dict[str, ActivationMethod]:
    """The system's activation methods by key, dealing and drawing with `tables`."""
    deck = ActivationMethod(
        "action_deck",
        "54-card action deck",
        start,
        partial(draw, tables=tables),
        describe(tables),
    )
    return {deck.name: deck}


#: The system's activation methods by key (`RuleSystem.activation`), as written.
METHODS = build_methods(t.BASE)
ACTION_DECK = METHODS["action_deck"]
