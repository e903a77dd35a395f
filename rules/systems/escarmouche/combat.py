"""Escarmouche's shooting and fighting checks, with the special shots and special fights.

The actor (shooter or attacker) rolls its pool, then the defender rolls its dice. Effects of a
win come from the effects tables; the actor's 1s decide its initiative (in `details`). Each
check is built (`build_*`) with a tables snapshot, the club's under a house-rules pack, and
keeps it: its verdicts and pools are made once from the snapshot, never per shot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from functools import cache, lru_cache
from typing import Any

from rules.checks import Effect, Resolver, Who, odds_key
from rules.errors import ValidationError
from rules.plans import PlannedCheck, planned
from rules.schema import Field, Schema
from rules.systems.escarmouche import tables as t
from rules.systems.escarmouche.checks import (
    ACTIVE,
    COVER,
    MAX_FIGURES,
    ONES_BEFORE,
    RESERVED,
    SHAKEN,
    Judge,
    Params,
    PoolDice,
    actor_rating,
    base_pool,
    bool_field,
    contest_plan,
    contest_weights,
    fold,
    int_field,
    loser_effects,
    rating_field,
    skill_field,
    swap_dice,
    weapon_field,
)
from rules.systems.escarmouche.tables import CANNON, EffectsTable

PoolOf = Callable[[Params], PoolDice]
#: A contest judged: its outcome key, effects and the details it adds (see `checks.Judge`).
Judged = tuple[str, tuple[Effect, ...], dict[str, Any]]
DefenceOf = Callable[[Params], int]
#: Weapon class -> the passive dice it adds to a shot (the table a shot was built with).
WeaponDice = Mapping[str, int]
#: (winner, difference) -> a shot's outcome key, hits and effects on the target.
ShotVerdict = Callable[[str | None, int], tuple[str, int, tuple[Effect, ...]]]
#: (winner, difference) -> a fight's outcome key, hits, effects and who is pushed back.
FightVerdict = Callable[[str | None, int], tuple[str, int, tuple[Effect, ...], str | None]]


def cached_odds(
    odds: Callable[[Params], dict[str, Fraction]],
) -> Callable[[Params], dict[str, Fraction]]:
    """Memoise an odds function on its (hashable) validated parameters: one cache per check
    built, so per tables snapshot."""

    @lru_cache(maxsize=4096)
    def by_items(items: tuple[tuple[str, Any], ...]) -> dict[str, Fraction]:
        return odds(dict(items))

    def wrapper(params: Params) -> dict[str, Fraction]:
        return dict(by_items(odds_key(params)))

    wrapper.cache_clear = by_items.cache_clear  # type: ignore[attr-defined]  # the wrapper offers its cache's clear, as lru_cache does
    return wrapper


# --- shooting -----------------------------------------------------------------------------

NO_EFFECT = "no_effect"
#: A pack keeps the effects tables' rows and keys (fixed rows), so the outcomes never change.
SHOT_OUTCOMES = (NO_EFFECT, *(row.key for row in t.BASE.SHOOTING_EFFECTS))


def shot_verdicts(table: EffectsTable) -> ShotVerdict:
    """A shot's outcome key, hits and effects on the target, by the shooting effects `table`.

    They depend on the winner and difference alone, a few dozen pairs, so each is built once
    per check and shared (effects are immutable) instead of on every shot. A plain cache: the
    table is fixed when the check is built (a pack's checks are built with the pack's table).
    """

    @cache
    def verdict(winner: str | None, diff: int) -> tuple[str, int, tuple[Effect, ...]]:
        # Only a shooter who beats the target (or ties it with a higher rating) has any effect.
        if winner != "attacker":
            return NO_EFFECT, 0, ()
        row = table.row(diff)
        hits = table.hits(diff)
        return row.key, hits, loser_effects(row, hits, "target")

    return verdict


def shot_check(
    tables: t.EscarmoucheTables,
    name: str,
    title: str,
    params: Schema,
    pool_of: PoolOf,
    *,
    description: str,
    skill: str,
) -> PlannedCheck:
    """Build a shooting check from the way it makes up the shooter's pool."""
    verdict = shot_verdicts(tables.SHOOTING_EFFECTS)

    @cache
    def judge(winner: str | None, diff: int, keeps: bool) -> Judged:
        key, hits, effects = verdict(winner, diff)
        return key, effects, {"hits": hits}

    def plan(values: Params) -> Resolver:
        rating = values["target_rating"]
        return contest_plan(values, pool_of(values), values["rating"], rating, rating, judge)

    def shot_key(winner: str | None, diff: int) -> str:
        return verdict(winner, diff)[0]

    def odds(values: Params) -> dict[str, Fraction]:
        active, _ = pool_of(values)
        rating = values["target_rating"]
        weights = contest_weights(active, values["rating"], rating, rating)
        return fold(weights, shot_key, SHOT_OUTCOMES)

    return planned(
        name,
        title,
        params,
        SHOT_OUTCOMES,
        plan,
        cached_odds(odds),
        description=description,
        skill=skill,
        dice_order="shooter's active dice, shooter's passive dice, then the target's "
        "dice (one per rating)",
    )


