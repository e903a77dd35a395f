"""Check a `muster.campaign` document whole before the import writes anything.

A backup file is a file anyone could have edited: the import used to trust its shape and ended
in raw tracebacks (a missing key, a number where a list belongs, a NUL byte PostgreSQL refuses,
a member listed twice, nesting thousands deep), and took a slug `../../x` or a photo path
`../secret_key` as given. `document_problem` walks the document once and returns the first
problem as one line naming its path (`forces[2].characters[0].unit: ...`), or None.

The shape is data: a row is a dict of key -> kind, where a kind is a type, a tuple of types
(None for null), a nested row, or a one-item list (a list of that kind). Each row's own columns
are then checked by the model field that will store them (type, length).

The `TypedDict`s below say the same shape to the type checker: `checked_document` returns a
`CampaignDocument` only once `_shape` has walked the document against `DOCUMENT` (or
`DOCUMENT_V3`), so the import reads its keys typed. Each row's other columns stay JSON until
the model field that stores them converts them (`_columns`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Hashable, Iterator, Mapping, Sequence
from typing import NotRequired, TypeAlias, TypedDict, TypeGuard

from django.core.exceptions import ValidationError
from django.db import models

from common.json_types import JSON

MAX_DEPTH = 32
SAFE_SLUG = re.compile(r"^[A-Za-z0-9_-]{1,120}$")
#: A stored photo's name: the upload folder and a file name, nothing that climbs out of it.
SAFE_PHOTO = re.compile(r"^characters/[A-Za-z0-9_-][A-Za-z0-9._-]{0,200}$")

#: What a row's key must hold: a type, a tuple of types, a nested row, or [a list's kind].
Kind: TypeAlias = type | tuple[type, ...] | dict[str, "Kind"] | list["Kind"]
Shape: TypeAlias = dict[str, Kind]

REF = (list, type(None))  # a character: [force index, name], or null
NAME = str
OPTIONAL_NAME = (str, type(None))
OPTIONAL_INDEX = (int, type(None))

SERVICE_ENTRY: Shape = {"user": OPTIONAL_NAME, "battle": OPTIONAL_INDEX}
CHARACTER: Shape = {
    "name": NAME,
    "unit": OPTIONAL_NAME,
    "photo": str,
    "service_record": [SERVICE_ENTRY],
}
UNIT: Shape = {"name": NAME, "leader": OPTIONAL_NAME}
FORCE: Shape = {"owner": NAME, "units": [UNIT], "characters": [CHARACTER]}
SIDE: Shape = {"index": int, "force": int}
FIGURE: Shape = {"side": int, "character": REF}
EVENT: Shape = {"actor": OPTIONAL_INDEX, "target": OPTIONAL_INDEX, "created_by": OPTIONAL_NAME}
ROLL: Shape = {"character": REF}
BATTLE: Shape = {
    "created_by": OPTIONAL_NAME,
    "sides": [SIDE],
    "figures": [FIGURE],
    "events": [EVENT],
    "ledger": [ROLL],
}
PAIRING: Shape = {
    "round": int,
    "home": NAME,
    "away": OPTIONAL_NAME,
    "battle": OPTIONAL_INDEX,
    "confirmed_by": OPTIONAL_NAME,
}
LEAGUE: Shape = {
    "settings": (dict, type(None)),
    "rounds": [{"number": int}],
    "pairings": [PAIRING],
    "adjustments": [{"player": NAME, "created_by": OPTIONAL_NAME}],
}
DOCUMENT: Shape = {
    "format": str,
    "version": int,
    "campaign": {"slug": str},
    "members": [{"user": NAME}],
    "forces": [FORCE],
    "battles": [BATTLE],
    "league": LEAGUE,
}
#: Version 3 adds the campaign's house-rules versions, and each battle's version number.
HOUSE_RULES: Shape = {"number": int, "document": dict, "digest": str, "created_by": OPTIONAL_NAME}
DOCUMENT_V3: Shape = {
    **DOCUMENT,
    "house_rules": [HOUSE_RULES],
    "battles": [{**BATTLE, "house_rules": OPTIONAL_INDEX}],
}


#: A character named by [force number, character name], as `_References.character` checks it.
CharacterRef: TypeAlias = list[JSON]


class ServiceEntryRow(TypedDict):
    user: str | None
    battle: int | None


class CharacterRow(TypedDict):
    name: str
    unit: str | None
    photo: str
    service_record: list[ServiceEntryRow]


class UnitRow(TypedDict):
    name: str
    leader: str | None


class ForceRow(TypedDict):
    owner: str
    units: list[UnitRow]
    characters: list[CharacterRow]
    system: NotRequired[JSON]


class SideRow(TypedDict):
    index: int
    force: int


class FigureRow(TypedDict):
    side: int
    character: CharacterRef | None


class EventRow(TypedDict):
    actor: int | None
    target: int | None
    created_by: str | None


class RollRow(TypedDict):
    character: CharacterRef | None


class BattleRow(TypedDict):
    created_by: str | None
    sides: list[SideRow]
    figures: list[FigureRow]
    events: list[EventRow]
    ledger: list[RollRow]
    house_rules: NotRequired[int | None]  # version 3 on
    seed: NotRequired[JSON]
    seed_sha256: NotRequired[JSON]
    log_head: NotRequired[JSON]


class PairingRow(TypedDict):
    round: int
    home: str
    away: str | None
    battle: int | None
    confirmed_by: str | None
    version: NotRequired[JSON]
    reports: NotRequired[JSON]  # what the players wrote: read by `pairing_reports`


class RoundRow(TypedDict):
    number: int


class AdjustmentRow(TypedDict):
    player: str
    created_by: str | None


class LeagueRow(TypedDict):
    settings: dict[str, JSON] | None
    rounds: list[RoundRow]
    pairings: list[PairingRow]
    adjustments: list[AdjustmentRow]


class HouseRulesRow(TypedDict):
    number: int
    document: dict[str, JSON]
    digest: str
    created_by: str | None


class CampaignRow(TypedDict):
    slug: str
    system: NotRequired[JSON]
    copy_of: NotRequired[JSON]


class MemberRow(TypedDict):
    user: str


class CampaignDocument(TypedDict):
    format: str
    version: int
    campaign: CampaignRow
    members: list[MemberRow]
    forces: list[ForceRow]
    battles: list[BattleRow]
    league: LeagueRow
    house_rules: NotRequired[list[HouseRulesRow]]  # version 3 on
    club: NotRequired[JSON]


def pairing_reports(pairing: PairingRow, path: str) -> list[tuple[str | None, dict[str, JSON]]]:
    """Return what the players wrote beside a pairing's result, as (reporter, the report's
    columns); a document older than the written reports has none."""
    reports = pairing.get("reports", [])
    if not isinstance(reports, list):
        raise DocumentProblem(f"{path}.reports: must be a list")
    rows = []
    for i, report in enumerate(reports):
        if not isinstance(report, dict):
            raise DocumentProblem(f"{path}.reports[{i}]: must be an object")
        reporter = report.get("reporter")
        if reporter is not None and not isinstance(reporter, str):
            raise DocumentProblem(f"{path}.reports[{i}].reporter: must be text or null")
        rows.append((reporter, report))
    return rows


class DocumentProblem(Exception):
    """The first thing wrong with the document, as `path: message`."""


def _type_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {dict: "an object", list: "a list", str: "text", int: "a whole number"}
    return " or ".join(names.get(k, "null") for k in kinds)


def _is(value: JSON, kind: type | tuple[type, ...]) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool):  # JSON true/false are not numbers here
        return bool in kinds
    return isinstance(value, kinds)


def _shape(value: JSON, kind: Kind, path: str) -> None:
    """Check `value` against a kind (see the module docstring)."""
    if isinstance(kind, dict):
        if not isinstance(value, dict):
            raise DocumentProblem(f"{path}: must be an object")
        for key, inner in kind.items():
            if key not in value:
                raise DocumentProblem(f"{path}.{key}: is missing")
            _shape(value[key], inner, f"{path}.{key}")
    elif isinstance(kind, list):
        if not isinstance(value, list):
            raise DocumentProblem(f"{path}: must be a list")
        for i, item in enumerate(value):
            _shape(item, kind[0], f"{path}[{i}]")
    elif not _is(value, kind):
        raise DocumentProblem(f"{path}: must be {_type_name(kind)}")


def _texts(document: JSON) -> None:
    """Refuse nesting past MAX_DEPTH and text a database cannot store (NUL, lone surrogates)."""
    stack: list[tuple[JSON, str, int]] = [(document, "document", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise DocumentProblem(f"{path}: nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, str):
            _text(value, path)
        elif isinstance(value, dict):
            for key, item in value.items():
                _text(str(key), f"{path} (a key)")
                stack.append((item, f"{path}.{key}", depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))


def _text(text: str, path: str) -> None:
    if "\x00" in text:
        raise DocumentProblem(f"{path}: holds a NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise DocumentProblem(f"{path}: holds an unpaired UTF-16 surrogate") from None


def _columns(model: type[models.Model], row: Mapping[str, object], path: str) -> None:
    """Check a row's own columns as the model field that will store each one."""
    for field in model._meta.concrete_fields:
        if field.primary_key or field.is_relation or field.name not in row:
            continue
        try:
            value = field.to_python(row[field.name])
            if value is not None:
                field.run_validators(value)
        except (ValidationError, TypeError, ValueError) as error:
            text = "; ".join(error.messages) if isinstance(error, ValidationError) else str(error)
            raise DocumentProblem(f"{path}.{field.name}: {text}") from None


