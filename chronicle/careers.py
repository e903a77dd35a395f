"""A character's career from the service record, and for the dead an obituary.

Each entry of the record becomes a sentence citing it; the figure's line in each battle
(its side's result, its kills) and the ledger rolls of each battle are cited beside it.
"""

from __future__ import annotations

from dataclasses import dataclass

from battles.models import Battle, BattleFigure, PostBattleRoll
from chronicle.reports import deaths
from chronicle.text import Sentence, Story, day_text, listed, number, plural, sections
from rosters.history_text import change_lines
from rosters.models import Character, EntryCause, ServiceRecordEntry
from rules import narrate
from rules.system import get_system

_RESULTS = {"WIN": "a victory", "LOSS": "a defeat", "DRAW": "a draw"}


@dataclass(frozen=True)
class CareerRows:
    character: Character
    entries: tuple[ServiceRecordEntry, ...]
    figures: dict[int, BattleFigure]  # by battle id
    battles: dict[int, Battle]
    ledger: tuple[PostBattleRoll, ...]


def career_rows(character: Character) -> CareerRows:
    """Load a character's record, battle lines and ledger: four queries at any size."""
    figures = character.battle_figures.select_related("side").order_by("pk")
    by_battle = {f.battle_id: f for f in figures}
    battles = Battle.objects.filter(pk__in=list(by_battle)).order_by("pk")
    return CareerRows(
        character,
        tuple(character.service_record.order_by("created_at", "pk")),
        by_battle,
        {b.pk: b for b in battles},
        tuple(character.post_battle_rolls.order_by("battle_id", "pk")),
    )


def character_story(character: Character) -> Story:
    """Return the character's career and, if they are dead, their obituary."""
    rows = career_rows(character)
    rank = f"{character.rank} " if character.rank else ""
    obituary = _obituary(rows) if character.status == Character.Status.DEAD else []
    return Story(
        f"{rank}{character.name}",
        f"{get_system(character.force.system).name} · {character.force.name}",
        sections(("Obituary", obituary), ("Career", _career(rows))),
    )


# --- the career -------------------------------------------------------------------------------


def _career(rows: CareerRows) -> list[Sentence]:
    said = []
    for entry in rows.entries:
        sentence = _entry(rows, entry)
        if sentence is not None:
            said.append(sentence)
    return said


def _entry(rows: CareerRows, entry: ServiceRecordEntry) -> Sentence | None:
    name, cite = rows.character.name, ("service_entry", entry.pk)
    if entry.cause == EntryCause.CREATED:
        return Sentence(f"{name} joined {rows.character.force.name}.", (cite,))
    figure = rows.figures.get(entry.battle_id) if entry.battle_id else None
    if entry.cause == EntryCause.BATTLE and figure is not None and entry.note.startswith("Fought"):
        return _fought(rows, entry, figure)
    if entry.cause == EntryCause.ROLL and entry.battle_id:
        rolls = [r for r in rows.ledger if r.battle_id == entry.battle_id]
        return Sentence(
            _ensure_stop(entry.note), (cite, *(("post_battle_roll", r.pk) for r in rolls))
        )
    return _changed(rows, entry)


def _fought(rows: CareerRows, entry: ServiceRecordEntry, figure: BattleFigure) -> Sentence:
    battle = rows.battles[figure.battle_id]
    when = f" on {day_text(battle.campaign_date)}" if battle.campaign_date else ""
    text = f"{rows.character.name} fought in {battle}{when}"
    result = _RESULTS.get(figure.side.result)
    if result:
        text += f", {result} for {rows.character.force.name}"
    if figure.kills:
        text += f", bringing down {number(figure.kills)} of the enemy"
    cites = (
        ("service_entry", entry.pk),
        ("battle_figure", figure.pk),
        ("battle_side", figure.side_id),
    )
    return Sentence(f"{text}.", cites, battle=battle.pk)


_NOW = {
    Character.Status.ACTIVE: "is fit for duty again",
    Character.Status.RECOVERING: "is recovering",
    Character.Status.RETIRED: "retired",
    Character.Status.CAPTURED: "was taken prisoner",
    Character.Status.DEAD: "is dead",
}


