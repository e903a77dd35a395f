"""Reads for printing: figures as plain `FigureData`, the forces at a table, campaign reports.

Each read is a constant number of queries, whatever the size of the force or campaign.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db.models import Count, F, Max, Prefetch, Sum
from django.urls import reverse

from battles.models import (
    Battle,
    BattleEvent,
    BattleFigure,
    BattleSide,
    BattleStatus,
    PostBattleRoll,
)
from campaigns.models import Campaign, HouseRules
from campaigns.services.house_rules import house_rules_current, house_rules_version, rules_under
from chronicle.models import ReportParagraph
from common.users import Visitor
from league.models import Pairing
from printing.figures import FigureData
from printing.models import LabelPreset, LabelPrint
from printing.sheets import SheetError, SheetPreset, get_preset
from rosters.models import Character, Force
from rosters.selectors import force_roster, piece_stats
from rules.system import RuleSystem, get_system

# --- house rules ------------------------------------------------------------------------------


def house_rules_number(campaign: Campaign | None) -> int | None:
    """The number of the house-rules version a print of the campaign asked for now is printed
    under (None: the rules as written); part of a print job's parameters, so a job is not
    reused across an edit of the club's tables."""
    version = house_rules_current(campaign) if campaign is not None else None
    return version.number if version is not None else None


def printed_house_rules(
    campaign: Campaign | None, params: Mapping[str, object]
) -> HouseRules | None:
    """The version a campaign's document is printed under: the one its request named (None:
    as written), else the campaign's current one."""
    if campaign is None:
        return None
    if "house_rules" not in params:
        return house_rules_current(campaign)
    number = params["house_rules"]
    if not number:
        return None
    if not isinstance(number, int):
        raise TypeError(f"house_rules names a version by number, not {number!r}")
    return house_rules_version(campaign, number)


def printed_rules(key: str, version: HouseRules | None) -> tuple[RuleSystem, str]:
    """The system under the version, and the line a print says it under ("House rules v2")."""
    return rules_under(key, version), house_rules_label(version)


def house_rules_label(version: HouseRules | None) -> str:
    return f"House rules v{version.number}" if version is not None else ""


def label_preset_for(key: str, user: Visitor) -> SheetPreset:
    """Return a built-in preset, or one of the user's own ("user-<id>"), or raise SheetError."""
    if key.startswith("user-") and key.removeprefix("user-").isdigit():
        preset = LabelPreset.objects.filter(pk=int(key.removeprefix("user-")), owner_id=user.pk)
        found = preset.first()
        if found is None:
            raise SheetError(f"you have no label sheet {key!r}")
        return found.as_sheet()
    return get_preset(key)


def force_version(force: Force) -> str:
    """Return a fingerprint of the force's last change (so a stale print job is not reused)."""
    latest = force.characters.aggregate(latest=Max("updated_at"))["latest"]
    stamps = [stamp for stamp in (force.updated_at, latest) if stamp is not None]
    return max(stamps).isoformat() if stamps else ""


def recovery_dates(character_ids: list[int]) -> dict[int, str]:
    """Return each recovering character's latest healing date (ISO) from processed rolls."""
    rows = (
        PostBattleRoll.objects.filter(
            character_id__in=character_ids, battle__status=BattleStatus.PROCESSED
        )
        .order_by("battle__processed_at", "battle_id", "procedure", "index")
        .values_list("character_id", "result")
    )
    found: dict[int, str] = {}
    for character_id, result in rows:
        for change in (result or {}).get("changes", ()):
            if change.get("kind") == "recovers_on":
                found[character_id] = str(change["after"])
    return found


