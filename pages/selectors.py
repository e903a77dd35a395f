"""Reads shaped for the player pages, each in a fixed number of queries whatever the roster size.

These are page-specific: they gather rows from rosters, battles and campaigns into the blocks
a page draws (a unit with its figures, a career timeline, a side at the table). The apps' own
selectors decide who may see what; these only shape what was already allowed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db.models import Count, F, Prefetch, QuerySet

from battles.models import (
    Battle,
    BattleEvent,
    BattleFigure,
    BattleSide,
    BattleStatus,
    PostBattleRoll,
)
from campaigns.models import Campaign, Membership
from common.orm import count_of, prefetched
from common.users import User
from league.core import PlayerId
from league.core.errors import LeagueError
from league.core.standings import StandingRow
from league.models import Pairing, Round
from league.selectors import current_round, league_standings, round_pairings
from pages.after import is_wound_roll, roll_json
from pages.charts import StepChart, step_chart
from pages.display import Stat, equipment, stat_block, stat_line
from rosters.models import Character, CharacterStatus, Force, ServiceRecordEntry, Unit
from rosters.selectors import force_roster, piece_stats
from rules import narrate
from rules.schema import Field
from rules.system import RuleSystem

#: Statuses a figure leaves the roster proper with: drawn in their own section of the force.
FALLEN = (CharacterStatus.DEAD,)
AWAY = (CharacterStatus.RETIRED, CharacterStatus.CAPTURED)


def recovery_dates(character_ids: Iterable[int]) -> dict[int, date]:
    """Return each character's latest healing date from processed post-battle rolls (1 query).

    The batched form of `battles.selectors.character_recovers_on`, for a whole roster at once.
    """
    rows = (
        PostBattleRoll.objects.filter(
            character_id__in=list(character_ids), battle__status=BattleStatus.PROCESSED
        )
        .order_by("battle__processed_at", "battle_id", "procedure", "index")
        .values_list("character_id", "result")
    )
    found: dict[int, date] = {}
    for character_id, result in rows:
        for change in result.get("changes", ()):
            if change.get("kind") == "recovers_on":
                found[character_id] = date.fromisoformat(str(change["after"]))
    return found


# --- the force page -------------------------------------------------------------------------


@dataclass(frozen=True)
class FigureRow:
    character: Character
    line: tuple[str, ...]
    stats: tuple[Stat, ...]
    kit: tuple[Stat, ...]
    recovers_on: date | None

    @property
    def status_class(self) -> str:
        return self.character.status.lower()


@dataclass(frozen=True)
class UnitBlock:
    name: str
    unit: Unit | None
    figures: tuple[FigureRow, ...]


@dataclass(frozen=True)
class ForceSheet:
    force: Force
    system: RuleSystem
    units: tuple[UnitBlock, ...]
    fallen: tuple[FigureRow, ...]
    away: tuple[FigureRow, ...]
    strength: int


def _figure_row(system: RuleSystem, character: Character, healing: dict[int, date]) -> FigureRow:
    stats = piece_stats(character, system.piece)
    return FigureRow(
        character,
        stat_line(system, character.name, stats),
        stat_block(system, stats),
        equipment(system, stats),
        healing.get(character.pk) if character.status == "RECOVERING" else None,
    )


def force_sheet(force: Force, system: RuleSystem) -> ForceSheet:
    """Return the force's roster by unit, the fallen and the departed apart (3 queries)."""
    characters = list(force_roster(force))
    healing = recovery_dates(c.pk for c in characters if c.status == CharacterStatus.RECOVERING)
    rows = [_figure_row(system, c, healing) for c in characters]
    by_unit: dict[int | None, list[FigureRow]] = defaultdict(list)
    for row in rows:
        if row.character.status not in (*FALLEN, *AWAY):
            by_unit[row.character.unit_id].append(row)
    units = [
        UnitBlock(u.name, u, tuple(by_unit.get(u.pk, ())))
        for u in force.units.order_by("order", "name", "pk")
    ]
    if by_unit.get(None):
        units.append(UnitBlock("Not in a unit", None, tuple(by_unit[None])))
    fallen = tuple(r for r in rows if r.character.status in FALLEN)
    away = tuple(r for r in rows if r.character.status in AWAY)
    return ForceSheet(
        force, system, tuple(units), fallen, away, len(rows) - len(fallen) - len(away)
    )


