"""Escarmouche's shooting and fighting checks, with the special shots and special fights.

The actor (shooter or attacker) rolls its pool, then the defender rolls its dice. Effects of a
win come from the effects tables; the actor's 1s decide its initiative (in `details`).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rules.checks import Check, Effect, Outcome, Who
from rules.dice import Dice
from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.systems.escarmouche.checks import (
    ACTIVE,
    COVER,
    MAX_FIGURES,
    ONES_BEFORE,
    RATING,
    RESERVED,
    SHAKEN,
    Contest,
    Params,
    Pool,
    base_pool,
    bool_field,
    contest_weights,
    fold,
    initiative_of,
    int_field,
    loser_effects,
    penalised,
    rating_field,
    run_contest,
    skill_field,
    spent_reserve,
    weapon_field,
)
from rules.systems.escarmouche.pool import KEEPS_INITIATIVE
from rules.systems.escarmouche.tables import (
    FIGHTING_EFFECTS,
    SHOOTING_EFFECTS,
    WEAPON_BY_KEY,
    EffectRow,
    effect_row,
    hits_for,
)

PoolOf = Callable[[Params], Pool]
DefenceOf = Callable[[Params], int]


def cached_odds(
    odds: Callable[[Params], dict[str, Fraction]],
) -> Callable[[Params], dict[str, Fraction]]:
    """Memoise an odds function on its (hashable) validated parameters."""

    @lru_cache(maxsize=4096)
    def by_items(items: tuple[tuple[str, Any], ...]) -> dict[str, Fraction]:
        return odds(dict(items))

    def wrapper(params: Params) -> dict[str, Fraction]:
        return dict(by_items(tuple(sorted(params.items()))))

    return wrapper


# --- shooting -----------------------------------------------------------------------------

NO_EFFECT = "no_effect"
SHOT_OUTCOMES = (NO_EFFECT, *(row.key for row in SHOOTING_EFFECTS))
TARGET_RATING = rating_field("target_rating", "Target's rating")


def _shot_key(winner: str | None, diff: int) -> str:
    # Only a shooter who beats the target (or ties it with a higher rating) has any effect.
    return effect_row(SHOOTING_EFFECTS, diff).key if winner == "attacker" else NO_EFFECT


def _shot_effects(contest: Contest) -> tuple[tuple[Effect, ...], int]:
    if contest.winner != "attacker":
        return (), 0
    hits = hits_for(SHOOTING_EFFECTS, contest.diff)
    return loser_effects(effect_row(SHOOTING_EFFECTS, contest.diff), hits, "target"), hits


def shot_check(
    name: str, title: str, params: Schema, pool_of: PoolOf, *, description: str, skill: str
) -> Check:
    """Build a shooting check from the way it makes up the shooter's pool."""

    def resolve(values: Params, dice: Dice) -> Outcome:
        pool = pool_of(values)
        rating = values["target_rating"]
        contest = run_contest(dice, pool, values["rating"], rating, rating)
        effects, hits = _shot_effects(contest)
        details = {**contest.details(initiative_of(values, contest.roll)), "hits": hits}
        return Outcome(
            _shot_key(contest.winner, contest.diff), details, effects + spent_reserve(values)
        )

    def odds(values: Params) -> dict[str, Fraction]:
        pool = pool_of(values)
        rating = values["target_rating"]
        weights = contest_weights(pool.active, values["rating"], rating, rating)
        return fold(weights, _shot_key, SHOT_OUTCOMES)

    return Check(
        name,
        title,
        params,
        SHOT_OUTCOMES,
        resolve,
        cached_odds(odds),
        description=description,
        skill=skill,
        dice_order="shooter's active dice, shooter's passive dice, then the target's "
        "dice (one per rating)",
    )


def _replaced_in_shot(values: Params) -> int:
    return int(values["shaken"]) + int(values["cover"])


def _shoot_pool(values: Params) -> Pool:
    return penalised(
        base_pool(values),
        replaced=_replaced_in_shot(values),
        added=WEAPON_BY_KEY[values["weapon"]].passive,
        skill=values["skill"],
    )