def _replaced_in_shot(values: Params) -> int:
    """Each Shaken marker and the target's cover (a bool: 0 or 1) replace one active die."""
    replaced: int = values["shaken"] + values["cover"]
    return replaced


def _shoot_pool(weapons: WeaponDice) -> PoolOf:
    def pool(values: Params) -> PoolDice:
        active = base_pool(values)
        weapon = weapons[values["weapon"]]
        return swap_dice(active, _replaced_in_shot(values), weapon, values["skill"])

    return pool


def _target_rating(tables: t.EscarmoucheTables) -> Field:
    return rating_field(tables, "target_rating", "Target's rating")


def build_shoot(tables: t.EscarmoucheTables) -> PlannedCheck:
    """The shot, with the club's weapon classes and rating and skill limits."""
    params = Schema(
        (
            ACTIVE,
            weapon_field(tables),
            skill_field(tables, "skill", "Shooter"),
            SHAKEN,
            COVER,
            actor_rating(tables),
            _target_rating(tables),
            ONES_BEFORE,
            RESERVED,
        )
    )
    return shot_check(
        tables,
        "shoot",
        "Shoot",
        params,
        _shoot_pool(tables.WEAPON_PASSIVE),
        skill="shooter",
        description="Pool so far plus one; Shaken and cover swap active for passive dice; the "
        "weapon adds passive dice; Shooter rolls passive dice as active.",
    )


def _volley_pool(weapons: WeaponDice) -> PoolOf:
    def pool(values: Params) -> PoolDice:
        active = values["active"] + 1 + values["shooters"]
        weapon = weapons[values["weapon"]]
        return swap_dice(active, _replaced_in_shot(values), weapon, values["leader"])

    return pool


def build_volley(tables: t.EscarmoucheTables) -> PlannedCheck:
    """Volley fire, with the club's weapon classes and rating and skill limits."""
    params = Schema(
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
            weapon_field(tables),
            skill_field(tables, "leader", "Leader"),
            SHAKEN,
            COVER,
            actor_rating(tables),
            _target_rating(tables),
            ONES_BEFORE,
        )
    )
    return shot_check(
        tables,
        "volley",
        "Volley fire",
        params,
        _volley_pool(tables.WEAPON_PASSIVE),
        skill="leader",
        description="One figure directs a group: an active die per other shooter, the slowest "
        "weapon's passive dice, Leader rolls passive dice as active.",
    )


def _artillery_pool(cannon: int) -> PoolOf:
    def pool(values: Params) -> PoolDice:
        # The Artillerist bonus is the cannon's own rule: it adds active dice and is not also
        # used to swap passive dice (that would count the same skill twice).
        active = base_pool(values) + values["artillerist"]
        return swap_dice(active, _replaced_in_shot(values), cannon, 0)

    return pool


def build_artillery(tables: t.EscarmoucheTables) -> PlannedCheck:
    """The cannon's shot, its passive dice the club's cannon class."""
    params = Schema(
        (
            ACTIVE,
            skill_field(tables, "artillerist", "Artillerist"),
            SHAKEN,
            COVER,
            actor_rating(tables),
            _target_rating(tables),
            ONES_BEFORE,
            RESERVED,
        )
    )
    return shot_check(
        tables,
        "artillery",
        "Artillery",
        params,
        _artillery_pool(tables.WEAPON_PASSIVE[CANNON]),
        skill="artillerist",
        description="A cannon shot: the cannon's passive dice, plus active dice equal to the "
        "Artillerist skill.",
    )


# --- fighting -----------------------------------------------------------------------------

STAND_OFF = "stand_off"
#: Fixed rows: a pack keeps the fighting effects' keys, so the outcomes never change.
_FIGHT_ROWS = tuple(row.key for row in t.BASE.FIGHTING_EFFECTS)
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


def fight_fields(
    tables: t.EscarmoucheTables, skill_label: str, defence_label: str
) -> tuple[Field, ...]:
    """The parameters every fight shares; skill labels name the skill that fits."""
    return (
        ACTIVE,
        actor_rating(tables),
        skill_field(tables, "skill", f"Attacker's {skill_label}"),
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
        rating_field(tables, "defender_rating", "Defender's rating"),
        skill_field(tables, "defender_skill", f"Defender's {defence_label}"),
        ONES_BEFORE,
        RESERVED,
    )