def _status(rows: CareerRows, entry: ServiceRecordEntry) -> Sentence:
    """A change of status alone, said of the figure: "fell in …", "recovered from his wounds"."""
    name, after = rows.character.name, entry.after["status"]
    battle = rows.battles.get(entry.battle_id) if entry.battle_id else None
    if after == Character.Status.DEAD and battle is not None:
        text = f"{name} fell in {battle}"
    elif after == Character.Status.CAPTURED and battle is not None:
        text = f"{name} was taken prisoner in {battle}"
    elif entry.cause == EntryCause.BATTLE and entry.note:
        text = f"{name} {entry.note}"  # "recovered from his wounds" before fighting again
    else:
        text = f"{name} {_NOW.get(after, 'changed status')}"
        if entry.note:
            text += f" ({entry.note.rstrip('.')})"
    return Sentence(f"{text}.", (("service_entry", entry.pk),), battle=entry.battle_id)


def _changed(rows: CareerRows, entry: ServiceRecordEntry) -> Sentence | None:
    if set(entry.after or {}) == {"status"}:
        return _status(rows, entry)
    lines = change_lines(rows.character.force.system, entry.before or {}, entry.after or {})
    changes = [
        f"{what}: {before} → {after}" if before != "—" else f"{what}: {after}"
        for what, before, after in lines
    ]
    if not changes and not entry.note:
        return None
    head = entry.note or EntryCause(entry.cause).label
    text = f"{head}: {'; '.join(changes)}" if changes else head
    return Sentence(_ensure_stop(text), (("service_entry", entry.pk),))


def _ensure_stop(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?")) else f"{text}."


# --- the obituary -----------------------------------------------------------------------------


def _obituary(rows: CareerRows) -> list[Sentence]:
    name = rows.character.name
    said = []
    death = next(iter(deaths(rows.entries)), None)
    if death is not None:
        said.append(_death(rows, death))
    fought = list(rows.figures.values())
    if fought:
        kills = sum(f.kills for f in fought)
        text = f"{name} served in {plural(len(fought), 'battle')}"
        text += f" and brought down {number(kills)} of the enemy." if kills else "."
        said.append(Sentence(text, tuple(("battle_figure", f.pk) for f in fought)))
    wounds = [e for e in rows.entries if "permanent_wounds" in (e.after or {})]
    if wounds and rows.character.permanent_wounds:
        scars = [str(w) for w in rows.character.permanent_wounds]
        places = [w for w in scars if _placed(rows.character.force.system, w)]
        text = f"{name} carried {_wounds(len(scars))} to the end"
        text += f": {listed(places)}." if places else "."
        said.append(Sentence(text, tuple(("service_entry", e.pk) for e in wounds)))
    improved = [r for r in rows.ledger if r.procedure == "improvement" and _stat_changed(r)]
    if improved:
        text = f"{name} improved {plural(len(improved), 'time')} in the field."
        said.append(Sentence(text, tuple(("post_battle_roll", r.pk) for r in improved)))
    return said


def _placed(system: str, wound: str) -> bool:
    """Whether a permanent wound says where it is (narrate words it "permanent wound: …")."""
    change = {"kind": "permanent_wound", "after": wound}
    return narrate.change_sentence(system, change).startswith("permanent wound:")


def _wounds(count: int) -> str:
    return "a permanent wound" if count == 1 else f"{number(count)} permanent wounds"


def _stat_changed(roll: PostBattleRoll) -> bool:
    return any(c.get("kind") == "stat" for c in roll.result.get("changes") or ())


def _death(rows: CareerRows, entry: ServiceRecordEntry) -> Sentence:
    name, system = rows.character.name, rows.character.force.system
    battle = rows.battles.get(entry.battle_id) if entry.battle_id else None
    if battle is None:
        when = day_text(entry.created_at.date())
        return Sentence(
            f"{name} was entered in the record as dead on {when}.", (("service_entry", entry.pk),)
        )
    when = f" on {day_text(battle.campaign_date)}" if battle.campaign_date else ""
    if entry.cause == EntryCause.BATTLE:
        return Sentence(
            f"{name} fell in {battle}{when}.", (("service_entry", entry.pk),), battle=battle.pk
        )
    fatal = [r for r in rows.ledger if r.battle_id == battle.pk and _kills(r)]
    how = " ".join(
        narrate.roll_sentence(
            system, {**r.result, "procedure": r.procedure, "subject": r.subject}, name
        )
        for r in fatal
    )
    text = f"{name} died after {battle}{when}." + (f" {how}" if how else "")
    cites = (("service_entry", entry.pk), *(("post_battle_roll", r.pk) for r in fatal))
    return Sentence(text, cites, battle=battle.pk)


def _kills(roll: PostBattleRoll) -> bool:
    changes = roll.result.get("changes") or ()
    return roll.outcome == "dies" or any(
        c.get("kind") == "status" and c.get("after") == Character.Status.DEAD for c in changes
    )
