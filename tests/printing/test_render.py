"""The renderer: templates by family name, static and media files read from disk, nothing else."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from printing.cards import CardSpec, card_sheet_context
from printing.render import BASE_URL, PrintFetchError, local_path, render_pdf, url_fetcher
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