def careers(character_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Return (battles fought, kills) per character, counting battles that were fought."""
    rows = (
        BattleFigure.objects.filter(character_id__in=character_ids)
        .filter(battle__status__in=REPORTED_STATUSES)
        .values("character_id")
        .annotate(battles=Count("battle_id", distinct=True), kills=Sum("kills"))
    )
    return {row["character_id"]: (row["battles"], row["kills"] or 0) for row in rows}


def _photo_url(character: Character) -> str:
    # The renderer's URL fetcher reads MEDIA_URL paths from MEDIA_ROOT, so a relative media
    # URL is enough, and works in a worker with no request.
    return character.photo.url if character.photo else ""


def _qr_url(site: str, character: Character) -> str:
    return site.rstrip("/") + reverse("character-detail", args=[character.pk]) if site else ""


def force_figures(force: Force, *, site: str = "") -> list[FigureData]:
    """Return every figure of the force, in roster order, as printing's plain data."""
    characters = list(force_roster(force))
    ids = [c.pk for c in characters]
    healing = recovery_dates([c.pk for c in characters if c.status == "RECOVERING"])
    fought = careers(ids)
    piece = get_system(force.system).piece  # a unit-piece figure prints its unit's stats
    return [
        FigureData(
            name=c.name,
            stats=piece_stats(c, piece),
            rank=c.rank,
            unit=c.unit.name if c.unit else "",
            status=c.get_status_display(),
            photo_url=_photo_url(c),
            qr_url=_qr_url(site, c),
            permanent_wounds=tuple(str(w) for w in c.permanent_wounds or ()),
            character_id=c.pk,
            state=c.status,
            unit_id=c.unit_id,
            battles=fought.get(c.pk, (0, 0))[0],
            kills=fought.get(c.pk, (0, 0))[1],
            recovers_on=healing.get(c.pk, ""),
        )
        for c in characters
    ]


# --- game-night packets -----------------------------------------------------------------------


def unlabelled_character_ids(character_ids: list[int]) -> set[int]:
    """Return the ids among `character_ids` whose base label was never printed through Muster."""
    printed = set(
        LabelPrint.objects.filter(character_id__in=character_ids).values_list(
            "character_id", flat=True
        )
    )
    return set(character_ids) - printed


def battle_forces(battle: Battle) -> list[Force]:
    """Return the battle's forces, side by side in the order the sides were set up."""
    sides = battle.sides.select_related("force__owner", "force__campaign").order_by("index")
    return [side.force for side in sides]


def pairing_forces(pairing: Pairing) -> list[Force]:
    """Return the forces of a league pairing: its battle's, or else each player's in the campaign.

    A pairing that has no battle yet is printed before the game: each player brings the forces
    they have in the campaign (usually one).
    """
    if pairing.battle is not None:
        return battle_forces(pairing.battle)
    campaign_id = pairing.round.campaign_id
    players = [m for m in (pairing.home, pairing.away) if m is not None]
    owners = [m.user_id for m in players]
    forces = Force.objects.filter(campaign_id=campaign_id, owner_id__in=owners)
    by_owner = {m.user_id: i for i, m in enumerate(players)}
    ordered = forces.select_related("owner", "campaign").order_by("pk")
    return sorted(ordered, key=lambda force: by_owner[force.owner_id])


def packet_version(forces: list[Force]) -> str:
    """Return a fingerprint of the forces and their label prints (a packet job's freshness)."""
    ids = [f.pk for f in forces]
    latest = Character.objects.filter(force_id__in=ids).aggregate(latest=Max("updated_at"))
    prints = LabelPrint.objects.filter(character__force_id__in=ids).count()
    stamps = [f.updated_at for f in forces] + [latest["latest"]]
    newest = max((s for s in stamps if s is not None), default=None)
    return f"{newest.isoformat() if newest else ''}/{prints}"


# --- campaign reports -------------------------------------------------------------------------

REPORTED_STATUSES = (BattleStatus.FINISHED, BattleStatus.PROCESSING, BattleStatus.PROCESSED)


def reported_battles(campaign: Campaign, limit: int | None) -> list[Battle]:
    """Return the campaign's fought battles, newest first (all of them when limit is None)."""
    battles = (
        Battle.objects.filter(campaign_id=campaign.pk, status__in=REPORTED_STATUSES)
        .prefetch_related(
            Prefetch(
                "sides",
                queryset=BattleSide.objects.select_related("force__owner").order_by("index"),
            )
        )
        .order_by(F("finished_at").desc(nulls_last=True), "-pk")
    )
    return list(battles if limit is None else battles[:limit])


def event_summaries(battles: list[Battle]) -> dict[int, list[tuple[str, str, int]]]:
    """Count each battle's checks by name and outcome (voided events left out): one query."""
    rows = (
        BattleEvent.objects.filter(battle__in=battles, kind=BattleEvent.Kind.CHECK, voided=False)
        .values_list("battle_id", "check_name", "outcome")
        .annotate(n=Count("pk"))
        .order_by("battle_id", "check_name", "outcome")
    )
    summaries: dict[int, list[tuple[str, str, int]]] = {}
    for battle_id, check, outcome, count in rows:
        summaries.setdefault(battle_id, []).append((check, outcome, count))
    return summaries


def post_battle_outcomes(battles: list[Battle]) -> dict[int, list[tuple[str, str, str, str]]]:
    """Return each battle's ledger as (character, procedure, subject, outcome): one query."""
    rows = (
        PostBattleRoll.objects.filter(battle__in=battles)
        .values_list("battle_id", "character__name", "procedure", "subject", "outcome")
        .order_by("battle_id", "character__name", "character_id", "procedure", "index")
    )
    outcomes: dict[int, list[tuple[str, str, str, str]]] = {}
    for battle_id, character, procedure, subject, outcome in rows:
        outcomes.setdefault(battle_id, []).append((character, procedure, subject, outcome))
    return outcomes


def report_version(campaign: Campaign) -> str:
    """Return a fingerprint of what a campaign report shows (a report job's freshness)."""
    battles = Battle.objects.filter(campaign_id=campaign.pk).aggregate(
        n=Count("pk"), finished=Max("finished_at"), processed=Max("processed_at")
    )
    pairings = Pairing.objects.filter(round__campaign_id=campaign.pk).aggregate(
        n=Count("pk"), changed=Max("updated_at")
    )
    # The chronicle printed with it shows the players' own paragraphs too.
    paragraphs = ReportParagraph.objects.filter(battle__campaign_id=campaign.pk).aggregate(
        n=Count("pk"), changed=Max("updated_at")
    )
    parts = [
        battles["n"],
        battles["finished"],
        battles["processed"],
        pairings["n"],
        pairings["changed"],
        paragraphs["n"],
        paragraphs["changed"],
    ]
    return "/".join(str(part) for part in parts)
