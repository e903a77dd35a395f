"""A whole campaign to and from one JSON document (`muster.campaign`, version 1).

The force interchange (`rosters.interchange`) moves one force between clubs and deliberately
leaves history behind; this is the other thing: a club's *record* of a campaign, for backups
and moving a club to a new server. It holds the campaign and its league settings, members,
forces, units, characters with their whole service record, battles with sides, figures, the
event log and the post-battle ledger (seeds included, so the audit still works), rounds,
pairings and point adjustments, and the campaign's house-rules versions (each battle names the
version it was played under, so its odds and audit re-derive after an import) - every column,
timestamps included.

Rows refer to each other by natural keys, never database ids: users by username, forces by
their place in `forces`, characters and units by (force, name), battles by their place in
`battles`, figures by their place in their battle, rounds and house-rules versions by number.
Importing the document and exporting the result gives the same document back
(tests/ops/test_campaign_export.py).

Not in the document: passwords (users the importing site lacks are created without a usable
password), photo files (their names are; the media folder is backed up with the files), and
django-simple-history's field-by-field versions (the service record carries the same story).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice
from typing import TypeVar, overload

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models, transaction
from django.db.models import Prefetch
from simple_history.utils import bulk_create_with_history

from battles.chain import link_events
from battles.models import Battle, BattleEvent, BattleFigure, BattleSide, PostBattleRoll
from campaign_backup.schema import (
    BattleRow,
    CampaignDocument,
    CharacterRef,
    EventRow,
    ForceRow,
    HouseRulesRow,
    LeagueRow,
    document_checked,
    pairing_reports,
)
from campaigns.models import Campaign, Club, HouseRules, Membership
from common.json_types import JSON, JSONObject
from common.users import User
from league.models import League, LeagueAdjustment, Pairing, PairingReport, ResultEntry, Round
from league.services.results import result_entry_of
from rosters.models import Character, Force, ServiceRecordEntry, Unit
from rules.dice import HMAC_SHA256

FORMAT = "muster.campaign"
#: Version 2 added each battle's `dice_scheme` and each battle figure's `dice_key`. Version-1
#: documents still import: their battles are scheme 1, their figures have no key, and the audit
#: says those post-battle rolls cannot be re-derived. Version 3 added the campaign's
#: `house_rules` versions and each battle's `house_rules` (a version number, or null); older
#: documents import as campaigns that play the rules as written.
VERSION = 3
READABLE_VERSIONS = (1, 2, 3)
RESTORED = (
    Campaign,
    HouseRules,
    League,
    LeagueAdjustment,
    Membership,
    Round,
    Pairing,
    Force,
    Unit,
    Character,
    ServiceRecordEntry,
    Battle,
    BattleSide,
    BattleFigure,
    BattleEvent,
    PostBattleRoll,
)
#: Rows written per INSERT, and so how often a restore reports its progress (see `Progress`).
CHUNK_ROWS = 500
#: Told (step, rows written so far, rows in the document) as a restore goes.
Progress = Callable[[str, int, int], None]
Row = TypeVar("Row", bound=models.Model)


# --- export ----------------------------------------------------------------------------------


class _Encoder(DjangoJSONEncoder):
    """DjangoJSONEncoder, but datetimes keep their microseconds (it rounds to milliseconds)."""

    def default(self, o: object) -> object:
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def _plain(row: models.Model, *skip: str) -> dict[str, object]:
    """Return a row's own columns (no id, no foreign keys) as JSON-able values."""
    return {
        f.name: f.value_from_object(row)
        for f in row._meta.concrete_fields
        if not f.primary_key and not f.is_relation and f.name not in skip
    }


def _username(user: AbstractBaseUser | None) -> str | None:
    return user.get_username() if user is not None else None


