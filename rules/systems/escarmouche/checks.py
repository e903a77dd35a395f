"""Escarmouche's checks: the pool roll, moves, marshalling, developing, shooting and fighting.

Every check rolls one pool for the acting figure (active dice, then passive dice) and, when
opposed, the defender's dice after it. Odds come from `pool.py`'s closed forms, cached per pool
size, so no check enumerates dice.

A check that reads a table a club may edit (terrain, weapon classes, effects, the rating and
skill limits) is built by a `build_*` function from a tables snapshot (`EscarmoucheTables`):
once for the rules as written, and again for each house-rules pack (`house.py`'s built_from).
It reads its tables (`tables.NAME`) when it is built and keeps them: the pack's system has
checks of its own, and a shot or a move, run a hundred thousand times a second, does no table
lookup at all.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal, NamedTuple

from rules.checks import Check, Effect, Outcome, Resolver, Who
from rules.dice import D6, Dice, hand
from rules.errors import ValidationError
from rules.plans import PlannedCheck, new_outcome, planned
from rules.schema import Field, Schema
from rules.systems.escarmouche import tables as t
from rules.systems.escarmouche.pool import (
    INITIATIVE_OUTCOMES,
    KEEPS_INITIATIVE,
    MAX_POOL,
    ONES_CAP,
    SIDE_ENDS,
    initiative,
    pool_weights,
    score_weights,
)
from rules.systems.escarmouche.tables import MARSHAL_RESULTS, EffectRow

Params = Mapping[str, Any]
MAX_MARKERS = 10
MAX_FIGURES = 10
#: The initiative result of a reserved action: it interrupts the other side's turn, so its
#: ones cost nothing and play returns to the side that has the initiative.
NOT_AT_STAKE = "not_at_stake"


class Pool(NamedTuple):
    """How many active and passive dice the acting figure rolls."""

    active: int
    passive: int


#: (active, passive) as a plain tuple: shots and fights make one on every check.
PoolDice = tuple[int, int]


def penalised(active: int, *, replaced: int = 0, added: int = 0, skill: int = 0) -> Pool:
    """Apply the text's order: penalties replace active dice, then skill turns passive back."""
    return Pool(*swap_dice(active, replaced, added, skill))


def swap_dice(active: int, replaced: int, added: int, skill: int) -> PoolDice:
    """Apply the text's order: penalties replace active dice, then skill turns passive back.

    A replacement never adds dice: once every active die is passive, further penalties have
    nothing left to replace. Each skill point rolls one passive die (any kind) as active.
    Positional and without min(): every shot and fight calls it.
    """
    swapped = replaced if replaced < active else active
    passive = swapped + added
    back = skill if skill < passive else passive
    return active - swapped + back, passive - back


# --- parameters --------------------------------------------------------------------------


def int_field(name: str, label: str, default: int, low: int, high: int, help: str) -> Field:
    return Field(name, "int", label, default=default, min=low, max=high, help=help)


def bool_field(name: str, label: str, help: str) -> Field:
    return Field(name, "bool", label, default=False, help=help)


ACTIVE = int_field(
    "active",
    "Active dice so far",
    0,
    0,
    MAX_POOL,
    "Active dice the figure has built up this turn before this action.",
)
ONES_BEFORE = int_field(
    "ones_before",
    "Side's 1s so far",
    0,
    0,
    1,
    "1 if one of the side's figures already lost its turn to a single 1.",
)
SHAKEN = int_field("shaken", "Shaken markers", 0, 0, MAX_MARKERS, "Shaken markers on the actor.")
COVER = bool_field("cover", "Target in cover", "The target has taken cover.")
RESERVED = bool_field(
    "reserved",
    "Reserved action",
    "Spend a reserved die: the pool is that one active die; no initiative at stake.",
)


def actor_rating(tables: t.EscarmoucheTables) -> Field:
    """The acting figure's rating, up to the club's maximum."""
    return int_field(
        "rating", "Rating", 3, 1, tables.MAX_RATING, "The actor's rating (breaks ties)."
    )


