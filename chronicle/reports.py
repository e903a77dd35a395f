"""A battle report, written from the battle's rows only: its sides and figures, the event log,
the post-battle ledger and the service-record entries the battle caused.

Same rows, same text: everything is read in a fixed order (sides by index, figures and rolls
by id, events by sequence) and nothing reads the clock.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache

from battles.models import Battle, BattleEvent, BattleFigure, BattleSide, EventKind, PostBattleRoll
from battles.selectors import rules_for_battle
from battles.words import event_sentence
from campaigns.models import display_name
from chronicle.text import (
    Section,
    Sentence,
    Story,
    chance_text,
    day_text,
    listed,
    number,
    plural,
    sections,
)
from rosters.models import CharacterStatus, ServiceRecordEntry
from rules import narrate
from rules.errors import RulesError
from rules.system import RuleSystem, get_system
from rules.words import COMMON_STATES

#: A result this unlikely or rarer is called out (two twelves on two d12s).
RARE = Fraction(1, 144)
#: Figure statuses at the end of a battle that count as out of the fight.
OUT = narrate.OUT_OF_THE_FIGHT
_RESULTS = {"WIN": "won", "LOSS": "lost", "DRAW": "drew"}


@dataclass(frozen=True)
class BattleRows:
    """Everything a report is written from, loaded in a fixed order."""

    battle: Battle
    sides: tuple[BattleSide, ...]
    figures: tuple[BattleFigure, ...]
    events: tuple[BattleEvent, ...]
    ledger: tuple[PostBattleRoll, ...]
    entries: tuple[ServiceRecordEntry, ...]


def battle_rows(battle: Battle) -> BattleRows:
    """Load a battle's rows for its report: six queries at any size."""
    events = battle.events.filter(voided=False, kind=EventKind.CHECK)
    entries = ServiceRecordEntry.objects.filter(battle_id=battle.pk).select_related("character")
    return BattleRows(
        battle,
        tuple(battle.sides.select_related("force__owner").order_by("index")),
        tuple(battle.figures.order_by("pk")),
        tuple(events.select_related("actor", "target").order_by("seq")),
        tuple(battle.ledger.select_related("character").order_by("pk")),
        tuple(entries.order_by("pk")),
    )


def battle_report(battle: Battle) -> Story:
    """Return the battle's report: the forces, decisive moments, the result, the aftermath."""
    rows = battle_rows(battle)
    when = day_text(battle.campaign_date)
    return Story(
        str(battle),
        f"{get_system(battle.system).name}{' · ' + when if when else ''}",
        sections(
            ("The forces", _forces(rows)),
            ("Decisive moments", _moments(rows)),
            ("The result", _result(rows)),
            ("The aftermath", _aftermath(rows)),
        ),
    )


# --- the forces -----------------------------------------------------------------------------


def _forces(rows: BattleRows) -> list[Sentence]:
    said = []
    for side in rows.sides:
        figures = [f for f in rows.figures if f.side_id == side.pk]
        owner = display_name(side.force.owner)
        text = f"{side.force.name}, led by {owner}, fielded {plural(len(figures), 'figure')}"
        if figures:
            text += f": {listed(f.name for f in figures)}"
        cites = (("battle_side", side.pk), *(("battle_figure", f.pk) for f in figures))
        said.append(Sentence(f"{text}.", cites))
    return said


# --- the decisive moments -------------------------------------------------------------------


def _moments(rows: BattleRows) -> list[Sentence]:
    system = rows.battle.system
    # Odds under the house rules the battle was played by, not the campaign's newest.
    rules = rules_for_battle(rows.battle)
    said: list[Sentence] = []
    blooded = False
    for event in rows.events:
        tags = []
        if not blooded and _draws_blood(system, event):
            tags.append("First blood")
            blooded = True
        out = _puts_out(event)
        if out:
            tags.append("Routed" if out == "routed" else "Out of the fight")
        if event.check_name == "hero":
            tags.append("A hero's deed")
        chance = rarity(rules, event)
        if chance is not None:
            tags.append("Against the odds")
        if not tags:
            continue
        text = f"{' · '.join(tags)}: {event_sentence(system, event)}"
        if chance is not None:
            text += f" The chance of that was {chance_text(chance)}."
        said.append(Sentence(text, (("battle_event", event.pk),)))
    return said + _tally(rows)


def _is_harm(system: str, key: str) -> bool:
    word = narrate.words_of(system).states.get(key) or COMMON_STATES.get(key)
    return bool(word and word.bad and not word.hidden)


def _draws_blood(system: str, event: BattleEvent) -> bool:
    """Whether the event did a figure harm: a wound, a hit, a status that is trouble."""
    for effect in event.effects or ():
        value = effect.get("value")
        if effect.get("who") != "target" or not _is_harm(system, str(effect.get("key"))):
            continue
        if effect.get("op") == "add" and isinstance(value, int | float) and value > 0:
            return True
        if effect.get("op") != "add" and value not in (None, False, 0, "", "unhurt"):
            return True
    return False