class _Refs:
    """Natural keys for the rows already written to the document."""

    def __init__(
        self, forces: list[Force], battles: list[Battle], house_rules: list[HouseRules]
    ) -> None:
        self.force = {f.pk: i for i, f in enumerate(forces)}
        self.battle = {b.pk: i for i, b in enumerate(battles)}
        self.house_rules = {v.pk: v.number for v in house_rules}
        self.character: dict[int, list[int | str]] = {
            c.pk: [self.force[c.force_id], c.name] for f in forces for c in f.characters.all()
        }

    def character_of(self, pk: int | None) -> list[int | str] | None:
        return self.character.get(pk) if pk is not None else None


def _character_json(character: Character, refs: _Refs) -> dict[str, object]:
    entries = character.service_record.all()  # prefetched in order (campaign_export)
    return {
        **_plain(character, "photo"),
        "photo": character.photo.name or "",
        "unit": character.unit.name if character.unit is not None else None,
        "service_record": [
            {
                **_plain(e, "battle_id"),
                "user": _username(e.user),
                "battle": refs.battle.get(e.battle_id) if e.battle_id else None,
            }
            for e in entries
        ],
    }


def _force_json(force: Force, refs: _Refs) -> dict[str, object]:
    return {
        **_plain(force),
        "owner": _username(force.owner),
        "units": [
            {**_plain(u), "leader": u.leader.name if u.leader is not None else None}
            for u in force.units.all()
        ],
        "characters": [_character_json(c, refs) for c in force.characters.all()],
    }


def _battle_json(battle: Battle, refs: _Refs) -> dict[str, object]:
    figures = list(battle.figures.all())
    place: dict[int | None, int] = {f.pk: i for i, f in enumerate(figures)}
    return {
        **_plain(battle),
        "created_by": _username(battle.created_by),
        "house_rules": refs.house_rules.get(battle.house_rules_id)
        if battle.house_rules_id
        else None,
        "sides": [{**_plain(s), "force": refs.force[s.force_id]} for s in battle.sides.all()],
        "figures": [
            {**_plain(f), "side": f.side.index, "character": refs.character_of(f.character_id)}
            for f in figures
        ],
        "events": [
            {
                **_plain(e),
                "actor": place.get(e.actor_id),
                "target": place.get(e.target_id),
                "created_by": _username(e.created_by),
            }
            for e in battle.events.all()
        ],
        "ledger": [
            {**_plain(r), "character": refs.character_of(r.character_id)}
            for r in battle.ledger.all()
        ],
    }


def _forces(campaign: Campaign) -> list[Force]:
    """Every force with its units, characters and service records: one query per table."""
    entries = ServiceRecordEntry.objects.select_related("user").order_by("created_at", "pk")
    characters = (
        Character.objects.select_related("unit")
        .order_by("pk")
        .prefetch_related(Prefetch("service_record", entries))
    )
    units = Unit.objects.select_related("leader").order_by("order", "name", "pk")
    return list(
        campaign.forces.select_related("owner")
        .order_by("pk")
        .prefetch_related(
            Prefetch("units", units),
            Prefetch("characters", characters),
        )
    )


def _battles(campaign: Campaign) -> list[Battle]:
    """Every battle with its sides, figures, events and ledger: one query per table."""
    return list(
        campaign.battles.select_related("created_by")
        .order_by("pk")
        .prefetch_related(
            Prefetch("sides", BattleSide.objects.order_by("index")),
            Prefetch("figures", BattleFigure.objects.select_related("side").order_by("pk")),
            Prefetch("events", BattleEvent.objects.select_related("created_by").order_by("seq")),
            Prefetch("ledger", PostBattleRoll.objects.order_by("pk")),
        )
    )


def _league_json(campaign: Campaign, refs: _Refs) -> dict[str, object]:
    league = League.objects.filter(campaign=campaign).first()
    rounds = campaign.rounds.order_by("number")
    pairings = (
        Pairing.objects.filter(round__campaign=campaign)
        .select_related("round", "home__user", "away__user", "confirmed_by")
        .order_by("round__number", "pk")
    )
    written = _written_reports(campaign)
    return {
        "settings": _plain(league) if league else None,
        "rounds": [_plain(r) for r in rounds],
        "pairings": [
            {
                **_plain(p),
                "round": p.round.number,
                "home": _username(p.home.user),
                "away": _username(p.away.user) if p.away is not None else None,
                "battle": refs.battle.get(p.battle_id) if p.battle_id else None,
                "confirmed_by": _username(p.confirmed_by),
                "reports": written.get(p.pk, []),
            }
            for p in pairings
        ],
        "adjustments": [
            {**_plain(a), "player": _username(a.player.user), "created_by": _username(a.created_by)}
            for a in campaign.adjustments.select_related("player__user", "created_by").order_by(
                "pk"
            )
        ],
    }