SHOOT = shot_check(
    "shoot",
    "Shoot",
    Schema(
        (
            ACTIVE,
            weapon_field(),
            skill_field("skill", "Shooter"),
            SHAKEN,
            COVER,
            RATING,
            TARGET_RATING,
            ONES_BEFORE,
            RESERVED,
        )
    ),
    _shoot_pool,
    skill="shooter",
    description="Pool so far plus one; Shaken and cover swap active for passive dice; the "
    "weapon adds passive dice; Shooter rolls passive dice as active.",
)


def _volley_pool(values: Params) -> Pool:
    active = values["active"] + 1 + values["shooters"]
    return penalised(
        active,
        replaced=_replaced_in_shot(values),
        added=WEAPON_BY_KEY[values["weapon"]].passive,
        skill=values["leader"],
    )


VOLLEY = shot_check(
    "volley",
    "Volley fire",
    Schema(
        (
            ACTIVE,
            int_field(
                "shooters",
                "Other shooters",
                1,
                1,
                MAX_FIGURES,
                "Other shooters in sight of the target: one active die each.",
            ),
            weapon_field(),
            skill_field("leader", "Leader"),
            SHAKEN,
            COVER,
            RATING,
            TARGET_RATING,
            ONES_BEFORE,
        )
    ),
    _volley_pool,
    skill="leader",
    description="One figure directs a group: an active die per other shooter, the slowest "
    "weapon's passive dice, Leader rolls passive dice as active.",
)


def _artillery_pool(values: Params) -> Pool:
    # The Artillerist bonus is the cannon's own rule: it adds active dice and is not also
    # used to swap passive dice (that would count the same skill twice).
    active = base_pool(values) + values["artillerist"]
    return penalised(
        active, replaced=_replaced_in_shot(values), added=WEAPON_BY_KEY["cannon"].passive
    )


ARTILLERY = shot_check(
    "artillery",
    "Artillery",
    Schema(
        (
            ACTIVE,
            skill_field("artillerist", "Artillerist"),
            SHAKEN,
            COVER,
            RATING,
            TARGET_RATING,
            ONES_BEFORE,
            RESERVED,
        )
    ),
    _artillery_pool,
    skill="artillerist",
    description="A cannon shot: the cannon's passive dice, plus active dice equal to the "
    "Artillerist skill.",
)


# --- fighting -----------------------------------------------------------------------------

STAND_OFF = "stand_off"
_FIGHT_ROWS = tuple(row.key for row in FIGHTING_EFFECTS)
FIGHT_OUTCOMES = (
    STAND_OFF,
    *(f"defender_{k}" for k in _FIGHT_ROWS),
    *(f"attacker_{k}" for k in _FIGHT_ROWS),
)


def one_side_outnumbers(values: dict[str, Any]) -> dict[str, Any]:
    if values["attackers"] > 1 and values["defenders"] > 1:
        raise ValidationError(
            {"attackers": "fights are one against one or many against one, never many against many"}
        )
    return values


def fight_fields(skill_label: str, defence_label: str) -> tuple[Field, ...]:
    """The parameters every fight shares; skill labels name the skill that fits."""
    return (
        ACTIVE,
        RATING,
        skill_field("skill", f"Attacker's {skill_label}"),
        int_field(
            "attackers",
            "Attacking figures",
            1,
            1,
            MAX_FIGURES,
            "Figures on the attacking side: one active die for each beyond the first.",
        ),
        int_field(
            "defenders",
            "Defending figures",
            1,
            1,
            MAX_FIGURES,
            "Figures on the defending side: one defence die for each beyond the first.",
        ),
        bool_field("uphill", "Defender uphill", "The defender is uphill of the attacker."),
        bool_field("cover", "Defender in cover", "The defender has cover."),
        bool_field("weaponless", "Attacker weaponless", "The attacker is weaponless or disarmed."),
        SHAKEN,
        rating_field("defender_rating", "Defender's rating"),
        skill_field("defender_skill", f"Defender's {defence_label}"),
        ONES_BEFORE,
        RESERVED,
    )


