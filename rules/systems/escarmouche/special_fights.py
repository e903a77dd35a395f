"""First-strike fights: pike against horse, massed pike against horse, horse against foot.

In the first round only the striker's win counts; a win by the other side is ignored. A loser
facing the striker is kept away and meets the same first strike if it comes back next turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial

from rules.checks import Effect, Resolver, Who
from rules.plans import PlannedCheck, planned
from rules.schema import Field, Schema
from rules.systems.escarmouche import tables as t
from rules.systems.escarmouche.checks import (
    Params,
    PoolDice,
    bool_field,
    contest_weights,
    fold,
    int_field,
)
from rules.systems.escarmouche.combat import (
    STAND_OFF,
    FightVerdict,
    Judged,
    cached_odds,
    defence_dice,
    fight_fields,
    fight_plan,
    fight_pool,
    fight_verdicts,
    one_side_outnumbers,
)

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
        # A pack keeps the fighting effects' keys (fixed rows): the outcomes never change.
        rows = tuple(f"{self.other}_{row.key}" for row in t.BASE.FIGHTING_EFFECTS)
        return (STAND_OFF, *rows, f"{self.other}_win_ignored")

    def verdict(
        self, fight: FightVerdict, attacks: bool, winner: str | None, diff: int
    ) -> tuple[str, tuple[Effect, ...], bool]:
        """Return the outcome key, the effects and whether the other side's win is ignored.

        `fight` is the ordinary fight's verdict, by the fighting effects the check was built with.
        """
        if winner is None:
            return STAND_OFF, (), False
        if (winner == "attacker") != attacks:
            return f"{self.other}_win_ignored", (), True
        # The striker won, so the other side is the fight's loser.
        other: Who = "target" if attacks else "actor"
        key, _, effects, _ = fight(winner, diff)
        held_off = Effect(other, "kept_away", "set", True, f"held off by the {self.striker}")
        # The fight's key names the loser's side ("defender_hit"); here the loser is `other`.
        result = key.partition("_")[2]
        return f"{self.other}_{result}", (*effects, held_off), False


def pool_and_defence(values: Params, attacks: bool) -> tuple[PoolDice, int]:
    """The attacker's pool and the defender's dice: supporting pikemen join the striker's side."""
    support = values.get("supporting", 0)
    if attacks:
        return fight_pool(values, support), defence_dice(values)
    return fight_pool(values), defence_dice(values, support)


def _fields(
    tables: t.EscarmoucheTables, rule: FirstStrike, skill_label: str, defence_label: str
) -> tuple[Field, ...]:
    fields = [
        *fight_fields(tables, skill_label, defence_label),
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
    tables: t.EscarmoucheTables,
    name: str,
    title: str,
    rule: FirstStrike,
    *,
    skill_label: str,
    defence_label: str,
    skill: str,
    description: str,
) -> PlannedCheck:
    """Build a first-strike fight check."""
    attacks_field = rule.attacks_field
    fight = fight_verdicts(tables.FIGHTING_EFFECTS)
    # A verdict depends on who attacked, the winner and the difference alone (the table is
    # fixed when the check is built): built once each.
    verdict = cache(partial(rule.verdict, fight))

    def judge(attacks: bool, winner: str | None, diff: int, keeps: bool) -> Judged:
        """A roll's key and effects, and its details: hits, who is pushed back (nobody when
        the win is ignored) and whether the next round is an ordinary fight."""
        key, effects, ignored = verdict(attacks, winner, diff)
        _, hits, _, pushed = fight(winner, diff)
        details = {
            "hits": hits,
            "pushed_back": None if ignored else pushed,
            "first_strike": rule.striker,
            # The other side's win is ignored this round; attacking and keeping the
            # initiative, it fights the next round as an ordinary fight.
            "next_round_normal": ignored and not attacks and keeps,
        }
        return key, effects, details

    # Who attacked is known when a roll is planned: one memoised judgement for each.
    judges = {attacks: cache(partial(judge, attacks)) for attacks in (False, True)}

    def plan(values: Params) -> Resolver:
        attacks = values[attacks_field]
        return fight_plan(values, *pool_and_defence(values, attacks), judges[attacks])

    def odds(values: Params) -> dict[str, Fraction]:
        attacks = values[attacks_field]
        (active, _), defence = pool_and_defence(values, attacks)
        weights = contest_weights(active, values["rating"], defence, values["defender_rating"])
        return fold(weights, lambda winner, diff: verdict(attacks, winner, diff)[0], rule.outcomes)

    params = Schema(_fields(tables, rule, skill_label, defence_label), clean=one_side_outnumbers)
    return planned(
        name,
        title,
        params,
        rule.outcomes,
        plan,
        cached_odds(odds),
        description=description,
        skill=skill,
        dice_order="attacker's active dice, attacker's passive dice, then the defender's dice",
    )


PIKE_OR_HORSE = "Pike trailer (pike) or Rider (horse)"


def build_pike_vs_cavalry(tables: t.EscarmoucheTables) -> PlannedCheck:
    """Pike against horse, with the club's rating and skill limits."""
    return first_strike_check(
        tables,
        "pike_vs_cavalry",
        "Pike vs cavalry",
        FirstStrike("pike", "horse"),
        skill_label=PIKE_OR_HORSE,
        defence_label=PIKE_OR_HORSE,
        skill="pike_trailer",
        description="First round: only the pike's win counts, whoever attacked; a beaten "
        "horseman is kept away.",
    )


def build_massed_pike(tables: t.EscarmoucheTables) -> PlannedCheck:
    """Massed pike against horse, with the club's rating and skill limits."""
    return first_strike_check(
        tables,
        "massed_pike",
        "Massed pike vs cavalry",
        FirstStrike("pike", "horse", supported=True),
        skill_label=PIKE_OR_HORSE,
        defence_label=PIKE_OR_HORSE,
        skill="pike_trailer",
        description="As pike vs cavalry, the acting pikeman adding an active die per pikeman in "
        "base contact (in attack or defence).",
    )


def build_horse_vs_foot(tables: t.EscarmoucheTables) -> PlannedCheck:
    """Horse against foot, with the club's rating and skill limits."""
    return first_strike_check(
        tables,
        "horse_vs_foot",
        "Horse vs foot",
        FirstStrike("horse", "foot"),
        skill_label="Rider (horse) or Fighter (foot)",
        defence_label="Rider (horse) or Fighter (foot)",
        skill="rider",
        description="Against foot without pikes, only the horseman's win counts in the first "
        "round.",
    )