def _written_reports(campaign: Campaign) -> dict[int, list[dict[str, object]]]:
    """What the players wrote beside their results, by pairing (one query)."""
    rows = PairingReport.objects.filter(pairing__round__campaign=campaign).select_related(
        "reporter"
    )
    written: dict[int, list[dict[str, object]]] = {}
    for r in rows.order_by("pairing_id", "side"):
        entry: dict[str, object] = {
            "side": r.side,
            "reporter": _username(r.reporter),
            "link": r.link,
            "text": r.text,
        }
        written.setdefault(r.pairing_id, []).append(entry)
    return written


def _house_rules(campaign: Campaign) -> list[HouseRules]:
    """Every house-rules version, oldest first: one query."""
    return list(campaign.house_rules_versions.select_related("created_by").order_by("number"))


def _house_rules_json(version: HouseRules) -> dict[str, object]:
    return {**_plain(version), "created_by": _username(version.created_by)}


def campaign_export(*, campaign: Campaign) -> JSONObject:
    """Return the whole campaign as a `muster.campaign` document (plain JSON values)."""
    forces, battles, house_rules = _forces(campaign), _battles(campaign), _house_rules(campaign)
    refs = _Refs(forces, battles, house_rules)
    members = campaign.memberships.select_related("user").order_by("pk")
    document = {
        "format": FORMAT,
        "version": VERSION,
        "club": {"name": campaign.club.name, "slug": campaign.club.slug},
        "campaign": _plain(campaign),
        "house_rules": [_house_rules_json(v) for v in house_rules],
        "members": [{**_plain(m), "user": _username(m.user)} for m in members],
        "forces": [_force_json(f, refs) for f in forces],
        "battles": [_battle_json(b, refs) for b in battles],
        "league": _league_json(campaign, refs),
    }
    plain: JSONObject = json.loads(json.dumps(document, cls=_Encoder))
    return plain


# --- import ----------------------------------------------------------------------------------


@contextmanager
def _stored_timestamps() -> Iterator[None]:
    """Keep the document's created/updated times: switch auto_now(_add) off while importing."""
    switched = [
        (f, f.auto_now, f.auto_now_add)
        for model in RESTORED
        for f in model._meta.concrete_fields
        if isinstance(f, models.DateField) and (f.auto_now_add or f.auto_now)
    ]
    for f, _, _ in switched:
        f.auto_now = f.auto_now_add = False
    try:
        yield
    finally:
        for f, now, now_add in switched:
            f.auto_now, f.auto_now_add = now, now_add


def _agreed_before_consent(battle: Battle) -> dict[str, object]:
    """A fought battle from a document older than consent counts as agreed by every side (as
    the migration treats the battles of that time); a newer document carries `agreed_at`."""
    fought = (Battle.Status.FINISHED, Battle.Status.PROCESSING, Battle.Status.PROCESSED)
    if battle.status not in fought:
        return {}
    return {"agreed_at": battle.finished_at or battle.created_at}


def _values(model: type[models.Model], data: Mapping[str, object]) -> dict[str, object]:
    """Turn a document row's own columns back into field values."""
    own = {
        f.name: f for f in model._meta.concrete_fields if not f.primary_key and not f.is_relation
    }
    return {k: own[k].to_python(v) for k, v in data.items() if k in own}


def _link_unchained(battle: Battle, events: list[BattleEvent], doc: BattleRow) -> None:
    """Link the log of a battle exported before the hash chain (no `log_head`) on import."""
    if doc.get("log_head") or not events:
        return
    battle.log_head = link_events(sorted(events, key=lambda e: e.seq))
    Battle.objects.filter(pk=battle.pk).update(log_head=battle.log_head)