def _unique(names: Sequence[Hashable], path: str, what: str) -> None:
    seen: set[Hashable] = set()
    for i, name in enumerate(names):
        if name in seen:
            raise DocumentProblem(f"{path}[{i}]: {what} {name!r} is listed twice")
        seen.add(name)


def _index(value: int | None, size: int, path: str, what: str) -> None:
    if value is not None and not 0 <= value < size:
        raise DocumentProblem(f"{path}: no {what} number {value} (there are {size})")


class _References:
    """Check that every cross-reference in the document points at something in it."""

    def __init__(self, document: CampaignDocument) -> None:
        self.doc = document
        self.members = {m["user"] for m in document["members"]}
        self.characters = {
            (i, c["name"]) for i, f in enumerate(document["forces"]) for c in f["characters"]
        }

    def character(self, ref: CharacterRef | None, path: str) -> None:
        if ref is None:
            return
        if len(ref) != 2 or not _is(ref[0], int) or not isinstance(ref[1], str):
            raise DocumentProblem(f"{path}: must be [force number, character name]")
        if (ref[0], ref[1]) not in self.characters:
            raise DocumentProblem(f"{path}: no character {ref[1]!r} in force {ref[0]}")

    def member(self, name: str | None, path: str, optional: bool = False) -> None:
        if name is None and optional:
            return
        if name not in self.members:
            raise DocumentProblem(f"{path}: {name!r} is not among the members")


