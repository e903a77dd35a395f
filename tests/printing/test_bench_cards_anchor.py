"""bench/printing.py's second cards anchor prints each Muster card's own lines, no fewer.

The ratio of a deck to it is only Muster's overhead if the bare boxes carry the same text:
every line of every face (name, subtitle, headings, column labels, values, the legend led by
the footer, the track), bold where the card is bold.
"""

from __future__ import annotations

import importlib.util
import re
from html import unescape
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CARD_BOX = re.compile(r'<div class="c"[^>]*>(.*?)</div>', re.S)


def _bench():
    spec = importlib.util.spec_from_file_location("bench_printing", ROOT / "bench/printing.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _boxes(html: str) -> list[list[str]]:
    return [box.split("\n") for box in CARD_BOX.findall(html)]


def test_the_same_text_anchor_prints_every_line_of_every_face():
    bench = _bench()
    from printing.documents import cards_document

    system, figures, options = bench._deck(12)
    context = cards_document(system, figures, options, size="poker", page="A4").parts[0]
    faces = [c.face for page in context["pages"] for c in page]
    boxes = _boxes(bench.same_text_html(12))

    assert len(boxes) == len(faces) == 12
    for face, box in zip(faces, boxes, strict=True):
        expected = ["".join(t for _, t in line) for line in bench._face_lines(face)]
        printed = [unescape(re.sub(r"</?b>", "", line)) for line in box]
        assert printed == expected
        assert printed[0] == face.title
        assert any(line.startswith("Rencounter: ") for line in printed)  # the legend's lead
        assert "\u25a1" in printed[-1]  # the wound track, at the bottom
    assert bench.deck_lines(12) >= 3 * 6  # the old anchor prints 6 lines a card


def test_bold_runs_stay_bold_in_the_anchor():
    bench = _bench()
    box = _boxes(bench.same_text_html(1))[0]

    assert box[0].startswith("<b>") and box[0].endswith("</b>")  # the name
    assert sum(line.startswith("<b>") for line in box) >= 5  # values, weapon names, track