class _Users:
    """The document's users by username: existing ones fetched, missing ones created, in bulk."""

    def __init__(self, usernames: Iterable[str]) -> None:
        model = get_user_model()
        field = model.USERNAME_FIELD
        wanted = set(usernames)
        found = model._default_manager.filter(**{f"{field}__in": wanted})
        self.by_name = {getattr(u, field): u for u in found}
        missing = [model(**{field: name}) for name in sorted(wanted - set(self.by_name))]
        for user in missing:  # a login of the old site: its owner sets a password here
            user.set_unusable_password()
        for user in model._default_manager.bulk_create(missing):
            self.by_name[getattr(user, field)] = user

    @overload
    def __call__(self, username: str) -> User: ...
    @overload
    def __call__(self, username: str | None) -> User | None: ...
    def __call__(self, username: str | None) -> User | None:
        return self.by_name[username] if username is not None else None


def _usernames(doc: CampaignDocument) -> Iterator[str | None]:
    """Every username the document names (members, owners, authors, confirmers)."""
    yield from (m["user"] for m in doc["members"])
    yield from (v["created_by"] for v in doc.get("house_rules", ()))
    for force in doc["forces"]:
        yield force["owner"]
        yield from (e["user"] for c in force["characters"] for e in c["service_record"])
    for battle in doc["battles"]:
        yield battle["created_by"]
        yield from (e["created_by"] for e in battle["events"])
    league = doc["league"]
    yield from (p["confirmed_by"] for p in league["pairings"])
    for i, p in enumerate(league["pairings"]):
        yield from (name for name, _ in pairing_reports(p, f"league.pairings[{i}]"))
    yield from (a["created_by"] for a in league["adjustments"])


def _clash(document: CampaignDocument, club_slug: str) -> str | None:
    slug = document["campaign"]["slug"]
    if Campaign.objects.filter(club__slug=club_slug, slug=slug).exists():
        return f"campaign.slug: club {club_slug!r} already has a campaign {slug!r}"
    return _borrowed_photo(document)


def _borrowed_photo(document: CampaignDocument) -> str | None:
    """A backup names only its own photos: one a character of this database already holds
    belongs to another campaign, and naming it would serve that photo to this one's members."""
    named = {
        c["photo"]: f"forces[{i}].characters[{j}].photo"
        for i, force in enumerate(document["forces"])
        for j, c in enumerate(force["characters"])
        if c["photo"]
    }
    held = Character.objects.filter(photo__in=list(named)).values_list("photo", flat=True)
    for photo in sorted(held):
        return f"{named[photo]}: {photo!r} is another character's photo, not this backup's own"
    return None


def row_count(doc: CampaignDocument) -> int:
    """Return how many rows restoring a checked document writes (the campaign included)."""
    league = doc["league"]
    forces = doc["forces"]
    characters = [c for f in forces for c in f["characters"]]
    battle_rows = sum(
        1 + sum(len(b[key]) for key in ("sides", "figures", "events", "ledger"))
        for b in doc["battles"]
    )
    return (
        1
        + len(doc["members"])
        + len(doc.get("house_rules", ()))
        + len(forces)
        + sum(len(f["units"]) for f in forces)
        + len(characters)
        + sum(len(c["service_record"]) for c in characters)
        + battle_rows
        + (league["settings"] is not None)
        + len(league["rounds"])
        + len(league["pairings"])
        + sum(1 for p in league["pairings"] if _played(p.get("version")))  # their result entries
        + sum(len(pairing_reports(p, "league.pairings")) for p in league["pairings"])
        + len(league["adjustments"])
    )


def _played(version: JSON) -> bool:
    """Say whether a pairing's stored version means a result was entered (version 1 on)."""
    return isinstance(version, int) and version > 0