def _puts_out(event: BattleEvent) -> str:
    """The status that took a figure out of the fight in this event, if one did."""
    for effect in event.effects or ():
        if effect.get("key") == "status" and str(effect.get("value")) in OUT:
            return str(effect["value"])
    return ""


def rarity(system: RuleSystem | str, event: BattleEvent) -> Fraction | float | None:
    """The exact chance of the event's outcome, when it was RARE or rarer; else None.

    `system` is the battle's rules (`battles.selectors.rules_for_battle`), or a system's key
    for the rules as written.
    """
    rules = get_system(system) if isinstance(system, str) else system
    params = json.dumps(event.params or {}, sort_keys=True)
    chance = _odds(_Rules.of(rules), event.check_name, params).get(event.outcome)
    if chance is None or chance <= 0 or chance > RARE:
        return None
    return chance


@dataclass(frozen=True)
class _Rules:
    """A rule system as a cache key: its name and the digest of the house rules it runs under."""

    key: str
    digest: str
    system: RuleSystem = field(compare=False, hash=False)

    @classmethod
    def of(cls, system: RuleSystem) -> _Rules:
        return cls(system.key, system.pack.digest if system.pack else "", system)


@lru_cache(maxsize=1024)
def _odds(rules: _Rules, check: str, params: str) -> dict[str, Fraction | float]:
    """A check's distribution, kept: a long battle resolves the same check many times over."""
    try:
        return dict(rules.system.check(check).odds(json.loads(params)).probabilities)
    except RulesError:
        return {}  # a check the engine no longer knows, or parameters it now refuses


def _tally(rows: BattleRows) -> list[Sentence]:
    """Kills and the figures out of the fight, from each figure's line (also when the battle
    was entered after the fact, with no event log)."""
    said = []
    killers = sorted((f for f in rows.figures if f.kills), key=lambda f: (-f.kills, f.pk))
    for figure in killers:
        text = f"{figure.name} brought down {number(figure.kills)} of the enemy."
        said.append(Sentence(text, (("battle_figure", figure.pk),)))
    for figure in rows.figures:
        words = _status_words(rows.battle.system, figure.final_status)
        if words:
            said.append(
                Sentence(f"By the end, {figure.name} was {words}.", (("battle_figure", figure.pk),))
            )
    return said


def _status_words(system: str, status: str) -> str:
    """A figure's final status in the game's words, when it is trouble ("wounded", "dead")."""
    if not status:
        return ""
    chips = narrate.state_chips(system, {"status": status})
    return chips[0][0] if chips and chips[0][1] else ""


# --- the result -----------------------------------------------------------------------------


def _result(rows: BattleRows) -> list[Sentence]:
    said = []
    for side in rows.sides:
        verb = _RESULTS.get(side.result)
        if not verb:
            continue
        text = f"{side.force.name} {verb}"
        if side.victory_points:
            text += f", with {plural(side.victory_points, 'victory point')}"
        said.append(Sentence(f"{text}.", (("battle_side", side.pk),)))
        broke = next((e for e in rows.events if e.seq == side.broke_at_seq), None)
        if broke is not None:
            said.append(
                Sentence(
                    f"{side.force.name} had passed its breakpoint by then.",
                    (("battle_side", side.pk), ("battle_event", broke.pk)),
                )
            )
    return said


# --- the aftermath --------------------------------------------------------------------------

#: What a character's status after a battle says (by the status key a record holds).
_FATES: dict[str | None, str] = {
    CharacterStatus.DEAD: "{name} fell in the battle.",
    CharacterStatus.CAPTURED: "{name} was taken prisoner.",
}


def _aftermath(rows: BattleRows) -> list[Sentence]:
    said = []
    for entry in rows.entries:
        fate = _FATES.get((entry.after or {}).get("status"))
        if fate and entry.cause == ServiceRecordEntry.Cause.BATTLE:
            said.append(
                Sentence(fate.format(name=entry.character.name), (("service_entry", entry.pk),))
            )
    said += [_roll(rows.battle.system, row) for row in rows.ledger if _matters(row)]
    return said


def _matters(row: PostBattleRoll) -> bool:
    """A roll worth telling: it changed the figure, or it killed him."""
    changes = [c for c in row.result.get("changes") or () if c.get("before") != c.get("after")]
    return bool(changes) or row.outcome == "dies"


def _roll(system: str, row: PostBattleRoll) -> Sentence:
    roll = {**row.result, "procedure": row.procedure, "subject": row.subject}
    text = narrate.roll_sentence(system, {**roll, "house_rule": row.house_rule}, row.character.name)
    return Sentence(text, (("post_battle_roll", row.pk),))


def deaths(entries: Sequence[ServiceRecordEntry]) -> list[ServiceRecordEntry]:
    """The entries that recorded a death."""
    return [e for e in entries if (e.after or {}).get("status") == CharacterStatus.DEAD]


__all__ = ["RARE", "BattleRows", "Section", "battle_report", "battle_rows", "deaths", "rarity"]
