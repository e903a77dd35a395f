"""Every printable document: from validated parameters and plain data to a template family and
its context (or contexts, for a big document rendered in parts by the worker)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from printing.cards import WeaponRow, card_sheet_context
from printing.figures import (
    FigureData,
    blank_system_card,
    figure_card,
    figure_label,
    stat_legend,
)
from printing.labels import LabelSpec, SheetOptions, label_sheet_context
from printing.reference import reference_context
from printing.sheets import Calibration, SheetPreset
from rules.system import RuleSystem

# Rencounter's wound codes (minor, serious, crippling wound: 1, 2 and 3 wound points).
WOUND_CODES: tuple[tuple[str, str], ...] = (
    ("MW", "Minor wound"),
    ("SW", "Serious wound"),
    ("CW", "Crippling wound"),
)  # Rencounter's; every system's are its reference module's STICKERS (`sticker_codes`)
# Big documents are rendered this many sheets at a time, so the worker can report progress.
SHEETS_PER_PART = 2


@dataclass(frozen=True)
class Document:
    """A template family, its contexts (one per part) and a file name for the download.

    `families` names each part's family when the parts differ (a game-night packet); `labelled`
    lists the characters whose base labels the document prints, so printing it can be recorded.
    """

    family: str
    parts: tuple[dict[str, object], ...]
    filename: str
    families: tuple[str, ...] = ()
    labelled: tuple[int, ...] = ()

    def sections(self) -> list[tuple[str, dict[str, object]]]:
        """Return (family, context) for every part, in order."""
        families = self.families or (self.family,) * len(self.parts)
        return list(zip(families, self.parts, strict=True))


def sheet_options(preset: SheetPreset, params: Mapping[str, Any]) -> SheetOptions:
    """Return the sheet options from validated parameters (start, calibration, guides)."""
    calibration = Calibration(
        float(params.get("calibration_x", 0)), float(params.get("calibration_y", 0))
    )
    return SheetOptions(
        preset, calibration, int(params.get("start", 1)), bool(params.get("guides", False))
    ).validated()


def _label_parts(
    labels: list[LabelSpec], options: SheetOptions, title: str
) -> list[dict[str, object]]:
    per_part = options.preset.slots_per_sheet * SHEETS_PER_PART
    first = per_part - (options.start_at - 1)  # the first part starts part-way into a sheet
    rest = range(first, len(labels), per_part)
    chunks = [labels[:first]] + [labels[i : i + per_part] for i in rest]
    parts = []
    for index, chunk in enumerate(c for c in chunks if c):
        start = options.start_at if index == 0 else 1
        part_options = SheetOptions(options.preset, options.calibration, start, options.guides)
        parts.append({**label_sheet_context(chunk, part_options), "title": title})
    return parts


# Who is still in the force: a label, sticker or packet is for them unless asked otherwise.
LIVING_STATES = ("ACTIVE", "RECOVERING")
# Who a label sheet may put back by option: the dead, the retired and the captured.
GONE_STATES = (("dead", "DEAD"), ("retired", "RETIRED"), ("captured", "CAPTURED"))


def living(figures: list[FigureData], include: tuple[str, ...] = ()) -> list[FigureData]:
    """Return the figures still in the force, and those of the `include`d gone states."""
    extra = dict(EXTRA_STATES)  # "recovering" may be named too: it is already in
    states = (*LIVING_STATES, *(extra[name] for name in include))
    return [f for f in figures if f.state in states]


def labels_document(
    system: RuleSystem,
    figures: list[FigureData],
    options: SheetOptions,
    *,
    title: str = "Base labels",
    in_parts: bool = False,
    include: tuple[str, ...] = (),
) -> Document:
    """Return base labels for the living figures (and the `include`d gone ones: "dead",
    "retired", "captured") on the chosen stock."""
    figures = living(figures, include)
    labels = [figure_label(system, figure) for figure in figures]
    parts = (
        _label_parts(labels, options, title)
        if in_parts
        else [{**label_sheet_context(labels, options), "title": title}]
    )
    return Document("labels", tuple(parts), "labels.pdf", labelled=_character_ids(figures))


def _character_ids(figures: list[FigureData]) -> tuple[int, ...]:
    return tuple(f.character_id for f in figures if f.character_id is not None)


def sticker_codes(system_key: str = "rencounter") -> tuple[tuple[str, str, str], ...]:
    """Return the system's sticker codes (code, what it marks, colour tone): every system
    that tracks wounds or hits says which in its reference module's STICKERS."""
    module = importlib.import_module(f"rules.systems.{system_key}.reference")
    return tuple(module.STICKERS)


