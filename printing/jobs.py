"""Build a document from a print request's validated parameters, for a request or a worker.

The parameters are plain JSON (what `printing.inputs` validated), so a job stored in the
database renders exactly what the request would have rendered.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from battles.models import Battle
from campaigns.models import Campaign, HouseRules
from chronicle.printed import chronicle_context
from common.users import Visitor
from league.core import LeagueError
from league.models import Pairing
from league.selectors import league_standings
from printing.documents import (
    DEFAULT_STATES,
    EXTRA_STATES,
    Document,
    PacketSide,
    cards_document,
    chosen_figures,
    labels_document,
    packet_document,
    reference_document,
    roster_document,
    sheet_options,
    stickers_document,
)
from printing.figures import FigureData
from printing.models import PrintJob
from printing.render import Progress, render_pdf, render_sections
from printing.reports import report_context
from printing.selectors import (
    battle_forces,
    event_summaries,
    force_figures,
    label_preset_for,
    pairing_forces,
    post_battle_outcomes,
    printed_house_rules,
    printed_rules,
    reported_battles,
    unlabelled_character_ids,
)
from rosters.models import Force
from rules.system import RuleSystem, get_system

Kind = PrintJob.Kind


def _posted_figures(system: RuleSystem, params: Mapping[str, Any]) -> list[FigureData]:
    return [
        FigureData(
            name=f["name"],
            stats=system.stats.validate(f.get("stats", {})),
            rank=f.get("rank", ""),
            unit=f.get("unit", ""),
            qr_url=f.get("qr_url", ""),
            wounds=int(f.get("wounds", 0)),
        )
        for f in params["figures"]
    ]


@dataclass(frozen=True)
class Source:
    """What a force's document is printed from: the system (under the house rules of the
    force's campaign), the figures, the force (None: figures posted for a preview), and the
    line that says which house rules ("House rules v2"; empty: as written)."""

    system: RuleSystem
    figures: list[FigureData]
    force: Force | None
    house_rules: str = ""


def _source(params: Mapping[str, Any]) -> Source:
    """Return the system and figures: a stored force's, or figures posted for a preview."""
    if "force" in params:
        force = Force.objects.select_related("campaign", "owner").get(pk=params["force"])
        site = params.get("site", "") if params.get("qr") else ""
        version = printed_house_rules(force.campaign, params)
        system, label = printed_rules(force.system, version)
        return Source(system, force_figures(force, site=site), force, label)
    system = get_system(params["system"])
    return Source(system, _posted_figures(system, params), None)


def _campaign_options(system: RuleSystem, force: Force | None) -> dict[str, Any]:
    campaign = force.campaign if force else None
    return system.options.validate(campaign.options if campaign else {})


def _force_header(force: Force | None, system: RuleSystem, house_rules: str = "") -> dict[str, str]:
    if force is None:
        return {"name": "Roster", "faction": "", "campaign": "", "owner": "", "house_rules": ""}
    date = force.campaign.calendar_date if force.campaign else None
    return {
        "name": force.name,
        "faction": force.faction,
        "campaign": force.campaign.name if force.campaign else "",
        "campaign_date": date.isoformat() if date else "",
        "owner": force.owner.get_username(),
        "house_rules": house_rules,
    }


def _labels(params: Mapping[str, Any], user: Visitor, in_parts: bool) -> Document:
    source = _source(params)
    options = sheet_options(label_preset_for(params["preset"], user), params)
    include = tuple(params.get("include", ()))
    return labels_document(
        source.system, source.figures, options, in_parts=in_parts, include=include
    )


def _stickers(params: Mapping[str, Any], user: Visitor, in_parts: bool) -> Document:
    options = sheet_options(label_preset_for(params["preset"], user), params)
    return stickers_document(
        params["counts"],
        bool(params.get("colour", True)),
        options,
        in_parts=in_parts,
        system_key=params.get("system", "rencounter"),
    )


def _cards(params: Mapping[str, Any]) -> Document:
    source = _source(params)
    figures = source.figures
    if source.force is not None:
        extra = dict(EXTRA_STATES)
        states = (*DEFAULT_STATES, *(extra[name] for name in params.get("include", ())))
        figures = chosen_figures(
            figures, states, params.get("unit"), tuple(params.get("figures", ()))
        )
    return cards_document(
        source.system,
        figures,
        _campaign_options(source.system, source.force),
        size=params.get("size", "poker"),
        page=params.get("page", "A4"),
        blanks=int(params.get("blanks", 0)),
        qr=bool(params.get("qr", False)),
        house_rules=source.house_rules,
    )


def _roster(params: Mapping[str, Any]) -> Document:
    source = _source(params)
    options = _campaign_options(source.system, source.force)
    header = _force_header(source.force, source.system, source.house_rules)
    return roster_document(source.system, header, source.figures, options)


def _reference(params: Mapping[str, Any]) -> Document:
    campaign_pk = params.get("campaign")
    campaign = Campaign.objects.filter(pk=campaign_pk).first() if campaign_pk is not None else None
    system, label = printed_rules(params["system"], printed_house_rules(campaign, params))
    options = system.options.validate(campaign.options if campaign else params.get("options", {}))
    return reference_document(
        system,
        options,
        campaign.name if campaign else "",
        page=params.get("page", "A4"),
        house_rules=label,
    )


def _packet_sides(forces: list[Force], system: RuleSystem, house_rules: str) -> list[PacketSide]:
    return [
        PacketSide(_force_header(force, system, house_rules), tuple(force_figures(force)))
        for force in forces
    ]