def fight_pool(values: Params, bonus: int = 0) -> PoolDice:
    """The attacker's pool: the action, outnumbering and any bonus, then penalties and skill."""
    active = base_pool(values) + values["attackers"] - 1 + bonus
    # Booleans add as 0 or 1: each penalty that applies replaces one active die.
    replaced = values["uphill"] + values["cover"] + values["weaponless"] + values["shaken"]
    return swap_dice(active, replaced, 0, values["skill"])


def defence_dice(values: Params, bonus: int = 0) -> int:
    """The defender's dice: rating or a better skill, plus outnumbering and any bonus."""
    rating: int = values["defender_rating"]
    skill: int = values["defender_skill"]
    defenders: int = values["defenders"]
    # A conditional, not max(): every fight calls this.
    return (rating if rating > skill else skill) + defenders - 1 + bonus


#: The losing side of a fight, by its winner: the side the effects table pushes back.
_LOSING_SIDE = {"attacker": "defender", "defender": "attacker"}


def fight_verdicts(table: EffectsTable) -> FightVerdict:
    """A fight's outcome key, hits, effects on the loser and who is pushed back, by `table`.

    They depend on the winner and difference alone, so each is built once per check and shared
    (effects are immutable) instead of on every fight; the table is fixed when the check is
    built, so a plain cache.
    """

    @cache
    def verdict(winner: str | None, diff: int) -> tuple[str, int, tuple[Effect, ...], str | None]:
        if winner is None:
            return STAND_OFF, 0, (), None
        row = table.row(diff)
        hits = table.hits(diff)
        side = _LOSING_SIDE[winner]
        loser: Who = "target" if winner == "attacker" else "actor"
        pushed = side if row.pushed_back else None
        return f"{side}_{row.key}", hits, loser_effects(row, hits, loser), pushed

    return verdict


def fight_plan(values: Params, pool: PoolDice, defence: int, judge: Judge) -> Resolver:
    """Plan a fight: the attacker's pool against `defence` dice, judged by `judge`."""
    return contest_plan(values, pool, values["rating"], defence, values["defender_rating"], judge)


def fight_check(
    tables: t.EscarmoucheTables,
    name: str,
    title: str,
    fields: tuple[Field, ...],
    *,
    skill: str,
    description: str,
    after: Callable[[str | None, bool], dict[str, Any]] | None = None,
) -> PlannedCheck:
    """Build an ordinary fight check; `after(winner, keeps)` adds the variant's own details
    to the fight's."""
    verdict = fight_verdicts(tables.FIGHTING_EFFECTS)

    @cache
    def judge(winner: str | None, diff: int, keeps: bool) -> Judged:
        key, hits, effects, pushed = verdict(winner, diff)
        extra = {"hits": hits, "pushed_back": pushed}
        return key, effects, {**extra, **after(winner, keeps)} if after else extra

    def plan(values: Params) -> Resolver:
        return fight_plan(values, fight_pool(values), defence_dice(values), judge)

    def fight_key(winner: str | None, diff: int) -> str:
        return verdict(winner, diff)[0]

    def odds(values: Params) -> dict[str, Fraction]:
        weights = contest_weights(
            fight_pool(values)[0],
            values["rating"],
            defence_dice(values),
            values["defender_rating"],
        )
        return fold(weights, fight_key, FIGHT_OUTCOMES)

    return planned(
        name,
        title,
        Schema(fields, clean=one_side_outnumbers),
        FIGHT_OUTCOMES,
        plan,
        cached_odds(odds),
        description=description,
        skill=skill,
        dice_order="attacker's active dice, attacker's passive dice, then the defender's dice",
    )


def build_fight(tables: t.EscarmoucheTables) -> PlannedCheck:
    """The ordinary fight, with the club's rating and skill limits."""
    return fight_check(
        tables,
        "fight",
        "Fight",
        fight_fields(tables, "Fighter", "Fighter"),
        skill="fighter",
        description="Pool so far plus one, plus one per extra attacker; uphill, cover, "
        "weaponless and Shaken swap active for passive dice; the winner applies the table.",
    )


def _fencing_details(winner: str | None, keeps: bool) -> dict[str, Any]:
    return {"may_fight_on_without_pikes": winner == "attacker" and keeps}


def build_pike_fencing(tables: t.EscarmoucheTables) -> PlannedCheck:
    """Pike against pike, with the club's rating and skill limits."""
    return fight_check(
        tables,
        "pike_fencing",
        "Pike fencing",
        fight_fields(tables, "Pike trailer", "Pike trailer"),
        skill="pike_trailer",
        after=_fencing_details,
        description="Pike against pike is an ordinary fight; a winner who keeps the initiative "
        "may cross the loser's zone and fight on without pikes.",
    )