def wound_stickers(
    counts: Mapping[str, int], colour: bool, system_key: str = "rencounter"
) -> list[LabelSpec]:
    """Return the stickers: each wound code as many times as asked, in code order."""
    return [
        LabelSpec((code,), tone=tone if colour else "")
        for code, _, tone in sticker_codes(system_key)
        for _ in range(int(counts.get(code, 0)))
    ]


def stickers_document(
    counts: Mapping[str, int],
    colour: bool,
    options: SheetOptions,
    *,
    in_parts: bool = False,
    system_key: str = "rencounter",
) -> Document:
    """Return wound stickers on the chosen stock."""
    stickers = wound_stickers(counts, colour, system_key)
    title = "Wound stickers"
    parts = (
        _label_parts(stickers, options, title)
        if in_parts
        else [{**label_sheet_context(stickers, options), "title": title}]
    )
    return Document("labels", tuple(parts), "wound-stickers.pdf")


# Which figures a card deck holds unless asked otherwise: those who take the field.
DEFAULT_STATES = ("ACTIVE",)
FIT_STATES = ("ACTIVE", "RECOVERING")  # who may be set up for a battle (a packet's cards)
# Statuses a force's unit cards may include besides the active figures, by option name.
EXTRA_STATES = (
    ("recovering", "RECOVERING"),
    ("dead", "DEAD"),
    ("retired", "RETIRED"),
    ("captured", "CAPTURED"),
)


def chosen_figures(
    figures: list[FigureData],
    states: tuple[str, ...] = DEFAULT_STATES,
    unit: int | None = None,
    ids: tuple[int, ...] = (),
) -> list[FigureData]:
    """Return the figures to print: hand-picked ids if any, else those in the given states
    (and unit)."""
    if ids:
        return [f for f in figures if f.character_id in ids]
    return [f for f in figures if f.state in states and (unit is None or f.unit_id == unit)]


def cards_document(
    system: RuleSystem,
    figures: list[FigureData],
    options: Mapping[str, object],
    *,
    size: str,
    page: str,
    blanks: int = 0,
    qr: bool = False,
    house_rules: str = "",
) -> Document:
    """Return unit cards for the figures (and blank cards to fill in by hand).

    `house_rules` says which house rules the system is under ("House rules v2"): each card's
    footer says it, as the weapon profiles on it are the club's.
    """
    tables = system.tables(options)
    cards = [figure_card(system, figure, tables, qr=qr) for figure in figures]
    cards += [blank_system_card(system) for _ in range(blanks)]
    if house_rules:
        cards = [replace(card, footer=f"{card.footer} · {house_rules}") for card in cards]
    return Document("cards", (card_sheet_context(cards, size, page),), "cards.pdf")


def reference_document(
    system: RuleSystem,
    options: Mapping[str, object],
    campaign: str = "",
    page: str = "A4",
    house_rules: str = "",
) -> Document:
    """Return the system's quick-reference sheet under the campaign's options (and house
    rules: `system` under the pack, `house_rules` the line naming the version)."""
    context = reference_context(
        system=system, options=options, campaign=campaign, page=page, house_rules=house_rules
    )
    return Document("reference", (context,), f"{system.key}-reference.pdf")


# How a roster counts figures: fit to fight, recovering, dead, and away (retired or captured).
ROSTER_TOTALS = (
    ("fit", "fit", ("ACTIVE",)),
    ("recovering", "recovering", ("RECOVERING",)),
    ("dead", "dead", ("DEAD",)),
    ("away", "retired or captured", ("RETIRED", "CAPTURED")),
)


def _totals(figures: list[FigureData]) -> list[tuple[str, int]]:
    return [
        (label, sum(1 for f in figures if f.state in states)) for _, label, states in ROSTER_TOTALS
    ]


def _weapon_text(weapon: WeaponRow) -> str:
    profile = ", ".join(f"{c.label} {c.value}" for c in weapon.columns if c.value != "–")
    return f"{weapon.name} ({profile})" if profile else weapon.name