class _Importer:
    """Write a checked document: one bulk insert per table (per CHUNK_ROWS rows), whatever the
    number of battles, telling `progress` after each."""

    def __init__(
        self, document: CampaignDocument, club: Club, progress: Progress | None = None
    ) -> None:
        self.doc, self.club = document, club
        self.user = _Users(name for name in _usernames(document) if name is not None)
        self.forces: list[Force] = []
        self.characters: dict[tuple[int, str], Character] = {}
        self.battles: list[Battle] = []
        self.house_rules: dict[int | None, HouseRules] = {}
        self.progress = progress
        self.done, self.total = 0, row_count(document) if progress else 0

    def _told(self, step: str, rows: int) -> None:
        self.done += rows
        if self.progress is not None:
            self.progress(step, self.done, self.total)

    def _insert(self, model: type[Row], rows: Iterable[Row], step: str) -> list[Row]:
        """Bulk-insert `rows` CHUNK_ROWS at a time, telling the progress after each chunk."""
        written: list[Row] = []
        pending = iter(rows)
        while chunk := list(islice(pending, CHUNK_ROWS)):
            written += model._default_manager.bulk_create(chunk)
            self._told(step, len(chunk))
        return written

    def character(self, ref: CharacterRef | None) -> Character | None:
        if ref is None:
            return None
        force, name = ref  # checked: [force number, character name] (schema._References)
        if not isinstance(force, int) or not isinstance(name, str):
            raise ValueError(f"a character is [force number, name], not {ref!r}")
        return self.characters[(force, name)]

    def run(self) -> Campaign:
        self.campaign = Campaign.objects.create(
            club=self.club, **_values(Campaign, self.doc["campaign"])
        )
        self._told("Campaign", 1)
        members = self._insert(
            Membership,
            (
                Membership(
                    campaign=self.campaign, user=self.user(m["user"]), **_values(Membership, m)
                )
                for m in self.doc["members"]
            ),
            "Members",
        )
        self.members = {m["user"]: row for m, row in zip(self.doc["members"], members, strict=True)}
        self._house_rules(self.doc.get("house_rules", []))
        self._rosters(self.doc["forces"])
        self._battles(self.doc["battles"])
        self._service_records(self.doc["forces"])
        self._league(self.doc["league"])
        return self.campaign

    def _house_rules(self, versions: list[HouseRulesRow]) -> None:
        # Checked already (campaign_backup.schema): each pack validates for the campaign's
        # system, and its digest is the one the rules engine gives it.
        rows = self._insert(
            HouseRules,
            (
                HouseRules(
                    campaign=self.campaign,
                    created_by=self.user(v["created_by"]),
                    **_values(HouseRules, v),
                )
                for v in versions
            ),
            "House rules",
        )
        self.house_rules = {row.number: row for row in rows}

    def _rosters(self, forces: list[ForceRow]) -> None:
        self.forces = self._insert(
            Force,
            (
                Force(owner=self.user(f["owner"]), campaign=self.campaign, **_values(Force, f))
                for f in forces
            ),
            "Forces",
        )
        units = self._insert(
            Unit,
            (
                Unit(force=force, **_values(Unit, u))
                for force, f in zip(self.forces, forces, strict=True)
                for u in f["units"]
            ),
            "Units",
        )
        by_name: dict[tuple[int, str | None], Unit] = {(u.force_id, u.name): u for u in units}
        characters = []
        for index, (force, f) in enumerate(zip(self.forces, forces, strict=True)):
            for c in f["characters"]:
                character = Character(
                    force=force, unit=by_name.get((force.pk, c["unit"])), **_values(Character, c)
                )
                character.photo.name = c["photo"]
                characters.append(character)
                self.characters[(index, c["name"])] = character
        bulk_create_with_history(characters, Character, batch_size=CHUNK_ROWS)
        self._told("Characters", len(characters))
        self._leaders(forces, by_name)

    def _leaders(
        self, forces: list[ForceRow], units: Mapping[tuple[int, str | None], Unit]
    ) -> None:
        led = []
        for index, (force, f) in enumerate(zip(self.forces, forces, strict=True)):
            for u in f["units"]:
                if u["leader"]:
                    unit = units[(force.pk, u["name"])]
                    unit.leader = self.characters[(index, u["leader"])]
                    led.append(unit)
        Unit.objects.bulk_update(led, ["leader"])

    def _service_records(self, forces: list[ForceRow]) -> None:
        self._insert(
            ServiceRecordEntry,
            (
                ServiceRecordEntry(
                    character=self.characters[(index, c["name"])],
                    user=self.user(e["user"]),
                    battle_id=self.battles[e["battle"]].pk if e["battle"] is not None else None,
                    **_values(ServiceRecordEntry, e),
                )
                for index, data in enumerate(forces)
                for c in data["characters"]
                for e in c["service_record"]
            ),
            "Service records",
        )

    def _battles(self, battles: list[BattleRow]) -> None:
        self.battles = self._insert(
            Battle,
            (
                Battle(
                    campaign=self.campaign,
                    created_by=self.user(b["created_by"]),
                    house_rules=self.house_rules.get(b.get("house_rules")),
                    # Version-1 documents predate dice schemes: each battle then was rolled with 1.
                    **{"dice_scheme": HMAC_SHA256, **_values(Battle, b)},
                )
                for b in battles
            ),
            "Battles",
        )
        pairs = list(zip(self.battles, battles, strict=True))
        sides = self._insert(
            BattleSide,
            (
                BattleSide(
                    battle=battle,
                    force=self.forces[s["force"]],
                    **{**_agreed_before_consent(battle), **_values(BattleSide, s)},
                )
                for battle, b in pairs
                for s in b["sides"]
            ),
            "Battle sides",
        )
        side_of = {(side.battle_id, side.index): side for side in sides}
        figures = self._insert(
            BattleFigure,
            (
                BattleFigure(
                    battle=battle,
                    side=side_of[(battle.pk, f["side"])],
                    character=self.character(f["character"]),
                    **_values(BattleFigure, f),
                )
                for battle, b in pairs
                for f in b["figures"]
            ),
            "Battle figures",
        )
        placed = iter(figures)
        figures_of = {battle.pk: [next(placed) for _ in b["figures"]] for battle, b in pairs}
        events = {
            battle.pk: [self._event(battle, figures_of[battle.pk], e) for e in b["events"]]
            for battle, b in pairs
        }
        for battle, b in pairs:
            _link_unchained(battle, events[battle.pk], b)
        self._insert(BattleEvent, (e for log in events.values() for e in log), "Battle events")
        self._insert(
            PostBattleRoll,
            (
                PostBattleRoll(
                    battle=battle,
                    character=self.character(r["character"]),
                    **_values(PostBattleRoll, r),
                )
                for battle, b in pairs
                for r in b["ledger"]
            ),
            "Post-battle rolls",
        )

    def _event(self, battle: Battle, figures: list[BattleFigure], e: EventRow) -> BattleEvent:
        return BattleEvent(
            battle=battle,
            created_by=self.user(e["created_by"]),
            actor=figures[e["actor"]] if e["actor"] is not None else None,
            target=figures[e["target"]] if e["target"] is not None else None,
            **_values(BattleEvent, e),
        )

    def _league(self, data: LeagueRow) -> None:
        if data["settings"] is not None:
            League.objects.create(campaign=self.campaign, **_values(League, data["settings"]))
            self._told("League settings", 1)
        rounds = self._insert(
            Round,
            (Round(campaign=self.campaign, **_values(Round, r)) for r in data["rounds"]),
            "Rounds",
        )
        by_number = {r.number: r for r in rounds}
        pairings = self._insert(
            Pairing,
            (
                Pairing(
                    round=by_number[p["round"]],
                    home=self.members[p["home"]],
                    away=self.members[p["away"]] if p["away"] else None,
                    battle=self.battles[p["battle"]] if p["battle"] is not None else None,
                    confirmed_by=self.user(p["confirmed_by"]),
                    **_values(Pairing, p),
                )
                for p in data["pairings"]
            ),
            "Pairings",
        )
        # A played pairing of the copy is history like the original's: its result as restored
        # is its first entry (the original's corrections stay with the original).
        self._insert(
            ResultEntry,
            (
                result_entry_of(pairing, pairing.confirmed_by)
                for pairing in pairings
                if pairing.version > 0
            ),
            "Results",
        )
        self._insert(
            PairingReport,
            (
                PairingReport(
                    pairing=pairing, reporter=self.user(reporter), **_values(PairingReport, r)
                )
                for i, (pairing, p) in enumerate(zip(pairings, data["pairings"], strict=True))
                for reporter, r in pairing_reports(p, f"league.pairings[{i}]")
            ),
            "Written reports",
        )
        self._insert(
            LeagueAdjustment,
            (
                LeagueAdjustment(
                    campaign=self.campaign,
                    player=self.members[a["player"]],
                    created_by=self.user(a["created_by"]),
                    **_values(LeagueAdjustment, a),
                )
                for a in data["adjustments"]
            ),
            "Point adjustments",
        )


