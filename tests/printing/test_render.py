"""The renderer: templates by family name, static and media files read from disk, nothing else."""

from __future__ import annotations

import io

import pytest
from django.template.loader import render_to_string
from PIL import Image

from printing.cards import CardSpec, card_sheet_context
from printing.render import (
    BASE_URL,
    PrintFetchError,
    local_path,
    render_pdf,
    url_fetcher,
    well_formed_root,
)
from rules.systems import SYSTEM_KEYS
from tests.printing import references
from tests.printing.parsing import assert_read_as_xml_and_printed_the_same, html5_pdf
from tests.printing.pdfs import open_pdf


def test_a_static_url_is_read_from_the_static_folder():
    path = local_path(BASE_URL + "static/printing/labels.css")

    assert path is not None and path.name == "labels.css" and path.is_file()


def test_a_media_url_is_read_from_media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    (tmp_path / "characters").mkdir()
    (tmp_path / "characters" / "gridley.png").write_bytes(b"png")

    assert (
        local_path(BASE_URL + "media/characters/gridley.png")
        == tmp_path / "characters" / "gridley.png"
    )


def test_a_media_url_cannot_climb_out_of_media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    (tmp_path / "media").mkdir()
    (tmp_path / "secret.txt").write_text("no")

    assert local_path(BASE_URL + "media/../secret.txt") is None


def test_the_fetcher_refuses_anything_but_static_and_media_files():
    with pytest.raises(PrintFetchError, match="only use static and media files"):
        url_fetcher.fetch("https://example.org/tracker.png")


def test_a_characters_photo_from_media_is_printed_on_the_card(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    (tmp_path / "characters").mkdir()
    Image.new("RGB", (60, 80), "darkgreen").save(tmp_path / "characters" / "gridley.png")
    card = CardSpec(title="Sgt. Gridley", photo_url="/media/characters/gridley.png")

    pdf = render_pdf("cards", card_sheet_context([card], "poker", "A4"))

    assert len(open_pdf(pdf).pages[0].images) == 1


def test_an_unknown_template_family_is_an_error():
    from django.template import TemplateDoesNotExist

    with pytest.raises(TemplateDoesNotExist):
        render_pdf("no-such-document", {})


def test_the_pdf_is_a_pdf():
    pdf = render_pdf("cards", card_sheet_context([CardSpec(title="Sgt. Gridley")], "mini", "A4"))

    assert io.BytesIO(pdf).read(5) == b"%PDF-"


# Every family, each for one system in turn (all five systems over the eight families).
XML_CASES = [
    (family, SYSTEM_KEYS[n % len(SYSTEM_KEYS)]) for n, family in enumerate(references.FAMILIES)
]


@pytest.mark.parametrize(("family", "key"), XML_CASES)
def test_every_family_is_read_by_the_xml_parser_and_prints_as_html5_would(family, key):
    document = references._document(family, key)

    assert_read_as_xml_and_printed_the_same(document.family, document.parts[0])


def test_a_card_with_a_photo_is_read_by_the_xml_parser_and_prints_as_html5_would(
    settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path
    (tmp_path / "characters").mkdir()
    Image.new("RGB", (60, 80), "darkgreen").save(tmp_path / "characters" / "gridley.png")
    cards = [CardSpec(title="Sgt. Gridley", photo_url="/media/characters/gridley.png")]

    assert_read_as_xml_and_printed_the_same("cards", card_sheet_context(cards, "poker", "A4"))


def test_text_xml_cannot_carry_goes_to_the_html5_parser_as_before():
    name = "Sgt.\x0bGridley"  # a vertical tab: HTML takes it, XML 1.0 forbids it
    context = card_sheet_context([CardSpec(title=name)], "poker", "A4")

    assert well_formed_root(render_to_string("printing/cards.html", context)) is None
    assert render_pdf("cards", context) == html5_pdf("cards", context)
