"""Every card of every system at every size, read back from the PDF: nothing outside its
card or under another glyph, no value in type below its size's least."""

from __future__ import annotations

from functools import cache

import pytest

from printing.card_faces import BORDER
from printing.cards import CARD_SIZES, CARD_TYPES, LABEL_EM, CardSpec, card_sheet_context
from printing.documents import cards_document
from printing.render import render_pdf
from rules.system import all_systems, get_system
from tests.printing.demo_forces import demo_figures
from tests.printing.pdfs import MM_PER_PT, Box, boxes_mm, open_pdf
from tests.printing.worst_cases import worst_figures

SLACK = 0.05  # mm: a glyph's box may touch its card's border, not cross it
OVERLAP = 0.15  # mm in both directions before two glyphs count as printed over each other
SYSTEMS = [s.key for s in all_systems()]


@cache  # both tests read the same 20 decks
def _deck(key: str, size: str) -> bytes:
    system = get_system(key)
    figures = [*worst_figures(system), *demo_figures(key)]
    document = cards_document(
        system,
        figures,
        system.options.validate({}),
        size=size,
        page="A4",
        blanks=1,
        qr=True,
        house_rules="House rules v12",
    )
    return render_pdf(document.family, document.parts[0])


def _inside(char: dict, card: Box) -> bool:
    inner = BORDER - SLACK
    return (
        char["x0"] * MM_PER_PT >= card.left + inner
        and char["x1"] * MM_PER_PT <= card.left + card.width - inner
        and char["top"] * MM_PER_PT >= card.top + inner
        and char["bottom"] * MM_PER_PT <= card.top + card.height - inner
    )


def _overlapping(chars: list[dict]) -> list[tuple[str, str]]:
    found = []
    ordered = sorted(chars, key=lambda c: c["top"])
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if (b["top"] - a["bottom"]) * MM_PER_PT > -OVERLAP:
                break
            if abs(b["top"] - a["top"]) * MM_PER_PT < 0.1:
                continue  # one line: kerned neighbours ("To") overlap, columns cannot
            across = min(a["x1"], b["x1"]) - max(a["x0"], b["x0"])
            down = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
            if across * MM_PER_PT > OVERLAP and down * MM_PER_PT > OVERLAP:
                found.append((a["text"], b["text"]))
    return found


def _cards_of(page, size: str) -> dict[int, list[dict]]:
    width, height = CARD_SIZES[size]
    cards = boxes_mm(page, width, height)
    assert cards, "no card boxes found"
    placed: dict[int, list[dict]] = {n: [] for n in range(len(cards))}
    for char in page.chars:
        if not char["text"].strip():
            continue
        home = [n for n, card in enumerate(cards) if _inside(char, card)]
        assert home, (
            f"{char['text']!r} at {char['x0'] * MM_PER_PT:.1f} mm, "
            f"{char['top'] * MM_PER_PT:.1f} mm lies outside every card (or under its clip)"
        )
        placed[home[0]].append(char)
    return placed


@pytest.mark.parametrize("size", list(CARD_SIZES))
@pytest.mark.parametrize("key", SYSTEMS)
def test_every_glyph_of_every_card_lies_inside_its_card_and_over_no_other(key, size):
    pdf = open_pdf(_deck(key, size))

    for page in pdf.pages:
        for chars in _cards_of(page, size).values():
            assert _overlapping(chars) == [], (key, size)


@pytest.mark.parametrize("size", list(CARD_SIZES))
@pytest.mark.parametrize("key", SYSTEMS)
def test_no_value_prints_below_its_sizes_least_type(key, size):
    least = CARD_TYPES[size].minimum
    pdf = open_pdf(_deck(key, size))

    chars = [c for page in pdf.pages for c in page.chars if c["text"].strip()]
    values = [c for c in chars if "Bold" in c["fontname"]]
    assert values and min(c["size"] for c in values) >= least - 0.01
    assert min(c["size"] for c in chars) >= LABEL_EM * least - 0.01