# --- the character page: the career -----------------------------------------------------


@dataclass(frozen=True)
class Change:
    label: str
    before: str
    after: str


@dataclass(frozen=True)
class Moment:
    """One line of the career timeline: an entry of the service record or a battle fought."""

    when: datetime
    kind: str  # created, edit, battle, roll, death
    title: str
    note: str = ""
    changes: tuple[Change, ...] = ()
    rolls: tuple[PostBattleRoll, ...] = ()
    battle: Battle | None = None
    figure: BattleFigure | None = None
    #: The battle in words: how the figure ended it, and each post-battle roll as a sentence.
    summary: str = ""
    roll_sentences: tuple[str, ...] = ()
    who: str = ""  # the user who made an entry by hand


@dataclass(frozen=True)
class Career:
    character: Character
    system: RuleSystem
    stats: tuple[Stat, ...]
    kit: tuple[Stat, ...]
    line: tuple[str, ...]
    timeline: tuple[Moment, ...]
    charts: tuple[StepChart, ...]
    battles: int
    kills: int
    recovers_on: date | None


def _changes(
    system: RuleSystem, before: dict[str, Any], after: dict[str, Any]
) -> tuple[Change, ...]:
    changes: list[Change] = []
    old_stats, new_stats = before.get("stats") or {}, after.get("stats") or {}
    for name in sorted(set(old_stats) | set(new_stats), key=_schema_order(system)):
        label = system.stats[name].title if name in system.stats else name.replace("_", " ")
        changes.append(Change(label, _plain(old_stats.get(name)), _plain(new_stats.get(name))))
    for key in ("status", "permanent_wounds", "rank", "unit", "name"):
        if key in after and before.get(key) != after.get(key):
            changes.append(
                Change(key.replace("_", " "), _plain(before.get(key)), _plain(after.get(key)))
            )
    return tuple(changes)


def _schema_order(system: RuleSystem) -> Callable[[str], int]:
    names = list(system.stats.names)
    return lambda name: names.index(name) if name in names else len(names)


def _plain(value: object) -> str:
    if value in (None, "", []):
        return "—"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value).lower() if str(value).isupper() else str(value)


def _entry_moment(system: RuleSystem, entry: ServiceRecordEntry) -> Moment:
    who = entry.user.get_username() if entry.user else ""
    if entry.cause == "CREATED" or entry.cause == "IMPORT":
        title = entry.get_cause_display()
        return Moment(entry.created_at, "created", title, entry.note, who=who)
    changes = () if entry.cause == "CREATED" else _changes(system, entry.before, entry.after)
    dead = (entry.after or {}).get("status") == CharacterStatus.DEAD
    kind = "death" if dead else "roll" if entry.cause == "ROLL" else "edit"
    return Moment(entry.created_at, kind, entry.get_cause_display(), entry.note, changes, who=who)


def _figure_summary(
    system: RuleSystem, figure: BattleFigure, rolls: Sequence[PostBattleRoll] = ()
) -> str:
    """Return how the figure ended the battle: "Ended it wounded · 1 kill · used Fire skill"
    (and, for a wound that left nothing behind once the rolls were made, that it healed)."""
    parts = []
    if figure.final_status:
        parts.append(f"Ended the battle {narrate.humanise(figure.final_status)}")
        taken = system.harm_taken(figure.stats, figure.state)
        healed = figure.battle.status == "PROCESSED" and not any(is_wound_roll(r) for r in rolls)
        if figure.final_status == "wounded" and taken and healed and system.harm == "wounds":
            parts.append("healed after the battle")
    if figure.kills:
        parts.append(f"{figure.kills} kill{'s' if figure.kills != 1 else ''}")
    if figure.skills_used:
        used = ", ".join(narrate.stat_name(system.key, s) for s in figure.skills_used)
        parts.append(f"used {used}")
    return " · ".join(parts)