def terrain_field(tables: t.EscarmoucheTables) -> Field:
    """The ground moved through: the club's terrain table, with each row's passive dice."""
    terrain: tuple[t.Row, ...] = tables.TERRAIN
    return Field(
        "terrain",
        "choice",
        "Terrain",
        default=t.default_key(terrain, t.DEFAULT_TERRAIN),
        choices=tuple((row.key, f"{row.label} ({row.passive})") for row in terrain),
    )


def skill_field(tables: t.EscarmoucheTables, name: str, label: str) -> Field:
    return int_field(
        name, label, 0, 0, tables.MAX_SKILL, f"{label} skill: passive dice rolled as active."
    )


def rating_field(tables: t.EscarmoucheTables, name: str, label: str) -> Field:
    return int_field(
        name, label, 3, 1, tables.MAX_RATING, f"{label}: dice rolled in defence; breaks ties."
    )


def weapon_field(tables: t.EscarmoucheTables) -> Field:
    """The missile weapon's class: the club's weapon table, with each class's passive dice."""
    weapons: tuple[t.Row, ...] = tables.WEAPONS
    return Field(
        "weapon",
        "choice",
        "Weapon",
        default=t.default_key(weapons, t.DEFAULT_WEAPON),
        choices=tuple((row.key, f"{row.label} ({row.passive})") for row in weapons),
    )


def base_pool(params: Params) -> int:
    """The action's active dice: the pool so far plus one, or just the reserved die."""
    return 1 if params.get("reserved") else params["active"] + 1


#: What a pool's 1s do to the initiative: no 1, one 1, two or more.
Initiatives = tuple[str, str, str]
_NOT_AT_STAKE: Initiatives = (NOT_AT_STAKE, NOT_AT_STAKE, NOT_AT_STAKE)


def initiatives(params: Params) -> Initiatives:
    """What each count of 1s does to the acting figure's initiative, worked out once a plan."""
    if params.get("reserved"):
        return _NOT_AT_STAKE
    return KEEPS_INITIATIVE, initiative(1, params["ones_before"]), SIDE_ENDS


#: Built once: effects are immutable, so every check spending its reserved die shares them.
SPENT_RESERVE = (Effect("actor", "reserved", "set", False, "reserved die spent"),)


def spent_reserve(params: Params) -> tuple[Effect, ...]:
    return SPENT_RESERVE if params.get("reserved") else ()


# --- the pool itself -----------------------------------------------------------------------


def _need_dice(values: dict[str, Any]) -> dict[str, Any]:
    if values["active"] + values["passive"] < 1:
        raise ValidationError({"active": "a roll needs at least one die"})
    return values


POOL_PARAMS = Schema(
    (
        int_field("active", "Active dice", 1, 0, MAX_POOL, "Active dice in the roll."),
        int_field("passive", "Passive dice", 0, 0, MAX_POOL, "Passive (penalty) dice in the roll."),
        ONES_BEFORE,
    ),
    clean=_need_dice,
)


#: A rolled pool: its details (`PoolRoll.as_json`'s shape), score and 1s.
PoolRolled = tuple[dict[str, Any], int, int]


def pool_roller(active_dice: int, passive_dice: int) -> Callable[[Dice], PoolRolled]:
    """The rolls of `pool.roll_pool` (same dice, order and labels), planned for one pool.

    A lone active die (a figure's first action, a development) is one `roll`, cheaper than
    `roll_many` for the same value and record.
    """

    def lone(dice: Dice) -> PoolRolled:
        value = dice.roll(D6, "active")
        ones = 1 if value == 1 else 0
        return {"active": [value], "passive": [], "score": value, "ones": ones}, value, ones

    # The active dice, then the passive dice: one hand, rolled in one call.
    pool = hand(D6, ("active",) * active_dice + ("passive",) * passive_dice)

    def roll(dice: Dice) -> PoolRolled:
        values = dice.roll_hand(pool)
        active, passive = values[:active_dice], values[active_dice:]
        sixes = active.count(6)  # `score_of`: the highest, or 6 plus one per extra six
        score = 5 + sixes if sixes else max(active) if active else 0
        ones = active.count(1) + passive.count(1)
        rolled = {"active": active, "passive": passive, "score": score, "ones": ones}
        return rolled, score, ones

    return lone if active_dice == 1 and not passive_dice else roll