def test_a_card_too_full_for_one_face_continues_on_a_second_never_clipped():
    notes = tuple(f"Note {n}: steady under fire, reloads on the move" for n in range(30))
    card = CardSpec(title="Sgt. Gridley", rules=notes, track_boxes=5, footer="Rencounter")

    context = card_sheet_context([card], "mini", "A4")

    faces = context["pages"][0]
    assert len(faces) >= 2 and faces[1].title == "Sgt. Gridley (continued)"
    printed = " ".join(b.text for f in faces for b in f.face.blocks)
    assert all(f"Note {n}:" in printed for n in range(30))
    assert faces[0].face.band.lines and not faces[1].face.band.lines  # the track: once


def test_a_blank_card_has_no_dark_name_band_to_write_on():
    system = get_system("rencounter")
    document = cards_document(
        system, [], system.options.validate({}), size="poker", page="A4", blanks=1
    )
    page = open_pdf(render_pdf(document.family, document.parts[0])).pages[0]

    dark = [r for r in page.rects if r.get("non_stroking_color") in ((0.18, 0.231, 0.184),)]
    # A colour fill is numbers; the cut marks fill the sheet with a pattern (a name).
    colours = [r["non_stroking_color"] or () for r in page.rects if r["fill"]]
    fills = {tuple(round(v, 2) for v in c) for c in colours if not isinstance(c, str)}
    assert not dark and (0.18, 0.23, 0.18) not in fills


def _laid_out_blocks(box) -> list:
    """Return each card's header (the <header>, or the one block of a one-line name and its
    subtitle) and its body blocks (<p> children, not the band), as WeasyPrint laid them out."""
    if getattr(box, "element_tag", "") == "article":
        not_body = ("trk", "ft", "hdr")
        header = next(
            c for c in box.children if c.element_tag == "header" or c.element.get("class") == "hdr"
        )
        body = [
            c
            for c in box.children
            if c.element_tag == "p" and c.element.get("class").split()[0] not in not_body
        ]
        return [(header, body)]
    return [found for child in getattr(box, "children", ()) for found in _laid_out_blocks(child)]


@pytest.mark.parametrize("size", ["poker", "mini"])
def test_every_block_is_as_tall_as_measured_headings_inside_their_rows(size):
    from printing.render import render_document

    system = get_system("d12_skirmish")
    figures = [*worst_figures(system), *demo_figures("d12_skirmish")]
    context = cards_document(
        system, figures, system.options.validate({}), size=size, page="A4", blanks=1
    ).parts[0]
    faces = [c.face for page in context["pages"] for c in page]
    document = render_document("cards", context)
    cards = [card for page in document.pages for card in _laid_out_blocks(page._page_box)]

    assert len(cards) == len(faces)
    headed = 0
    for (header, laid_out), face in zip(cards, faces, strict=True):
        # The header as measured, whether the name is a block of its own or the first line of
        # the subtitle's block (styled by ::first-line).
        assert header.margin_height() * 25.4 / 96 == pytest.approx(face.header, abs=0.01)
        classes = [b.css.split()[0] for b in face.blocks]
        assert [p.element.get("class").split()[0] for p in laid_out] == classes
        for p, block in zip(laid_out, face.blocks, strict=True):
            assert p.margin_height() * 25.4 / 96 == pytest.approx(block.height, abs=0.01)
            headed += bool(block.heading)
    assert headed >= len(faces)  # rows carry their section's heading as their first line


@pytest.mark.parametrize("size", ["poker", "mini"])
def test_a_name_band_is_as_tall_as_measured_with_or_without_subtitle_and_qr_code(size):
    from printing.render import render_document

    cards = [
        CardSpec(title=title, subtitle=subtitle, qr_url=qr, track_boxes=3, footer="d12")
        for title in ("Hobbs", "Sgt. Bartholomew Featherstonehaugh-Smythe of the Fens")
        for subtitle in ("", "Trooper · Musketeers")
        for qr in ("", "https://muster.invalid/api/characters/7/")
    ]
    context = card_sheet_context(cards, size, "A4")
    faces = [c.face for page in context["pages"] for c in page]
    document = render_document("cards", context)
    headers = [header for page in document.pages for header, _ in _laid_out_blocks(page._page_box)]

    assert {face.one_line_title for face in faces} == {True, False}
    assert len(headers) == len(faces)
    for header, face in zip(headers, faces, strict=True):
        assert header.margin_height() * 25.4 / 96 == pytest.approx(face.header, abs=0.01)