def _check_forces(doc: CampaignDocument, battles: int) -> None:
    for i, force in enumerate(doc["forces"]):
        path = f"forces[{i}]"
        units = [u["name"] for u in force["units"]]
        characters = [c["name"] for c in force["characters"]]
        _unique(units, f"{path}.units", "unit")
        _unique(characters, f"{path}.characters", "character")
        for j, unit in enumerate(force["units"]):
            if unit["leader"] is not None and unit["leader"] not in characters:
                raise DocumentProblem(f"{path}.units[{j}].leader: no such character")
        for j, character in enumerate(force["characters"]):
            where = f"{path}.characters[{j}]"
            if character["unit"] not in (None, "", *units):
                raise DocumentProblem(f"{where}.unit: no unit {character['unit']!r} in the force")
            if character["photo"] and not SAFE_PHOTO.match(character["photo"]):
                raise DocumentProblem(f"{where}.photo: must be a file name under characters/")
            for k, entry in enumerate(character["service_record"]):
                _index(entry["battle"], battles, f"{where}.service_record[{k}].battle", "battle")


def _check_battles(doc: CampaignDocument, refs: _References) -> None:
    forces = len(doc["forces"])
    for i, battle in enumerate(doc["battles"]):
        path = f"battles[{i}]"
        sides = [s["index"] for s in battle["sides"]]
        _unique(sides, f"{path}.sides", "side")
        for j, side in enumerate(battle["sides"]):
            _index(side["force"], forces, f"{path}.sides[{j}].force", "force")
        for j, figure in enumerate(battle["figures"]):
            if figure["side"] not in sides:
                raise DocumentProblem(f"{path}.figures[{j}].side: no side {figure['side']}")
            refs.character(figure["character"], f"{path}.figures[{j}].character")
        _check_seed(battle, path)
        figures = len(battle["figures"])
        for j, event in enumerate(battle["events"]):
            _index(event["actor"], figures, f"{path}.events[{j}].actor", "figure")
            _index(event["target"], figures, f"{path}.events[{j}].target", "figure")
        for j, roll in enumerate(battle["ledger"]):
            refs.character(roll["character"], f"{path}.ledger[{j}].character")