def _pool_plan(params: Params) -> Resolver:
    roll, by_ones = pool_roller(params["active"], params["passive"]), initiatives(params)

    def pool(params: Params, dice: Dice) -> Outcome:
        rolled, score, ones = roll(dice)
        details = {"roll": rolled, "score": score}
        return new_outcome(Outcome, (by_ones[ones if ones < 2 else 2], details, ()))

    return pool


@lru_cache(maxsize=4096)
def _initiative_odds(active: int, passive: int, ones_before: int) -> dict[str, Fraction]:
    total = 6 ** (active + passive)
    odds = dict.fromkeys(INITIATIVE_OUTCOMES, Fraction(0))
    for (_, ones), weight in pool_weights(active, passive):
        odds[initiative(ones, ones_before)] += Fraction(weight, total)
    return odds


def _pool_odds(params: Params) -> dict[str, Fraction]:
    return _initiative_odds(params["active"], params["passive"], params["ones_before"])


POOL = planned(
    "pool",
    "Active/passive pool",
    POOL_PARAMS,
    INITIATIVE_OUTCOMES,
    _pool_plan,
    _pool_odds,
    description="Score the highest active die (+1 per extra six); 1s on any die cost initiative.",
    dice_order="active dice, then passive dice",
)


# --- opposed rolls -----------------------------------------------------------------------


def contest(score: int, rating: int, defence: int, defence_rating: int) -> tuple[str | None, int]:
    """Return the winner ('attacker'/'defender', or None) and the difference of the scores."""
    if score != defence:
        return ("attacker" if score > defence else "defender"), abs(score - defence)
    if rating == defence_rating:
        return None, 0
    return ("attacker" if rating > defence_rating else "defender"), 0


@lru_cache(maxsize=8192)
def contest_weights(
    active: int, rating: int, defence_dice: int, defence_rating: int
) -> tuple[tuple[tuple[str | None, int], int], ...]:
    """Count (winner, difference) over every roll of the active and defence dice."""
    counts: dict[tuple[str | None, int], int] = {}
    for score, weight in score_weights(active):
        for defence, ways in score_weights(defence_dice):
            key = contest(score, rating, defence, defence_rating)
            counts[key] = counts.get(key, 0) + weight * ways
    return tuple(counts.items())


def fold(
    weights: tuple[tuple[tuple[str | None, int], int], ...],
    classify: Callable[[str | None, int], str],
    keys: tuple[str, ...],
) -> dict[str, Fraction]:
    """Fold contest counts into outcome keys."""
    total = sum(weight for _, weight in weights)
    odds = dict.fromkeys(keys, Fraction(0))
    for (winner, diff), weight in weights:
        odds[classify(winner, diff)] += Fraction(weight, total)
    return odds


OPPOSED_OUTCOMES = ("roller_wins", "defender_wins", "tie")


def _opposed_key(winner: str | None, diff: int) -> str:
    return _OPPOSED_KEYS[winner]


_OPPOSED_KEYS = {"attacker": "roller_wins", "defender": "defender_wins", None: "tie"}


def _opposed_plan(params: Params) -> Resolver:
    roll, by_ones = pool_roller(params["active"], params["passive"]), initiatives(params)
    defence_dice, rating = params["defender_dice"], params["rating"]
    defence_rating = params["defender_rating"]

    def opposed(params: Params, dice: Dice) -> Outcome:
        rolled, score, ones = roll(dice)
        defence = defence_score(dice.roll_many(defence_dice, D6, "defender"))
        winner, diff = contest(score, rating, defence, defence_rating)
        details = {"roll": rolled, "score": score, "defender_score": defence, "diff": diff}
        details["initiative"] = by_ones[ones if ones < 2 else 2]
        return new_outcome(Outcome, (_opposed_key(winner, diff), details, ()))

    return opposed


def defence_score(rolled: tuple[int, ...]) -> int:
    """`score_of` the defender's dice, written out: every opposed roll scores them."""
    sixes = rolled.count(6)
    return 5 + sixes if sixes else max(rolled) if rolled else 0


def _opposed_odds(params: Params) -> dict[str, Fraction]:
    weights = contest_weights(
        params["active"], params["rating"], params["defender_dice"], params["defender_rating"]
    )
    return fold(weights, _opposed_key, OPPOSED_OUTCOMES)