def _battle_moment(
    system: RuleSystem,
    figure: BattleFigure,
    rolls: Sequence[PostBattleRoll],
    entries: Sequence[Moment],
) -> Moment:
    battle = figure.battle
    when = battle.finished_at or battle.created_at
    title = f"Fought in {battle}"
    changes = tuple(c for moment in entries for c in moment.changes)
    note = "; ".join(m.note for m in entries if m.note and m.note != title)
    died = any(m.kind == "death" for m in entries)
    said = tuple(narrate.roll_sentence(system.key, roll_json(r), figure.name) for r in rolls)
    return Moment(
        when,
        "death" if died else "battle",
        title,
        note,
        changes,
        tuple(rolls),
        battle,
        figure,
        _figure_summary(system, figure, rolls),
        said,
    )


Series = list[tuple[str, float]]


def _stat_series(
    numeric: Sequence[Field], entries: Sequence[ServiceRecordEntry]
) -> dict[str, Series]:
    """Return each numeric stat's value after every entry that set it, oldest first."""
    points: dict[str, Series] = {f.name: [] for f in numeric}
    for entry in entries:
        changed = (entry.after or {}).get("stats") or {}
        earlier = (entry.before or {}).get("stats") or {}
        for f in numeric:
            value = changed.get(f.name)
            if not isinstance(value, int):
                continue
            if not points[f.name] and isinstance(earlier.get(f.name), int):
                points[f.name].append(("before", earlier[f.name]))  # a record begun mid-career
            points[f.name].append((entry.created_at.date().isoformat(), value))
    return points


def _stat_chart(f: Field, series: Series, now: object) -> StepChart | None:
    """Chart one stat's series (ending at its value now); None if it never changed."""
    if isinstance(now, int) and (not series or series[-1][1] != now):
        series = [*series, ("now", now)]
    if len({value for _, value in series}) < 2:
        return None
    low, high = _range(f)
    return step_chart(series, title=f.title, low=low, high=high)


def _stat_charts(
    system: RuleSystem, entries: Sequence[ServiceRecordEntry], current: dict[str, Any]
) -> tuple[StepChart, ...]:
    """Chart every numeric stat that changed over the career."""
    numeric = [f for f in system.stats.fields if f.kind in ("int", "die")]
    series = _stat_series(numeric, entries)
    charts = (_stat_chart(f, series[f.name], current.get(f.name)) for f in numeric)
    return tuple(chart for chart in charts if chart is not None)


def _range(f: Field) -> tuple[float, float]:
    if f.kind == "die":
        values = [v for v, _ in f.choices if isinstance(v, int)]
        return (min(values), max(values)) if values else (0, 12)
    return (f.min if f.min is not None else 0, f.max if f.max is not None else 10)


def _timeline(
    system: RuleSystem,
    entries: Sequence[ServiceRecordEntry],
    figures: Sequence[BattleFigure],
    rolls: Sequence[PostBattleRoll],
) -> tuple[Moment, ...]:
    """Merge the service record and the battles fought into one timeline, newest first.

    An entry made by a battle (a wound, an improvement, a death) is told under that battle.
    """
    by_battle: dict[int, list[PostBattleRoll]] = defaultdict(list)
    for roll in rolls:
        by_battle[roll.battle_id].append(roll)
    moments = [(e.battle_id, _entry_moment(system, e)) for e in entries]
    fought = {f.battle_id for f in figures}
    timeline = [m for battle_id, m in moments if battle_id not in fought]
    for f in figures:
        told = [m for battle_id, m in moments if battle_id == f.battle_id]
        timeline.append(_battle_moment(system, f, by_battle.get(f.battle_id, ()), told))
    return tuple(sorted(timeline, key=lambda m: m.when, reverse=True))


