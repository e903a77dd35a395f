"""A card face's printed lines as markup: `{{ block|block_lines }}`, `{{ face|header_lines }}`,
`{{ band|track_lines }}` (templates/printing/cards.html).

Each block prints under `white-space: pre`, so its lines are joined with newline characters
here rather than written as `&#10;` in the template: a parser takes every character reference
on its own, and a 90-card deck had about 800 of them (2.4% of the deck's render when
WeasyPrint's HTML5 parser read it, measured in instructions with cachegrind; docs/printing.md).
Every piece of text is escaped; the only markup added is `<b>` around a bold run, so the
output stays well-formed for the XML parser (printing.render.well_formed_root).
"""

from __future__ import annotations

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from printing.card_faces import Band, Block, Face

register = template.Library()


def _bold(text: str) -> str:
    return f"<b>{conditional_escape(text)}</b>"


@register.filter
def block_lines(block: Block) -> SafeString:
    """A block's heading (its first line, styled by `.hh::first-line`) and its runs, one
    under the other; a bold run in `<b>` unless it opens the block (`.bn::first-line`)."""
    lines: list[str] = [conditional_escape(block.heading)] if block.heading else []
    for n, (bold, text) in enumerate(block.runs):
        plain = not bold or (n == 0 and block.bold_lead)
        lines.append(conditional_escape(text) if plain else _bold(text))
    if not block.runs:
        lines.append(conditional_escape(block.text))
    return mark_safe("\n".join(lines))


@register.filter
def header_lines(face: Face) -> SafeString:
    """A one-line name and, under it, the subtitle (the `.hdr` block)."""
    lines = [face.title, face.subtitle] if face.subtitle else [face.title]
    return conditional_escape("\n".join(lines))


@register.filter
def track_lines(band: Band) -> SafeString:
    """The band's track: each line's groups of boxes, a group's label in bold before it."""
    printed = []
    for line in band.lines:
        groups = [
            f"{_bold(label)} {conditional_escape(boxes)}" if label else conditional_escape(boxes)
            for label, boxes in line
        ]
        printed.append("  ".join(groups))
    return mark_safe("\n".join(printed))