def fight_pool(values: Params, bonus: int = 0) -> Pool:
    """The attacker's pool: the action, outnumbering and any bonus, then penalties and skill."""
    active = base_pool(values) + values["attackers"] - 1 + bonus
    replaced = (
        int(values["uphill"]) + int(values["cover"]) + int(values["weaponless"]) + values["shaken"]
    )
    return penalised(active, replaced=replaced, skill=values["skill"])


def defence_dice(values: Params, bonus: int = 0) -> int:
    """The defender's dice: rating or a better skill, plus outnumbering and any bonus."""
    best = max(int(values["defender_rating"]), int(values["defender_skill"]))
    return best + int(values["defenders"]) - 1 + bonus


def _fight_key(winner: str | None, diff: int) -> str:
    if winner is None:
        return STAND_OFF
    loser = "defender" if winner == "attacker" else "attacker"
    return f"{loser}_{effect_row(FIGHTING_EFFECTS, diff).key}"


def fight_result(contest: Contest) -> tuple[EffectRow | None, int, Who | None]:
    """Return the effects row, hits and losing figure ('target' = defender) of a fight."""
    if contest.winner is None:
        return None, 0, None
    loser: Who = "target" if contest.winner == "attacker" else "actor"
    return (
        effect_row(FIGHTING_EFFECTS, contest.diff),
        hits_for(FIGHTING_EFFECTS, contest.diff),
        loser,
    )


def fight_details(values: Params, contest: Contest) -> dict[str, Any]:
    """Details of a fight: the contest, hits, who is pushed back."""
    row, hits, loser = fight_result(contest)
    pushed = {"actor": "attacker", "target": "defender", None: None}[loser] if row else None
    return {
        **contest.details(initiative_of(values, contest.roll)),
        "hits": hits,
        "pushed_back": pushed,
    }


def fight_check(
    name: str,
    title: str,
    fields: tuple[Field, ...],
    *,
    skill: str,
    description: str,
    after: Callable[[Params, Contest], dict[str, Any]],
) -> Check:
    """Build an ordinary fight check; `after` adds the variant's own details."""

    def resolve(values: Params, dice: Dice) -> Outcome:
        contest = run_contest(
            dice,
            fight_pool(values),
            values["rating"],
            defence_dice(values),
            values["defender_rating"],
        )
        row, hits, loser = fight_result(contest)
        effects = loser_effects(row, hits, loser) if row and loser else ()
        details = {**fight_details(values, contest), **after(values, contest)}
        return Outcome(
            _fight_key(contest.winner, contest.diff), details, effects + spent_reserve(values)
        )

    def odds(values: Params) -> dict[str, Fraction]:
        weights = contest_weights(
            fight_pool(values).active,
            values["rating"],
            defence_dice(values),
            values["defender_rating"],
        )
        return fold(weights, _fight_key, FIGHT_OUTCOMES)

    return Check(
        name,
        title,
        Schema(fields, clean=one_side_outnumbers),
        FIGHT_OUTCOMES,
        resolve,
        cached_odds(odds),
        description=description,
        skill=skill,
        dice_order="attacker's active dice, attacker's passive dice, then the defender's dice",
    )


FIGHT = fight_check(
    "fight",
    "Fight",
    fight_fields("Fighter", "Fighter"),
    skill="fighter",
    after=lambda values, contest: {},
    description="Pool so far plus one, plus one per extra attacker; uphill, cover, weaponless "
    "and Shaken swap active for passive dice; the winner applies the table.",
)


def _fencing_details(values: Params, contest: Contest) -> dict[str, Any]:
    won = contest.winner == "attacker"
    keeps = initiative_of(values, contest.roll) == KEEPS_INITIATIVE
    return {"may_fight_on_without_pikes": won and keeps}


PIKE_FENCING = fight_check(
    "pike_fencing",
    "Pike fencing",
    fight_fields("Pike trailer", "Pike trailer"),
    skill="pike_trailer",
    after=_fencing_details,
    description="Pike against pike is an ordinary fight; a winner who keeps the initiative may "
    "cross the loser's zone and fight on without pikes.",
)