def character_career(character: Character, system: RuleSystem) -> Career:
    """Return the character's career: stats, timeline, charts (3 queries; 4 if recovering)."""
    entries = list(character.service_record.select_related("user").order_by("created_at", "pk"))
    # Only battles fought count: a set-up never finished is no part of a career.
    figures = list(
        BattleFigure.objects.filter(character=character)
        .exclude(battle__status__in=(BattleStatus.SETUP, BattleStatus.IN_PROGRESS))
        .select_related("battle")
        .order_by("battle__created_at", "pk")
    )
    rolls = list(character.post_battle_rolls.order_by("battle_id", "procedure", "index"))
    stats = piece_stats(character, system.piece)  # a unit-piece figure's stats are its unit's
    healing = recovery_dates([character.pk]) if character.status == "RECOVERING" else {}
    return Career(
        character,
        system,
        stat_block(system, stats),
        equipment(system, stats),
        stat_line(system, character.name, stats),
        _timeline(system, entries, figures, rolls),
        _stat_charts(system, entries, stats),
        len(figures),
        sum(f.kills for f in figures),
        healing.get(character.pk),
    )


# --- the campaign page ------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    row: StandingRow
    name: str


@dataclass(frozen=True)
class ForceTile:
    """A force as the campaign page's tiles show it: named in Python, since a club's page
    has dozens of tiles and two method calls a tile in the template cost more than the
    rest of the tile."""

    pk: int
    name: str
    owner: str
    characters: int

    @classmethod
    def of(cls, force: Force) -> ForceTile:
        """`force` with its owner loaded and its `character_count` annotated."""
        owner = force.owner.get_full_name() or force.owner.get_username()
        return cls(force.pk, force.name, owner, force.character_count)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class CampaignOverview:
    campaign: Campaign
    members: tuple[Membership, ...]
    forces: tuple[ForceTile, ...]
    battles: tuple[Battle, ...]
    standings: tuple[Standing, ...]
    standings_note: str
    round: Round | None
    pairings: tuple[Pairing, ...]


RECENT_BATTLES = 10


def campaign_battles(campaign: Campaign) -> QuerySet[Battle]:
    sides = BattleSide.objects.select_related("force__owner").order_by("index")
    return campaign.battles.order_by("-created_at", "-pk").prefetch_related(
        Prefetch("sides", queryset=sides)
    )


def _name_of(names: Mapping[PlayerId, str], player: PlayerId) -> str:
    """A player's name in the table; an id the club has no name for is shown as it is."""
    return names.get(player, str(player)) if isinstance(player, int) else str(player)


def standings_of(campaign: Campaign) -> tuple[tuple[Standing, ...], str]:
    """Return the league table with names, or an explanation when the league cannot score."""
    try:
        table = league_standings(campaign)
    except LeagueError as exc:
        return (), f"The league's settings need fixing by an organiser: {exc}"
    return tuple(Standing(row, _name_of(table.names, row.player)) for row in table.rows), ""


def campaign_overview(campaign: Campaign) -> CampaignOverview:
    """Return members, forces, recent battles, standings and the current round (11 queries)."""
    members = tuple(campaign.memberships.select_related("user").order_by("role", "user__username"))
    forces = tuple(
        ForceTile.of(force)
        for force in campaign.forces.select_related("owner")
        .annotate(character_count=count_of(Character, "force"))
        .order_by("name", "pk")
    )
    battles = tuple(campaign_battles(campaign)[:RECENT_BATTLES])
    standings, note = standings_of(campaign)
    round_ = current_round(campaign)
    pairings = tuple(round_pairings(round_)) if round_ is not None else ()
    return CampaignOverview(campaign, members, forces, battles, standings, note, round_, pairings)


# --- the table assistant ------------------------------------------------------------------


@dataclass(frozen=True)
class SideBlock:
    side: BattleSide
    figures: tuple[BattleFigure, ...]


@dataclass(frozen=True)
class Table:
    battle: Battle
    system: RuleSystem
    sides: tuple[SideBlock, ...]
    figures: tuple[BattleFigure, ...]
    events: tuple[BattleEvent, ...]
    last: BattleEvent | None


