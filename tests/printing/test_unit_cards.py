"""Unit cards designed per system, checked on the printed text of every system's demo force:
weapons with their numbers on every armed figure's card, nothing cut off, no record noise,
the right figures chosen (active by default; others by option, a unit or hand-picked)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from printing.cards import card_grid, card_sheet_context
from printing.documents import cards_document, chosen_figures
from printing.figures import figure_card
from printing.render import render_pdf
from rules.system import all_systems, get_system
from tests.factories import CharacterFactory, UnitFactory
from tests.printing.demo_forces import demo_figures
from tests.printing.pdfs import open_pdf, page_text

SYSTEMS = [s.key for s in all_systems()]


def _deck_text(key: str, **kwargs) -> str:
    system = get_system(key)
    figures = chosen_figures(demo_figures(key))
    document = cards_document(
        system, figures, system.options.validate({}), size="poker", page="A4", **kwargs
    )
    pdf = open_pdf(render_pdf(document.family, document.parts[0]))
    return " ".join(page_text(p) for p in pdf.pages)


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_armed_figures_card_quotes_each_weapon_with_its_numbers(key):
    system = get_system(key)
    tables = system.tables(system.options.validate({}))

    for figure in chosen_figures(demo_figures(key)):
        card = figure_card(system, figure, tables)
        for weapon in card.weapons:
            values = [c.value for c in weapon.columns]
            assert values, (key, figure.name, weapon.name)
            assert any(ch.isdigit() for v in values for ch in v), (key, weapon)


@pytest.mark.parametrize("key", SYSTEMS)
def test_nothing_on_a_card_is_cut_off_with_an_ellipsis(key):
    text = _deck_text(key, blanks=1, qr=True)

    assert "…" not in text


@pytest.mark.parametrize("key", SYSTEMS)
def test_cards_carry_no_service_record_counts(key):
    text = _deck_text(key)

    assert "Service record" not in text and "×" not in text


@pytest.mark.parametrize("key", SYSTEMS)
def test_dead_and_recovering_figures_are_left_out_by_default(key):
    text = _deck_text(key)

    assert "Will Cooper" not in text  # dead
    assert "Jack Thatcher" not in text  # recovering
    assert "Gridley" in text


def test_the_rencounter_card_shows_range_bands_damage_reload_and_shots():
    system = get_system("rencounter")
    gridley = demo_figures("rencounter")[0]

    card = figure_card(system, gridley, system.tables(system.options.validate({})))

    musket = {c.label: c.value for c in card.weapons[0].columns}
    assert card.weapons[0].name == "Matchlock musket"
    assert musket == {'Range "': "10/18/26/45", "Dmg": "\u22121", "Reload": "4 turns", "Shots": "1"}
    assert card.track_boxes == 5
    assert any("Light armour" in note for note in card.rules)


def test_a_grits_and_glory_wild_card_is_marked_and_gets_three_wound_boxes():
    system = get_system("grits_and_glory")
    tables = system.tables(system.options.validate({}))
    wild, extras = demo_figures("grits_and_glory")[:2]

    wild_card, extras_card = figure_card(system, wild, tables), figure_card(system, extras, tables)

    assert "Wild Card" in wild_card.subtitle and wild_card.track_boxes == 3
    assert extras_card.track_boxes == 4  # a box per figure of the unit
    six_shooter = {c.label: c.value for c in wild_card.weapons[0].columns}
    assert six_shooter["Damage"] == "2d6+1" and six_shooter['Range "'] == "12/24/48"


def test_a_d12_card_has_range_bands_the_misfire_note_and_the_abilitys_effect():
    system = get_system("d12_skirmish")
    officer = demo_figures("d12_skirmish")[0]

    card = figure_card(system, officer, system.tables(system.options.validate({})))

    pistol = {c.label: c.value for c in card.weapons[0].columns}
    assert pistol['Close "'] == "6" and pistol['Med. "'] == "10"
    assert any("misfire" in note for note in card.rules)
    assert any("Dead Eye: +1 shooting" in note for note in card.rules)


def test_an_escarmouche_card_names_the_weapon_class_and_its_passive_dice():
    system = get_system("escarmouche")
    figure = demo_figures("escarmouche")[1]

    card = figure_card(system, figure, system.tables(system.options.validate({})))

    musket = {c.label: c.value for c in card.weapons[0].columns}
    assert card.weapons[0].name == "Musket, heavy crossbow" and musket == {"Passive dice": "+4"}


def test_a_long_name_shrinks_then_wraps_but_is_never_shortened():
    system = get_system("rencounter")
    figure = demo_figures("rencounter")[6]  # Bartholomew Featherstonehaugh-Smythe
    card = figure_card(system, figure, system.tables(system.options.validate({})), qr=True)

    context = card_sheet_context([card], "poker", "A4")
    (printed,) = context["pages"][0]

    lines = printed.title.split("\n")
    assert len(lines) >= 2 and " ".join(lines).replace("- ", "-") == figure.name
    assert card_grid("poker", "A4").per_page == 9


@pytest.mark.django_db
class TestChoosingFigures:
    def _get(self, story, as_user, query=""):
        response = as_user(story.alice).get(f"/api/forces/{story.force.pk}/cards.pdf{query}")
        assert response.status_code == 200, response.content[:300]
        return " ".join(page_text(p) for p in open_pdf(response.content).pages)

    def test_alices_deck_leaves_out_the_dead_unless_she_asks_for_them(self, story, as_user):
        CharacterFactory(force=story.force, unit=story.unit, name="Will Cooper", status="DEAD")
        CharacterFactory(force=story.force, unit=story.unit, name="Tom Pike", status="RECOVERING")

        plain = self._get(story, as_user)
        both = self._get(story, as_user, "?include=dead&include=recovering")

        assert "Sgt. Gridley" in plain and "Will Cooper" not in plain and "Tom Pike" not in plain
        assert "Will Cooper" in both and "Tom Pike" in both

    def test_alice_prints_one_unit_or_hand_picked_figures(self, story, as_user):
        pikes = UnitFactory(force=story.force, name="Pikemen")
        ned = CharacterFactory(force=story.force, unit=pikes, name="Ned Fletcher")
        CharacterFactory(force=story.force, unit=pikes, name="Harry Mason", status="DEAD")

        unit = self._get(story, as_user, f"?unit={pikes.pk}")
        picked = self._get(story, as_user, f"?figures={ned.pk},{story.character.pk}")

        assert "Ned Fletcher" in unit and "Sgt. Gridley" not in unit
        assert "Harry Mason" not in unit
        assert "Ned Fletcher" in picked and "Sgt. Gridley" in picked

    def test_a_unit_or_figure_of_another_force_is_a_400_naming_the_field(self, story, as_user):
        stranger = CharacterFactory(name="Not Hers")
        client = as_user(story.alice)

        by_unit = client.get(f"/api/forces/{story.force.pk}/cards.pdf?unit=99999")
        by_figure = client.get(f"/api/forces/{story.force.pk}/cards.pdf?figures={stranger.pk}")

        assert by_unit.status_code == 400 and "unit" in by_unit.json()
        assert by_figure.status_code == 400 and "figures" in by_figure.json()


@pytest.mark.django_db
def test_the_force_pages_card_form_fields_are_accepted_by_the_cards_endpoint(story, as_user):
    CharacterFactory(force=story.force, unit=story.unit, name="Will Cooper", status="DEAD")
    query = "?size=poker&page=A4&blanks=0&unit=&include=dead&qr=true"

    response = as_user(story.alice).get(f"/api/forces/{story.force.pk}/cards.pdf{query}")

    assert response.status_code == 200, response.content[:300]
    text = " ".join(page_text(p) for p in open_pdf(response.content).pages)
    assert "Will Cooper" in text and "Sgt. Gridley" in text


def _faces_of_every_deck(key: str, size: str, **kwargs):
    """Yield (spec, face) for the demo force's and the worst-case figures' cards."""
    from tests.printing.worst_cases import worst_figures

    system = get_system(key)
    for figures in (chosen_figures(demo_figures(key)), worst_figures(system)):
        document = cards_document(
            system, figures, system.options.validate({}), size=size, page="A4", **kwargs
        )
        for page in document.parts[0]["pages"]:
            for placed in page:
                yield placed.spec, placed.face


@pytest.mark.parametrize("size", ["poker", "bridge", "tarot", "mini"])
@pytest.mark.parametrize("key", SYSTEMS)
def test_no_column_label_or_value_is_broken_inside_a_word_at_any_size(key, size):
    # Every word a card prints in its rows is a whole word of one of its labels (or of a
    # label's short form), values or weapon names. Before: a mini card printed Grits & Glory's
    # "Damage" as "Damag" over "e", and a bridge card "Str+d10" as "Str+d1" over "0", which
    # reads as another die.
    for spec, face in _faces_of_every_deck(key, size, blanks=1):
        cells = [c for s in spec.sections for c in s.cells]
        cells += [c for w in spec.weapons for c in w.columns]
        labels = {w for c in cells for w in f"{c.label} {c.short}".split()}
        values = {w for c in cells for w in c.value.split()}
        values |= {w for weapon in spec.weapons for w in weapon.name.split()}
        for bold, whole in ((False, labels), (True, values)):
            printed = {
                word
                for block in face.blocks
                for run_bold, text in block.runs
                if run_bold == bold
                for word in text.split()
            }
            assert printed <= whole, (key, size, face.title, printed - whole)


@pytest.mark.parametrize("size", ["poker", "bridge", "tarot", "mini"])
@pytest.mark.parametrize("key", SYSTEMS)
def test_every_face_names_its_system_and_house_rules_once_in_the_band_or_leading_the_legend(
    key, size
):
    # Where the legend prints on a card's only face, the footer leads it ("Rencounter: Ex
    # Experience · ...") and the band is the track alone; anywhere else the band ends in the
    # footer as before. Never both, never neither.
    for spec, face in _faces_of_every_deck(key, size, blanks=1, house_rules="House rules v2"):
        legends = [b for b in face.blocks if b.css == "lg"]
        led = [b for b in legends if b.text.startswith(f"{spec.footer}: ")]
        assert spec.footer.endswith("House rules v2")
        if face.band.footer:
            assert not led and face.band.footer.startswith(spec.footer), face.title
        else:
            assert len(led) == 1 and not face.continued, face.title


@pytest.mark.parametrize("size", ["poker", "bridge", "tarot"])
@pytest.mark.parametrize("key", SYSTEMS)
def test_a_legend_line_never_parts_an_abbreviation_from_what_it_stands_for(key, size):
    lines, glossed = 0, False
    for spec, face in _faces_of_every_deck(key, size):
        glossed |= bool(spec.legend or spec.weapon_legend)
        entries = {
            entry
            for text in (spec.weapon_legend, spec.legend)
            for entry in text.split(" · ")
            if text
        }
        for legend in (b for b in face.blocks if b.css == "lg"):
            for line in legend.text.removeprefix(f"{spec.footer}: ").split("\n"):
                assert set(line.split(" · ")) <= entries, (face.title, line)
                lines += 1
    assert lines or not glossed  # a system with abbreviations prints a legend somewhere


def test_figures_of_one_profile_share_a_body_and_never_each_others_names():
    from printing.cards import _body_blocks

    system = get_system("rencounter")
    options = system.options.validate({})
    figures = chosen_figures(demo_figures("rencounter"))
    twins = [replace(figures[0], name=name) for name in ("Sgt. Gridley", "Cpl. Hobbs")]
    other = replace(figures[0], name="Pte. Mole", stats={**figures[0].stats, "weapons": []})
    _body_blocks.cache_clear()

    document = cards_document(system, [*twins, other], options, size="poker", page="A4")
    faces = [placed.face for placed in document.parts[0]["pages"][0]]

    assert [face.title for face in faces] == ["Sgt. Gridley", "Cpl. Hobbs", "Pte. Mole"]
    assert faces[0].blocks == faces[1].blocks != faces[2].blocks
    assert not any("WEAPONS" in block.text for block in faces[2].blocks)
    assert _body_blocks.cache_info().hits >= 1


@pytest.mark.parametrize("key", SYSTEMS)
def test_a_legend_glosses_only_abbreviations_never_a_word_with_itself(key):
    # Escarmouche's legend printed "Melee weapon Melee weapon": a column labelled with its
    # whole name needs no gloss.
    from printing.figures import stat_legend

    legend = stat_legend(get_system(key))
    for entry in legend.split(" · ") if legend else ():
        words = entry.lower().split()
        half = len(words) // 2
        assert len(words) >= 2 and words[:half] != words[half:], entry
