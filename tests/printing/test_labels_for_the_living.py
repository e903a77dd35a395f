"""Labels for the living: the dead, retired and captured are left out unless asked for, in a
force's labels and a packet's alike; a label gives one name, whole or shortened with "…",
and names, never keys."""

from __future__ import annotations

from dataclasses import replace

import pytest

from printing.documents import (
    PacketSide,
    labels_document,
    packet_document,
    sticker_codes,
    stickers_document,
)
from printing.labels import SheetOptions
from printing.render import render_pdf
from printing.sheets import get_preset
from rules.system import all_systems, get_system
from tests.printing.demo_forces import demo_figures
from tests.printing.pdfs import open_pdf, page_text

SHEET = SheetOptions(get_preset("OL5275"))
SYSTEMS = [s.key for s in all_systems()]


def _text(document) -> str:
    pdf = open_pdf(render_pdf(document.family, document.parts[0]))
    return " ".join(page_text(page) for page in pdf.pages)


def _label_lines(document) -> list[str]:
    return [
        line
        for page in document.parts[0]["pages"]
        for label in page
        for line in (label.name, *label.rest.split("\n"))
    ]


@pytest.mark.parametrize("key", SYSTEMS)
def test_a_forces_labels_leave_out_the_dead_unless_asked(key):
    system = get_system(key)
    figures = demo_figures(key)  # Will Cooper is dead

    plain = _label_lines(labels_document(system, figures, SHEET))
    asked = _label_lines(labels_document(system, figures, SHEET, include=("dead",)))

    assert not any("Will Cooper" in line for line in plain)
    assert any("Will Cooper" in line for line in asked)


@pytest.mark.parametrize("gone", ["RETIRED", "CAPTURED"])
def test_the_retired_and_the_captured_are_left_out_too(gone):
    system = get_system("rencounter")
    figures = [
        replace(f, state=gone) if f.name == "Tom Pike" else f for f in demo_figures(system.key)
    ]

    lines = _label_lines(labels_document(system, figures, SHEET))

    assert not any("Tom Pike" in line for line in lines) and any(
        "Gridley" in line for line in lines
    )


def test_a_packets_new_labels_leave_out_the_dead():
    system = get_system("rencounter")
    figures = demo_figures(system.key)
    side = PacketSide({"name": "Red Company", "faction": "", "owner": "alice"}, tuple(figures))

    document = packet_document(
        system,
        system.options.validate({}),
        title="Red v Blue",
        subtitle="Round 1",
        sides=[side],
        campaign="Autumn",
        unlabelled=figures,
        sheet=SHEET,
    )

    labels = dict(document.sections())["labels"]
    printed = [label.name for page in labels["pages"] for label in page]
    assert "Will Cooper" not in printed and "Gridley" in printed
    assert f"Base labels for {len(figures) - 1} figures without one" in " ".join(
        document.parts[0]["contents"]
    )


@pytest.mark.parametrize("key", SYSTEMS)
def test_a_label_names_the_figure_once_and_its_arms_by_name(key):
    system = get_system(key)

    for figure in demo_figures(key):
        text = " ".join(
            _label_lines(labels_document(system, [replace(figure, state="ACTIVE")], SHEET))
        )
        first = figure.name.split()[0]
        assert text.count(first) == 1, (key, text)
        assert "_" not in text, (key, text)


def test_a_name_too_long_for_its_label_is_shortened_with_an_ellipsis():
    system = get_system("grits_and_glory")
    figure = replace(demo_figures(system.key)[0], name="Bartholomew Featherstonehaugh-Smythe " * 3)

    (name, *_) = _label_lines(labels_document(system, [figure], SheetOptions(get_preset("OL1575"))))

    assert name.startswith("* Bart") and name.endswith("…")


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_system_that_tracks_wounds_or_hits_has_stickers(key):
    codes = sticker_codes(key)
    counts = {code: 2 for code, _, _ in codes}

    text = _text(stickers_document(counts, True, SHEET, system_key=key))

    assert codes and all(text.split().count(code) == 2 for code, _, _ in codes)