EVENT_LOG_LENGTH = 30


def _recent_events(
    battle: Battle, sides: Sequence[BattleSide], figures: Sequence[BattleFigure]
) -> list[BattleEvent]:
    """The log's newest events, each with its actor, target and author, as read at the table.

    Their figures are the battle's, already loaded: set on each event rather than joined
    (two copies of a figure's JSON decoded per row cost more than the rest of the page's
    reads). Their authors are mostly the players, whose users the sides hold; anyone else is
    read in one query. The state an event saved to be voided is not read here.
    """
    events = list(battle.events.defer("state_before").order_by("-seq")[:EVENT_LOG_LENGTH])
    by_id = {f.pk: f for f in figures}
    users = {s.force.owner_id: s.force.owner for s in sides}
    others = {e.created_by_id for e in events if e.created_by_id not in users} - {None}
    if others:
        users.update(User.objects.in_bulk(others))
    for event in events:
        if event.actor_id in by_id:
            event.actor = by_id[event.actor_id]
        if event.target_id in by_id:
            event.target = by_id[event.target_id]
        if event.created_by_id in users:
            event.created_by = users[event.created_by_id]
    return events


def battle_table(battle: Battle, system: RuleSystem) -> Table:
    """Return the battle's sides with their figures and the recent event log (2 queries; 3 for
    a battle not loaded by `battle_with_sides`, or when someone other than its players wrote
    one of the events shown)."""
    sides = _sides_with_owners(battle)
    figures = _figures_in_order(battle, sides)
    events = _recent_events(battle, sides, figures)
    blocks = tuple(SideBlock(s, tuple(f for f in figures if f.side_id == s.pk)) for s in sides)
    last = next((e for e in events if not e.voided and e.kind != BattleEvent.Kind.VOID), None)
    return Table(battle, system, blocks, tuple(figures), tuple(events), last)


def battle_events(battle: Battle) -> tuple[BattleEvent, ...]:
    """Return the battle's whole event log, oldest first (1 query)."""
    return tuple(battle.events.select_related("actor", "target", "created_by").order_by("seq"))


def battle_ledger(battle: Battle) -> tuple[PostBattleRoll, ...]:
    """Return the battle's post-battle rolls, grouped by character (1 query)."""
    return tuple(
        battle.ledger.select_related("character__force").order_by(
            "character__name", "character_id", "procedure", "index"
        )
    )


def _figures_in_order(battle: Battle, sides: Sequence[BattleSide]) -> list[BattleFigure]:
    """The battle's figures by side, unit and pk: those a seated battle holds as its action
    left them (battles.services.table.seat), else one query. Sorted here either way, so both
    give one order (PostgreSQL's collation would sort the names its own way)."""
    figures = battle.figures.all()  # the prefetched figures, if the battle holds them
    index = {side.pk: side.index for side in sides}
    return sorted(figures, key=lambda f: (index.get(f.side_id, 0), f.unit_name, f.pk))


def _sides_with_owners(battle: Battle) -> list[BattleSide]:
    """The battle's sides in order, with their forces' owners: those `battle_with_sides`
    prefetched (the pages load every battle so), else one query."""
    if prefetched(battle, "sides"):
        return list(battle.sides.all())
    return list(battle.sides.select_related("force__owner").order_by("index"))


def battle_with_sides(queryset: QuerySet[Battle], *, campaign: bool = True) -> QuerySet[Battle]:
    """Load battles with their sides (one query more) and, unless told not to (a battle read
    again after an action, which changes neither), their campaign and house rules."""
    # With each force's owner: the table names the players, and reads them from here.
    sides = BattleSide.objects.select_related("force__owner").order_by("index")
    if campaign:
        queryset = queryset.select_related("campaign", "house_rules")
    return queryset.prefetch_related(Prefetch("sides", queryset=sides))