def _check_seed(battle: BattleRow, path: str) -> None:
    """The seed must be the one the battle was committed to (its public SHA-256): a backup
    with another seed would re-derive other rolls and still claim the battle's audit."""
    seed, digest = battle.get("seed"), battle.get("seed_sha256")
    if not isinstance(seed, str) or not isinstance(digest, str):
        raise DocumentProblem(f"{path}.seed: a battle needs its seed and seed_sha256 as text")
    if hashlib.sha256(seed.encode()).hexdigest() != digest:
        raise DocumentProblem(f"{path}.seed: does not match the battle's seed_sha256")


def _check_league(doc: CampaignDocument, refs: _References) -> None:
    league = doc["league"]
    rounds = [r["number"] for r in league["rounds"]]
    _unique(rounds, "league.rounds", "round")
    for i, pairing in enumerate(league["pairings"]):
        path = f"league.pairings[{i}]"
        if pairing["round"] not in rounds:
            raise DocumentProblem(f"{path}.round: no round {pairing['round']}")
        refs.member(pairing["home"], f"{path}.home")
        refs.member(pairing["away"], f"{path}.away", optional=True)
        _index(pairing["battle"], len(doc["battles"]), f"{path}.battle", "battle")
        pairing_reports(pairing, path)  # each an object, its reporter text or null
    for i, adjustment in enumerate(league["adjustments"]):
        refs.member(adjustment["player"], f"league.adjustments[{i}].player")


#: A list of rows in the document: its key, the model that stores them, and the rows.
RowsOf: TypeAlias = tuple[str, type[models.Model], Sequence[Mapping[str, object]]]


def _numbered(
    prefix: str, groups: tuple[RowsOf, ...]
) -> Iterator[tuple[type[models.Model], Mapping[str, object], str]]:
    """Each row of each group, with its path under `prefix` ("battles[0].sides[2]")."""
    for key, model, rows in groups:
        for j, row in enumerate(rows):
            yield model, row, f"{prefix}.{key}[{j}]"


def _column_rows(
    doc: CampaignDocument,
) -> Iterator[tuple[type[models.Model], Mapping[str, object], str]]:
    from battles.models import Battle, BattleEvent, BattleFigure, BattleSide, PostBattleRoll
    from campaigns.models import Campaign, HouseRules, Membership
    from league.models import League, LeagueAdjustment, Pairing, Round
    from rosters.models import Character, Force, ServiceRecordEntry, Unit

    yield Campaign, doc["campaign"], "campaign"
    for i, v in enumerate(doc.get("house_rules", ())):
        yield HouseRules, v, f"house_rules[{i}]"
    for i, m in enumerate(doc["members"]):
        yield Membership, m, f"members[{i}]"
    for i, f in enumerate(doc["forces"]):
        yield Force, f, f"forces[{i}]"
        for j, u in enumerate(f["units"]):
            yield Unit, u, f"forces[{i}].units[{j}]"
        for j, c in enumerate(f["characters"]):
            yield Character, c, f"forces[{i}].characters[{j}]"
            for k, e in enumerate(c["service_record"]):
                yield ServiceRecordEntry, e, f"forces[{i}].characters[{j}].service_record[{k}]"
    for i, b in enumerate(doc["battles"]):
        yield Battle, b, f"battles[{i}]"
        battle_rows: tuple[RowsOf, ...] = (
            ("sides", BattleSide, b["sides"]),
            ("figures", BattleFigure, b["figures"]),
            ("events", BattleEvent, b["events"]),
            ("ledger", PostBattleRoll, b["ledger"]),
        )
        yield from _numbered(f"battles[{i}]", battle_rows)
    league = doc["league"]
    if league["settings"] is not None:
        yield League, league["settings"], "league.settings"
    league_rows: tuple[RowsOf, ...] = (
        ("rounds", Round, league["rounds"]),
        ("pairings", Pairing, league["pairings"]),
        ("adjustments", LeagueAdjustment, league["adjustments"]),
    )
    yield from _numbered("league", league_rows)


def document_problem(
    document: JSON, *, fmt: str, versions: tuple[int, ...], club_slug: str | None
) -> str | None:
    """Return the document's first problem as one line naming its path, or None."""
    checked = document_checked(document, fmt=fmt, versions=versions, club_slug=club_slug)
    return checked if isinstance(checked, str) else None


