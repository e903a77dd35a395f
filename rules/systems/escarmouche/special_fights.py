"""First-strike fights: pike against horse, massed pike against horse, horse against foot.

In the first round only the striker's win counts; a win by the other side is ignored. A loser
facing the striker is kept away and meets the same first strike if it comes back next turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules.checks import Check, Effect, Outcome, Who
from rules.dice import Dice
from rules.schema import Field, Schema
from rules.systems.escarmouche.checks import (
    Contest,
    Params,
    bool_field,
    contest_weights,
    fold,
    initiative_of,
    int_field,
    loser_effects,
    run_contest,
    spent_reserve,
)
from rules.systems.escarmouche.combat import (
    STAND_OFF,
    cached_odds,
    defence_dice,
    fight_details,
    fight_fields,
    fight_pool,
    fight_result,
    one_side_outnumbers,
)
from rules.systems.escarmouche.pool import KEEPS_INITIATIVE
from rules.systems.escarmouche.tables import FIGHTING_EFFECTS, effect_row

MAX_SUPPORT = 8


@dataclass(frozen=True)
class FirstStrike:
    """Who strikes first (`striker`) and who is held off (`other`), as outcome-key words."""

    striker: str
    other: str
    supported: bool = False

    @property
    def attacks_field(self) -> str:
        return f"{self.striker}_attacks"

    @property
    def outcomes(self) -> tuple[str, ...]:
        rows = tuple(f"{self.other}_{row.key}" for row in FIGHTING_EFFECTS)
        return (STAND_OFF, *rows, f"{self.other}_win_ignored")

    def striker_attacks(self, values: Params) -> bool:
        return bool(values[self.attacks_field])

    def support(self, values: Params) -> int:
        return int(values.get("supporting", 0))

    def pool_bonus(self, values: Params) -> int:
        return self.support(values) if self.striker_attacks(values) else 0

    def defence_bonus(self, values: Params) -> int:
        return 0 if self.striker_attacks(values) else self.support(values)

    def striker_won(self, values: Params, winner: str | None) -> bool:
        return winner is not None and (winner == "attacker") == self.striker_attacks(values)

    def other_is(self, values: Params) -> Who:
        return "target" if self.striker_attacks(values) else "actor"


def _key(rule: FirstStrike, values: Params, winner: str | None, diff: int) -> str:
    if winner is None:
        return STAND_OFF
    if rule.striker_won(values, winner):
        return f"{rule.other}_{effect_row(FIGHTING_EFFECTS, diff).key}"
    return f"{rule.other}_win_ignored"


def _effects(rule: FirstStrike, values: Params, contest: Contest) -> tuple[Effect, ...]:
    if not rule.striker_won(values, contest.winner):
        return ()
    row, hits, _ = fight_result(contest)
    other = rule.other_is(values)
    held_off = Effect(other, "kept_away", "set", True, f"held off by the {rule.striker}")
    return (*loser_effects(row, hits, other), held_off) if row else (held_off,)


def _details(rule: FirstStrike, values: Params, contest: Contest) -> dict[str, Any]:
    details = fight_details(values, contest)
    ignored = contest.winner is not None and not rule.striker_won(values, contest.winner)
    keeps = initiative_of(values, contest.roll) == KEEPS_INITIATIVE
    # The other side's win is ignored this round; attacking and keeping the initiative, it
    # fights the next round as an ordinary fight.
    next_normal = ignored and not rule.striker_attacks(values) and keeps
    return {
        **details,
        "pushed_back": None if ignored else details["pushed_back"],
        "first_strike": rule.striker,
        "next_round_normal": next_normal,
    }


def _fields(rule: FirstStrike, skill_label: str, defence_label: str) -> tuple[Field, ...]:
    fields = [
        *fight_fields(skill_label, defence_label),
        bool_field(
            rule.attacks_field,
            f"The {rule.striker} attacks",
            f"On if the {rule.striker} started the fight; off if the {rule.other} did.",
        ),
    ]
    if rule.supported:
        fields.append(
            int_field(
                "supporting",
                "Supporting pikemen",
                1,
                0,
                MAX_SUPPORT,
                "Pikemen in base contact with the pike: one active die each.",
            )
        )
    return tuple(fields)


def first_strike_check(
    name: str,
    title: str,
    rule: FirstStrike,
    *,
    skill_label: str,
    defence_label: str,
    skill: str,
    description: str,
) -> Check:
    """Build a first-strike fight check."""

    def resolve(values: Params, dice: Dice) -> Outcome:
        contest = run_contest(
            dice,
            fight_pool(values, rule.pool_bonus(values)),
            values["rating"],
            defence_dice(values, rule.defence_bonus(values)),
            values["defender_rating"],
        )
        return Outcome(
            _key(rule, values, contest.winner, contest.diff),
            _details(rule, values, contest),
            _effects(rule, values, contest) + spent_reserve(values),
        )

    def odds(values: Params) -> dict[str, Fraction]:
        pool = fight_pool(values, rule.pool_bonus(values))
        defence = defence_dice(values, rule.defence_bonus(values))
        weights = contest_weights(pool.active, values["rating"], defence, values["defender_rating"])
        return fold(weights, lambda winner, diff: _key(rule, values, winner, diff), rule.outcomes)

    params = Schema(_fields(rule, skill_label, defence_label), clean=one_side_outnumbers)
    return Check(
        name,
        title,
        params,
        rule.outcomes,
        resolve,
        cached_odds(odds),
        description=description,
        skill=skill,
        dice_order="attacker's active dice, attacker's passive dice, then the defender's dice",
    )


PIKE_VS_CAVALRY = first_strike_check(
    "pike_vs_cavalry",
    "Pike vs cavalry",
    FirstStrike("pike", "horse"),
    skill_label="Pike trailer (pike) or Rider (horse)",
    defence_label="Pike trailer (pike) or Rider (horse)",
    skill="pike_trailer",
    description="First round: only the pike's win counts, whoever attacked; a beaten horseman "
    "is kept away.",
)
MASSED_PIKE = first_strike_check(
    "massed_pike",
    "Massed pike vs cavalry",
    FirstStrike("pike", "horse", supported=True),
    skill_label="Pike trailer (pike) or Rider (horse)",
    defence_label="Pike trailer (pike) or Rider (horse)",
    skill="pike_trailer",
    description="As pike vs cavalry, the acting pikeman adding an active die per pikeman in "
    "base contact (in attack or defence).",
)
HORSE_VS_FOOT = first_strike_check(
    "horse_vs_foot",
    "Horse vs foot",
    FirstStrike("horse", "foot"),
    skill_label="Rider (horse) or Fighter (foot)",
    defence_label="Rider (horse) or Fighter (foot)",
    skill="rider",
    description="Against foot without pikes, only the horseman's win counts in the first round.",
)