def build_opposed(tables: t.EscarmoucheTables) -> PlannedCheck:
    """The opposed roll, its ratings limited by the club's maximum."""
    params = Schema(
        (
            int_field("active", "Active dice", 1, 0, MAX_POOL, "The roller's active dice."),
            int_field("passive", "Passive dice", 0, 0, MAX_POOL, "The roller's passive dice."),
            actor_rating(tables),
            int_field(
                "defender_dice",
                "Defender's dice",
                3,
                1,
                MAX_POOL,
                "Dice the defender rolls: its rating, or a better skill, plus any bonus.",
            ),
            rating_field(tables, "defender_rating", "Defender's rating"),
            ONES_BEFORE,
        ),
        clean=_need_dice,
    )
    return planned(
        "opposed",
        "Opposed roll",
        params,
        OPPOSED_OUTCOMES,
        _opposed_plan,
        _opposed_odds,
        description="Highest active scores meet; a tied score goes to the higher rating.",
        dice_order="roller's active dice, roller's passive dice, then the defender's dice",
    )


# --- moving, marshalling, developing, reserving ------------------------------------------


#: Terrain key -> the passive dice it adds (the table a move or a marshal check was built with).
TerrainDice = Mapping[str, int]


def _move_pool(terrain: TerrainDice) -> Callable[[Params], Pool]:
    def pool(params: Params) -> Pool:
        # Shaken adds a passive die here: a move has no active die of its own to replace.
        return Pool(params["active"], terrain[params["terrain"]] + params["shaken"])

    return pool


def _initiative_roll_plan(
    pool_of: Callable[[Params], Pool], effects_of: Callable[[Params], tuple[Effect, ...]]
) -> Callable[[Params], Resolver]:
    def plan(params: Params) -> Resolver:
        roll, by_ones = pool_roller(*pool_of(params)), initiatives(params)
        effects = effects_of(params)

        def initiative_roll(params: Params, dice: Dice) -> Outcome:
            rolled, score, ones = roll(dice)
            details = {"roll": rolled, "score": score}
            return new_outcome(Outcome, (by_ones[ones if ones < 2 else 2], details, effects))

        return initiative_roll

    return plan


def _initiative_roll_odds(
    pool_of: Callable[[Params], Pool],
) -> Callable[[Params], dict[str, Fraction]]:
    def odds(params: Params) -> dict[str, Fraction]:
        if params.get("reserved"):
            return {NOT_AT_STAKE: Fraction(1)}
        pool = pool_of(params)
        return _initiative_odds(pool.active, pool.passive, params["ones_before"])

    return odds


def build_move(tables: t.EscarmoucheTables) -> PlannedCheck:
    """The move, over the club's terrain."""
    pool_of = _move_pool(tables.TERRAIN_PASSIVE)
    return planned(
        "move",
        "Move",
        Schema((ACTIVE, terrain_field(tables), SHAKEN, ONES_BEFORE)),
        INITIATIVE_OUTCOMES,
        _initiative_roll_plan(pool_of, lambda params: ()),
        _initiative_roll_odds(pool_of),
        description="Roll the pool so far plus the terrain's passive dice (moving adds no active).",
        dice_order="active dice so far, then passive dice (terrain, then one per Shaken marker)",
    )


MARSHAL_OUTCOMES = tuple(key for _, key, _ in MARSHAL_RESULTS)


def _marshal_pool(terrain: TerrainDice) -> Callable[[Params], Pool]:
    def pool(params: Params) -> Pool:
        ground = terrain[params["terrain"]]
        # Leader swaps the dice the followers add; the swap changes colours, never the count.
        led = min(params["leader"], params["followers"])
        return Pool(params["active"] + led, ground + params["followers"] - led + params["shaken"])

    return pool


def _marshal_key(ones: int, ones_before: int) -> str:
    if ones == 1 and ones_before:
        return "move_side_ends"  # the side's second 1 ends its turn, as a double 1 does
    return MARSHAL_RESULTS[min(ones, ONES_CAP)][1]


