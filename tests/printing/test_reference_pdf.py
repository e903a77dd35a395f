"""Quick-reference sheets: written for the table, generated from the system's tables under the
campaign's options, one or two pages, every key shown by its human label."""

from __future__ import annotations

import re

import pytest

from printing.documents import reference_document
from printing.reference import RefTable, sheet_sections, sheet_text
from printing.render import render_pdf
from rules.system import all_systems, get_system
from tests.printing.pdfs import open_pdf, page_text

SYSTEMS = [s.key for s in all_systems()]
# A program's key: lower-case words joined by underscores (out_of_ammo, keeps_initiative).
SNAKE_CASE = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")
# What a player looks up mid-game, by system: the words the sheet must carry.
PROCEDURES = {
    "rencounter": ("Turn sequence", "Action roll", "Hesitates", "Exactly 7", "Morale", "Damage"),
    "grits_and_glory": ("action deck", "Joker", "raise", "Toughness", "Shaken", "Vigor"),
    "escarmouche": ("initiative", "single 1", "Passive dice", "Shaken", "Fighting"),
    "d12_skirmish": ("Initiative", "misfire", "Wounding", "Panic", "Hand to hand"),
    "game_the_90": ("Turn sequence", "Shoot", "Rally", "removed at 15 Hits", "halved"),
}


def _pdf_text(document) -> tuple[str, int]:
    pdf = open_pdf(render_pdf(document.family, document.parts[0]))
    return " ".join(page_text(p) for p in pdf.pages), len(pdf.pages)


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_systems_sheet_prints_on_one_or_two_pages_of_a4_or_letter(key):
    system = get_system(key)
    for page in ("A4", "Letter"):
        text, pages = _pdf_text(reference_document(system, system.options.validate({}), page=page))

        assert system.name in text
        assert 1 <= pages <= 2, (key, page, pages)


@pytest.mark.parametrize("key", SYSTEMS)
def test_no_raw_key_is_printed_on_any_sheet(key):
    system = get_system(key)
    options = system.options.validate({})
    house = {f.name: True for f in system.options.fields if "house" in f.name}
    for chosen in (options, system.options.validate(house)):
        text, _ = _pdf_text(reference_document(system, chosen, campaign="Autumn League"))

        assert SNAKE_CASE.findall(text) == [], key


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_table_has_a_heading_per_column(key):
    system = get_system(key)
    sections = sheet_sections(system, system.options.validate({}))
    tables = [i.table for s in sections for i in s.items if i.table is not None]

    assert tables
    for table in tables:
        assert isinstance(table, RefTable)
        assert all(h.strip() for h in table.header), table
        assert all(len(row) == len(table.header) for row in table.rows), table


@pytest.mark.parametrize("key", SYSTEMS)
def test_the_sheet_names_its_source_by_title_and_author_not_by_file(key):
    system = get_system(key)

    text, _ = _pdf_text(reference_document(system, system.options.validate({})))

    assert "Source:" in text
    assert ".txt" not in text


@pytest.mark.parametrize("key", SYSTEMS)
def test_the_sheet_carries_the_procedures_a_player_looks_up_mid_game(key):
    system = get_system(key)

    text = sheet_text(sheet_sections(system, system.options.validate({})))

    for words in PROCEDURES[key]:
        assert words in text, (key, words)


def test_the_sheet_names_the_campaign_and_its_options_at_the_top():
    system = get_system("rencounter")
    options = system.options.validate({"breakpoint": "1/4"})

    text, _ = _pdf_text(reference_document(system, options, campaign="Autumn League"))

    assert "Autumn League" in text
    assert "1/4 of the force lost" in text.replace("\n", " ")
    assert "Javelin" in text and "3/6/9/12" in text


def test_campaign_options_change_the_sheet():
    system = get_system("rencounter")

    plain = sheet_text(sheet_sections(system, system.options.validate({})))
    optioned = sheet_text(
        sheet_sections(
            system, system.options.validate({"breakpoint": "1/4", "hit_locations": True})
        )
    )

    assert "1/2 of it is lost" in plain and "1/4 of it is lost" in optioned
    assert "Hit locations" in optioned and "Hit locations" not in plain


@pytest.mark.parametrize("key", ["escarmouche", "d12_skirmish"])
def test_house_campaign_rules_appear_marked_as_house_rules_only_when_switched_on(key):
    system = get_system(key)

    plain = sheet_sections(system, system.options.validate({}))
    house = sheet_sections(system, system.options.validate({"house_campaign": True}))

    assert not any(s.house for s in plain)
    assert any(s.house for s in house)
    text, _ = _pdf_text(
        reference_document(system, system.options.validate({"house_campaign": True}))
    )
    assert "house rule" in text


def test_column_widths_are_whole_percentages_that_fill_the_table():
    table = RefTable("", ("Weapon", "Range", "Dmg"), (("Long bow", "12/24/36/60", "0"),))

    widths = [int(w) for w in table.widths]

    assert sum(widths) == 100 and all(w >= 4 for w in widths)


@pytest.mark.parametrize(
    ("key", "marked"),
    [
        ("game_the_90", ["Turns \u2020"]),
        ("grits_and_glory", ["(pistol \u2020)", "Points \u2020"]),
        ("rencounter", []),
    ],
)
def test_a_printed_only_cell_is_marked_and_its_mark_explained_on_the_printed_sheet(key, marked):
    from rules.printed import LEGEND, MARK

    system = get_system(key)
    text, pages = _pdf_text(reference_document(system, system.options.validate({}), page="A4"))

    for heading in marked:
        assert heading in text
    assert (LEGEND in text) == bool(marked)
    if marked:
        assert pages == 1, "the marks and their legend must not push the sheet onto a second page"
    else:
        assert MARK not in text


def test_the_victory_points_mark_goes_with_the_victory_points_table():
    system = get_system("grits_and_glory")
    unscored = system.options.validate({"victory_points": False})

    text, _ = _pdf_text(reference_document(system, unscored))

    assert "Points \u2020" not in text
    assert "(pistol \u2020)" in text
    assert text.count("Printed only") == 1