@dataclass(frozen=True)
class PacketTable:
    """A game night's table: what is played, by which forces, under which rules and options."""

    title: str
    subtitle: str
    forces: list[Force]
    campaign: Campaign | None
    options: dict[str, Any]
    house_rules: HouseRules | None


def _packet_table(params: Mapping[str, Any]) -> PacketTable:
    """Return the table of a battle (under its own house rules) or a league pairing (under
    its battle's, else the campaign's current ones)."""
    if "battle" in params:
        battle = Battle.objects.select_related("campaign", "house_rules").get(pk=params["battle"])
        when = f" · {battle.campaign_date:%d %B %Y}" if battle.campaign_date else ""
        return PacketTable(
            str(battle),
            f"Battle {battle.pk}{when}",
            battle_forces(battle),
            battle.campaign,
            battle.options or {},
            battle.house_rules,
        )
    pairing = Pairing.objects.select_related(
        "round__campaign", "home__user", "away__user", "battle__house_rules"
    ).get(pk=params["pairing"])
    away = pairing.away.player_name if pairing.away else "bye"
    campaign = pairing.round.campaign
    played = pairing.battle
    return PacketTable(
        f"{pairing.home.player_name} v {away}",
        f"{campaign.name} · round {pairing.round.number}, table {pairing.table}",
        pairing_forces(pairing),
        campaign,
        (played.options if played else {}) or {},
        played.house_rules if played else printed_house_rules(campaign, params),
    )


def _packet(params: Mapping[str, Any], user: Visitor) -> Document:
    table = _packet_table(params)
    campaign = table.campaign
    system, label = printed_rules(params["system"], table.house_rules)
    options = system.options.validate(table.options or (campaign.options if campaign else {}))
    sides = _packet_sides(table.forces, system, label)
    figures = [f for side in sides for f in side.figures]
    todo = unlabelled_character_ids([f.character_id for f in figures if f.character_id])
    return packet_document(
        system,
        options,
        title=table.title,
        subtitle=table.subtitle,
        sides=sides,
        campaign=campaign.name if campaign else "",
        unlabelled=[f for f in figures if f.character_id in todo],
        sheet=sheet_options(label_preset_for(params["preset"], user), params),
        # The story so far, with the latest reports, for the table to read out.
        chronicle=chronicle_context(campaign, battles=REPORT_RECENT_BATTLES) if campaign else None,
        house_rules=label,
    )


REPORT_RECENT_BATTLES = 5


def campaign_rounds(campaign: Campaign) -> list[tuple[Any, list[Pairing]]]:
    """Every round of the campaign with its pairings, oldest first (2 queries at any size)."""
    rounds: dict[int, tuple[Any, list[Pairing]]] = {
        r.pk: (r, []) for r in campaign.rounds.order_by("number")
    }
    pairings = (
        Pairing.objects.filter(round__campaign_id=campaign.pk)
        .select_related("home__user", "away__user", "battle")
        .order_by("table", "pk")
    )
    for pairing in pairings:
        rounds[pairing.round_id][1].append(pairing)
    return list(rounds.values())


def _report(params: Mapping[str, Any]) -> Document:
    campaign = Campaign.objects.get(pk=params["campaign"])
    every = bool(params.get("all"))
    battles = reported_battles(campaign, None if every else REPORT_RECENT_BATTLES)
    try:
        standings, note = league_standings(campaign), ""
    except LeagueError as error:  # bad league settings: say so rather than fail the report
        standings, note = None, f"The league table cannot be computed: {error}"
    context = report_context(
        campaign=campaign.name,
        system=get_system(campaign.system).name,
        standings=standings,
        standings_note=note,
        rounds=campaign_rounds(campaign),
        battles=battles,
        summaries=event_summaries(battles),
        outcomes=post_battle_outcomes(battles),
        every_battle=every,
    )
    # The report has its own battle section: the chronicle adds the story by round and month
    # and the obituaries, in a number of queries that does not grow with the battles.
    chronicle = chronicle_context(campaign, battles=0)
    return Document(
        "report",
        (context, chronicle),
        f"{campaign.slug or 'campaign'}-report.pdf",
        families=("report", "chronicle"),
    )


def build_document(
    kind: str, params: Mapping[str, Any], user: Visitor, *, in_parts: bool = False
) -> Document:
    """Return the document a print request describes (parameters already validated)."""
    if kind == Kind.LABELS:
        return _labels(params, user, in_parts)
    if kind == Kind.STICKERS:
        return _stickers(params, user, in_parts)
    if kind == Kind.CARDS:
        return _cards(params)
    if kind == Kind.ROSTER:
        return _roster(params)
    if kind == Kind.REFERENCE:
        return _reference(params)
    if kind == Kind.PACKET:
        return _packet(params, user)
    if kind == Kind.REPORT:
        return _report(params)
    raise ValueError(f"unknown print job kind {kind!r}")


def render(document: Document) -> bytes:
    """Render a document in the request (one part straight, several joined)."""
    if len(document.parts) == 1:
        return render_pdf(document.family, document.parts[0])
    return render_sections(document.sections(), len(document.parts))


def page_count(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def render_job(job: PrintJob, progress: Progress) -> tuple[Document, bytes, int]:
    """Render a stored job part by part, reporting progress; return (document, pdf, pages)."""
    document = build_document(job.kind, job.parameters, job.created_by, in_parts=True)
    pdf = render_sections(document.sections(), len(document.parts), progress)
    return document, pdf, page_count(pdf)