def _marshal_plan(pool_of: Callable[[Params], Pool]) -> Callable[[Params], Resolver]:
    def plan(params: Params) -> Resolver:
        roll = pool_roller(*pool_of(params))
        # The result of each count of 1s: none, one, two, three or more.
        by_ones = [_marshal_key(ones, params["ones_before"]) for ones in range(ONES_CAP + 1)]

        def marshal(params: Params, dice: Dice) -> Outcome:
            rolled, score, ones = roll(dice)
            key = by_ones[ones if ones < ONES_CAP else ONES_CAP]
            details = {"roll": rolled, "score": score, "moved": key != "no_move"}
            return new_outcome(Outcome, (key, details, ()))

        return marshal

    return plan


def _marshal_odds(pool_of: Callable[[Params], Pool]) -> Callable[[Params], dict[str, Fraction]]:
    def odds(params: Params) -> dict[str, Fraction]:
        pool = pool_of(params)
        total = 6 ** (pool.active + pool.passive)
        result = dict.fromkeys(MARSHAL_OUTCOMES, Fraction(0))
        for (_, ones), weight in pool_weights(pool.active, pool.passive):
            result[_marshal_key(ones, params["ones_before"])] += Fraction(weight, total)
        return result

    return odds


def build_marshal(tables: t.EscarmoucheTables) -> PlannedCheck:
    """Marshalling, over the club's terrain, with Leader up to the club's maximum skill."""
    params = Schema(
        (
            ACTIVE,
            terrain_field(tables),
            int_field(
                "followers",
                "Figures marshalled",
                1,
                1,
                MAX_FIGURES,
                "Other figures in sight moved with the marshal: one passive die each.",
            ),
            skill_field(tables, "leader", "Leader"),
            SHAKEN,
            ONES_BEFORE,
        )
    )
    pool_of = _marshal_pool(tables.TERRAIN_PASSIVE)
    return planned(
        "marshal",
        "Marshal",
        params,
        MARSHAL_OUTCOMES,
        _marshal_plan(pool_of),
        _marshal_odds(pool_of),
        description="Move with other figures in sight; the 1s rolled decide who moves and who "
        "ends.",
        dice_order="active dice (pool so far, then Leader swaps), then passive dice",
        skill="leader",
    )


DEVELOP_PURPOSES = (
    ("other", "Anything else: load, aim, hide, signal, light a fire ..."),
    ("remove_shaken", "Steady: remove a Shaken marker"),
    ("rearm", "Take up a weapon: remove Disarmed"),
    ("stand_up", "Stand up from prone (leaves cover)"),
    ("take_cover", "Take cover"),
)
_DEVELOP_EFFECTS: dict[str, tuple[tuple[str, Literal["add", "set"], Any], ...]] = {
    "other": (),
    "remove_shaken": (("shaken", "add", -1),),
    "rearm": (("disarmed", "set", False),),
    "stand_up": (("prone", "set", False), ("cover", "set", False)),
    "take_cover": (("cover", "set", True),),
}


def _clean_develop(values: dict[str, Any]) -> dict[str, Any]:
    if values["purpose"] == "remove_shaken" and values["shaken"] < 1:
        raise ValidationError({"purpose": "there is no Shaken marker to remove"})
    return values


DEVELOP_PARAMS = Schema(
    (
        ACTIVE,
        Field("purpose", "choice", "Purpose", default="other", choices=DEVELOP_PURPOSES),
        SHAKEN,
        ONES_BEFORE,
        RESERVED,
    ),
    clean=_clean_develop,
)


def _develop_pool(params: Params) -> Pool:
    return Pool(base_pool(params), params["shaken"])


def _develop_effects(params: Params) -> tuple[Effect, ...]:
    # The described action always happens; the roll only says whether the figure acts on.
    return _developed(params["purpose"], bool(params.get("reserved")))


@lru_cache(maxsize=64)
def _developed(purpose: str, reserved: bool) -> tuple[Effect, ...]:
    """A development's effects, built once per purpose (effects are immutable, and a figure
    develops on most of its goes)."""
    changes = tuple(
        Effect("actor", key, op, value, purpose) for key, op, value in _DEVELOP_EFFECTS[purpose]
    )
    return changes + (SPENT_RESERVE if reserved else ())


DEVELOP = planned(
    "develop",
    "Develop",
    DEVELOP_PARAMS,
    (*INITIATIVE_OUTCOMES, NOT_AT_STAKE),
    _initiative_roll_plan(_develop_pool, _develop_effects),
    _initiative_roll_odds(_develop_pool),
    description="Any other action; it always happens and adds an active die to the pool.",
    dice_order="active dice (pool so far plus one), then one passive die per Shaken marker",
)