def _shaped(document: JSON, version: int) -> TypeGuard[CampaignDocument]:
    """Say the document has its version's shape; `_shape` raises, naming the path, if not."""
    _shape(document, DOCUMENT_V3 if version >= 3 else DOCUMENT, "document")
    return True


def document_checked(
    document: JSON, *, fmt: str, versions: tuple[int, ...], club_slug: str | None
) -> CampaignDocument | str:
    """Return the document, typed, once it is checked whole; or its first problem as one line
    naming its path."""
    try:
        document = _format(document, fmt)
        version = document.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version not in versions:
            raise DocumentProblem(
                f"version: must be the whole number {' or '.join(map(str, versions))}"
            )
        _texts(document)
        if not _shaped(document, version):
            raise DocumentProblem("document: not a campaign document")
        _slugs(document, club_slug)
        _systems(document)
        members = [m["user"] for m in document["members"]]
        _unique(members, "members", "member")
        refs = _References(document)
        _check_forces(document, len(document["battles"]))
        _check_battles(document, refs)
        _check_league(document, refs)
        for model, row, path in _column_rows(document):
            _columns(model, row, path)
        _check_house_rules(document)
    except DocumentProblem as problem:
        return str(problem).removeprefix("document.")
    return document


def _format(document: JSON, fmt: str) -> dict[str, JSON]:
    """Refuse what is not a campaign backup, naming what it is when we can tell."""
    found = document.get("format") if isinstance(document, dict) else None
    if found == fmt and isinstance(document, dict):
        return document
    if isinstance(found, str) and found.startswith("muster."):
        raise DocumentProblem(f"format: this is a {found[:40]} file, not a {fmt} document")
    raise DocumentProblem(f"document: not a {fmt} document")


def _systems(doc: CampaignDocument) -> None:
    """The campaign's rule system must be one this Muster knows, and every force must be
    played under it: a force of another system would break its campaign's stats."""
    from rules.errors import UnknownSystem
    from rules.system import all_systems, get_system

    system = doc["campaign"].get("system")
    try:
        get_system(str(system))
    except UnknownSystem:
        known = ", ".join(s.key for s in all_systems())
        raise DocumentProblem(
            f"campaign.system: {str(system)[:40]!r} is not a rule system here ({known})"
        ) from None
    for i, force in enumerate(doc["forces"]):
        if force.get("system", system) != system:
            raise DocumentProblem(
                f"forces[{i}].system: {str(force.get('system'))[:40]!r} is not the campaign's "
                f"system {system!r}"
            )


def _check_house_rules(doc: CampaignDocument) -> None:
    """Each version's pack validates for the campaign's system (the rules engine names the bad
    cell), its digest is the engine's, and every battle names a version the document holds."""
    versions = doc.get("house_rules", [])
    numbers = [v["number"] for v in versions]
    _unique(numbers, "house_rules", "house-rules version")
    for i, version in enumerate(versions):
        if version["number"] < 1:
            raise DocumentProblem(f"house_rules[{i}].number: must be 1 or more")
        digest = _pack_digest(doc["campaign"].get("system"), version["document"], i)
        if digest != version["digest"]:
            raise DocumentProblem(f"house_rules[{i}].digest: is not its pack's ({digest})")
    for i, battle in enumerate(doc["battles"]):
        number = battle.get("house_rules")
        if number is not None and number not in numbers:
            raise DocumentProblem(f"battles[{i}].house_rules: no house-rules version {number}")


def _pack_digest(system_key: JSON, document: Mapping[str, JSON], index: int) -> str:
    """The digest of a valid pack; an empty pack (no table set) is the rules as written."""
    from rules import house
    from rules.errors import RulesError
    from rules.system import get_system

    path = f"house_rules[{index}].document"
    try:
        system = get_system(str(system_key))
        if not document.get("tables") and system.house is None:
            return ""
        return house.load(system, document).digest
    except RulesError as error:
        raise DocumentProblem(f"{path}: {error}") from None


def _slugs(document: CampaignDocument, club_slug: str | None) -> None:
    club = document.get("club") or {}
    if not isinstance(club, dict):
        raise DocumentProblem("club: must be an object")
    for path, slug in (
        ("campaign.slug", document["campaign"]["slug"]),
        ("club.slug", club_slug or club.get("slug") or "imported"),
    ):
        if not isinstance(slug, str) or not SAFE_SLUG.match(slug):
            raise DocumentProblem(f"{path}: {slug!r} is not a slug (letters, digits, - and _ only)")