def forces_for_battle(forces: QuerySet[Force]) -> tuple[Force, ...]:
    """Return forces to offer for a battle (not archived), with their fit characters (2 queries)."""
    fit = Character.objects.filter(
        status__in=(CharacterStatus.ACTIVE, CharacterStatus.RECOVERING)
    ).order_by("name", "pk")
    return tuple(
        forces.filter(archived_at=None)  # an archived force is kept, not fielded
        .select_related("owner", "campaign")
        .prefetch_related(Prefetch("characters", queryset=fit, to_attr="fit"))
        .order_by("name", "pk")
    )


@dataclass(frozen=True)
class Pick:
    """One character offered for a battle: may he fight on the date, and if not, why not."""

    character: Character
    fit: bool
    reason: str


#: How an unfit status reads, with the date it began.
STATUS_SINCE: dict[str, str] = {
    CharacterStatus.DEAD: "dead since {}",
    CharacterStatus.RETIRED: "retired since {}",
    CharacterStatus.CAPTURED: "captured since {}",
}


def _status_dates(characters: Sequence[Character]) -> dict[int, date]:
    """Return when each character took his present status, from the service record (1 query)."""
    entries = ServiceRecordEntry.objects.filter(
        character__in=[c.pk for c in characters], after__has_key="status"
    ).order_by("created_at", "pk")
    status = {c.pk: c.status for c in characters}
    found: dict[int, date] = {}
    for entry in entries.only("character_id", "after", "created_at"):
        if entry.after.get("status") == status[entry.character_id]:
            found[entry.character_id] = entry.created_at.date()
    return found


def _day(value: date | None) -> str:
    return f"{value:%-d %b %Y}" if value else "an unknown date"


def battle_picks(force: Force, on: date | None) -> tuple[Pick, ...]:
    """Return every character of the force, those who cannot fight on `on` with the reason.

    A recovering character fights once his wounds have healed by the battle's date.
    """
    characters = list(force.characters.order_by("name", "pk"))
    healing = recovery_dates([c.pk for c in characters if c.status == CharacterStatus.RECOVERING])
    since = _status_dates([c for c in characters if c.status in STATUS_SINCE])
    picks = []
    for c in characters:
        if c.status in STATUS_SINCE:
            picks.append(Pick(c, False, STATUS_SINCE[c.status].format(_day(since.get(c.pk)))))
        elif c.status == CharacterStatus.RECOVERING and c.pk in healing:
            healed = healing[c.pk]
            ready = on is not None and healed <= on
            text = "healed by {}" if ready else "recovering until {}"
            picks.append(Pick(c, ready, text.format(_day(healed))))
        elif c.status == CharacterStatus.RECOVERING:
            picks.append(Pick(c, True, "recovering, no healing date set"))
        else:
            picks.append(Pick(c, True, ""))
    return tuple(picks)


# --- the home page ------------------------------------------------------------------------


@dataclass(frozen=True)
class HomeOverview:
    campaigns: tuple[Campaign, ...]
    forces: tuple[Force, ...]
    battles: tuple[Battle, ...]


def home_overview(user: User) -> HomeOverview:
    """Return the user's campaigns, forces and battles under way (4 queries)."""
    from battles.selectors import battles_playable_by
    from campaigns.selectors import campaigns_visible_to

    campaigns = campaigns_visible_to(user).select_related("club").order_by("name", "pk")
    # Forces in service first; an archived one stays listed (its history is there), marked.
    forces = (
        Force.objects.filter(owner=user)
        .select_related("campaign")
        .annotate(character_count=Count("characters"))
        .order_by(F("archived_at").asc(nulls_first=True), "name", "pk")
    )
    playing = battle_with_sides(
        battles_playable_by(user).filter(
            status__in=(
                BattleStatus.SETUP,
                BattleStatus.IN_PROGRESS,
                BattleStatus.FINISHED,
                BattleStatus.PROCESSING,
            )
        )
    ).order_by("-created_at", "-pk")[:10]
    return HomeOverview(tuple(campaigns), tuple(forces), tuple(playing))