def _resolve_reserve(params: Params, dice: Dice) -> Outcome:
    return Outcome(
        "reserved",
        {"pool_after": 1},
        (Effect("actor", "reserved", "set", True, "one active die held back"),),
    )


RESERVE = Check(
    "reserve",
    "Reserve an action",
    Schema((ACTIVE,)),
    ("reserved",),
    _resolve_reserve,
    lambda params: {"reserved": Fraction(1)},
    description="End the turn keeping one active die to interrupt the enemy's turn with.",
    dice_order="no dice",
)


# --- effects of a won roll ----------------------------------------------------------------


def loser_effects(row: EffectRow, hits: int, loser: Who) -> tuple[Effect, ...]:
    """Turn an effects-table row into state changes on the losing figure."""
    effects: list[Effect] = []
    if hits:
        effects.append(Effect(loser, "wounds", "add", -hits, f"{hits} hit(s)"))
    if row.shaken:
        effects.append(Effect(loser, "shaken", "add", 1, "Shaken marker"))
    if row.disarmed:
        effects.append(Effect(loser, "disarmed", "set", True, "Disarmed marker"))
    if row.prone:
        effects.append(Effect(loser, "prone", "set", True, "cowered"))
        effects.append(Effect(loser, "cover", "set", True, "went prone in cover"))
    return tuple(effects)


#: A contest's result by who won, by how much and whether the actor keeps the initiative: the
#: outcome key, its effects and what it adds to the contest's details. It depends on those
#: three values alone (and on the tables the check was built with), so each check memoises it.
Judge = Callable[[str | None, int, bool], tuple[str, tuple[Effect, ...], dict[str, Any]]]


def contest_plan(
    values: Params,
    pool: PoolDice,
    rating: int,
    defence_dice: int,
    defence_rating: int,
    judge: Judge,
) -> Resolver:
    """Plan a shot or a fight: the actor's pool, then the defence, judged by `judge`.

    Every shot and fight runs through here, so the roll is kept flat: the pool is rolled and
    scored and the details dict (its `roll` shaped as `PoolRoll.as_json`) built directly, with
    no roll or contest objects in between; who wins a tied score, what each count of 1s does
    and the reserved die spent are worked out here, once. The actor's active dice, its
    passive dice and the defender's dice are one hand (`rules.dice.hand`), rolled in one call.
    """
    active_dice, passive_dice = pool
    by_ones, reserve = initiatives(values), spent_reserve(values)
    tie = contest(0, rating, 0, defence_rating)[0]  # who a tied score goes to, if anyone
    labels = ("active",) * active_dice + ("passive",) * passive_dice
    rolls = hand(D6, labels + ("defender",) * defence_dice)
    pooled = active_dice + passive_dice

    def contested(values: Params, dice: Dice) -> Outcome:
        rolled = dice.roll_hand(rolls)
        active, passive, defended = (
            rolled[:active_dice],
            rolled[active_dice:pooled],
            rolled[pooled:],
        )
        # `score_of` each side's dice: the highest, or 6 plus one per six after the first.
        sixes = active.count(6)
        score = 5 + sixes if sixes else max(active) if active else 0
        sixes = defended.count(6)
        defence = 5 + sixes if sixes else max(defended) if defended else 0
        ones = active.count(1) + passive.count(1)
        winner: str | None
        if score > defence:
            winner, diff = "attacker", score - defence
        elif score < defence:
            winner, diff = "defender", defence - score
        else:
            winner, diff = tie, 0
        initiative = by_ones[ones if ones < 2 else 2]
        pool_roll = {"active": active, "passive": passive, "score": score, "ones": ones}
        key, effects, extra = judge(winner, diff, initiative == KEEPS_INITIATIVE)
        details = {
            "roll": pool_roll,
            "score": score,
            "defender_score": defence,
            "winner": winner,
            "diff": diff,
            "initiative": initiative,
            **extra,  # what the judge adds, merged as the dict is built (no `update` call)
        }
        return new_outcome(Outcome, (key, details, effects + reserve))

    return contested