def _roster_row(
    system: RuleSystem, figure: FigureData, tables: Mapping[str, object]
) -> dict[str, object]:
    card = figure_card(system, figure, tables)
    # A roster row is read, not marked up: values that say "none" ("–") are left out.
    stats = " · ".join(
        f"{c.label} {c.value}" for s in card.sections for c in s.cells if c.value != "–"
    )
    weapons = "; ".join(_weapon_text(w) for w in card.weapons)
    status = figure.status or "Active"
    if figure.recovers_on:
        status += f" until {figure.recovers_on}"
    return {"figure": figure, "stats": stats, "weapons": weapons, "status": status}


def roster_document(
    system: RuleSystem,
    force: Mapping[str, str],
    figures: list[FigureData],
    options: Mapping[str, object] | None = None,
) -> Document:
    """Return a force's roster: by unit, each figure's full stat line, equipment, status,
    permanent wounds, recovery date, battles and kills; unit and force totals."""
    tables = system.tables(options if options is not None else system.options.validate({}))
    units: dict[str, list[FigureData]] = {}
    for figure in figures:
        units.setdefault(figure.unit or "Not in a unit", []).append(figure)
    context = {
        "title": f"{force['name']} — roster",
        "force": force,
        "system": system.name,
        "legend": stat_legend(system),
        "units": [
            {
                "name": name,
                "rows": [_roster_row(system, f, tables) for f in members],
                "totals": _totals(members),
            }
            for name, members in units.items()
        ],
        "totals": _totals(figures),
        "count": len(figures),
    }
    return Document("roster", (context,), "roster.pdf")


@dataclass(frozen=True)
class PacketSide:
    """One side at the table: its force's header (name, faction, owner...) and its figures."""

    force: Mapping[str, str]
    figures: tuple[FigureData, ...]


def packet_cover(
    title: str, subtitle: str, sides: list[PacketSide], system: RuleSystem, contents: list[str]
) -> dict[str, object]:
    """Return the `packet` cover context: what is being played, by whom, and what follows."""
    return {
        "title": title,
        "subtitle": subtitle,
        "system": system.name,
        "contents": contents,
        "sides": [{"force": s.force, "figures": len(s.figures)} for s in sides],
    }


def packet_document(
    system: RuleSystem,
    options: Mapping[str, object],
    *,
    title: str,
    subtitle: str,
    sides: list[PacketSide],
    campaign: str,
    unlabelled: list[FigureData],
    sheet: SheetOptions,
    chronicle: Mapping[str, object] | None = None,
    house_rules: str = "",
) -> Document:
    """Return a game-night packet: a cover, each side's roster and cards, the quick-reference
    sheet under the campaign's options, base labels for figures that have none yet, and the
    campaign's chronicle so far (`chronicle`, the `chronicle` template's context), if any."""
    sections: list[tuple[str, dict[str, object]]] = []
    for side in sides:
        sections.append(_single(roster_document(system, side.force, list(side.figures), options)))
        fit = chosen_figures(list(side.figures), FIT_STATES)
        cards = cards_document(
            system, fit, options, size="poker", page="A4", house_rules=house_rules
        )
        sections.append(_single(cards))
    reference = reference_document(system, options, campaign, house_rules=house_rules)
    sections.append(_single(reference))
    labelled: tuple[int, ...] = ()
    unlabelled = living(unlabelled)  # the dead need no new base label
    if unlabelled:
        labels = labels_document(system, unlabelled, sheet, title="Base labels (new figures)")
        sections.append(_single(labels))
        labelled = labels.labelled
    contents = _packet_contents(sides, len(unlabelled))
    if chronicle is not None:
        sections.append(("chronicle", dict(chronicle)))
        contents.append("The campaign's chronicle so far")
    cover = ("packet", packet_cover(title, subtitle, sides, system, contents))
    families, parts = zip(*[cover, *sections], strict=True)
    return Document("packet", tuple(parts), "packet.pdf", tuple(families), labelled)


def _single(document: Document) -> tuple[str, dict[str, object]]:
    return document.family, document.parts[0]


def _packet_contents(sides: list[PacketSide], labels: int) -> list[str]:
    contents = []
    for side in sides:
        contents += [f"Roster: {side.force['name']}", f"Unit cards: {side.force['name']}"]
    contents.append("Quick-reference sheet")
    contents.append(
        f"Base labels for {labels} figure{'s' if labels != 1 else ''} without one"
        if labels
        else "No base labels: every figure has one already"
    )
    return contents