def as_copy(document: JSON, *, name: str, slug: str) -> JSON:
    """Return the document restored as a copy under a new name and slug (no JSON to edit by
    hand); the copy remembers the original's slug, so its games are not rated twice."""
    original = document.get("campaign") if isinstance(document, dict) else None
    if not isinstance(document, dict) or not isinstance(original, dict):
        return document  # the import's own check names what is wrong with it
    copy_of = original.get("copy_of") or original.get("slug", "")
    return {**document, "campaign": {**original, "name": name, "slug": slug, "copy_of": copy_of}}


@dataclass(frozen=True)
class Restore:
    """A checked document, ready to write: as a copy if asked, and the club it goes into."""

    document: CampaignDocument
    club_slug: str
    club_name: str


def restore_checked(
    *, document: JSON, club_slug: str | None = None, name: str = "", slug: str = ""
) -> Restore:
    """Check a document whole for a restore (as a copy when `slug` is given) into a club, and
    the club for a clash; raise ValidationError with one line naming the bad path."""
    if slug:
        document = as_copy(document, name=name or slug, slug=slug)
    checked = document_checked(
        document, fmt=FORMAT, versions=READABLE_VERSIONS, club_slug=club_slug
    )
    if isinstance(checked, str):
        raise ValidationError({"document": [checked]})
    spec = checked.get("club") or {}
    if not isinstance(spec, dict):  # checked already (schema._slugs)
        raise ValidationError({"document": ["club: must be an object"]})
    named, club_name = spec.get("slug"), spec.get("name")
    slug = club_slug or (named if isinstance(named, str) else "") or "imported"
    problem = _clash(checked, slug)
    if problem:
        raise ValidationError({"document": [problem]})
    shown = club_name if isinstance(club_name, str) else None
    return Restore(checked, slug, (shown or slug)[:120])


@transaction.atomic
def campaign_import(
    *,
    document: JSON,
    club_slug: str | None = None,
    name: str = "",
    slug: str = "",
    progress: Progress | None = None,
) -> Campaign:
    """Restore a `muster.campaign` document into a club (the document's, or `club_slug`);
    with `name` and `slug`, as a copy (`as_copy`), into the same club or another.

    The whole document is checked first (`restore_checked`): a bad one is refused with one line
    naming the bad path, and nothing is written. `progress` is told how far the writing got.
    """
    restore = restore_checked(document=document, club_slug=club_slug, name=name, slug=slug)
    club, _ = Club.objects.get_or_create(
        slug=restore.club_slug, defaults={"name": restore.club_name}
    )
    with _stored_timestamps():
        return _Importer(restore.document, club, progress).run()


def documents_equal(
    first: Mapping[str, object], second: Mapping[str, object], ignore: Iterable[str] = ("club",)
) -> bool:
    """Say whether two documents hold the same campaign (by default, in any club)."""
    strip = set(ignore)
    return {k: v for k, v in first.items() if k not in strip} == {
        k: v for k, v in second.items() if k not in strip
    }
