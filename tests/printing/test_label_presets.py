"""Users' own label stock: stored only when it passes the same checks as the built-in presets."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from printing.services import label_preset_create

pytestmark = pytest.mark.django_db

GOOD = {
    "name": "Club stock",
    "page": "A4",
    "shape": "round",
    "width": 25.0,
    "height": 25.0,
    "columns": 7,
    "rows": 10,
    "left": 10.0,
    "top": 10.0,
    "pitch_x": 27.0,
    "pitch_y": 27.0,
}


def test_a_sound_preset_is_stored_and_prints_as_a_sheet(story):
    preset = label_preset_create(owner=story.alice, **GOOD)

    sheet = preset.as_sheet()

    assert sheet.key == f"user-{preset.pk}" and sheet.slots_per_sheet == 70


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"pitch_x": 20.0}, "overlap across"),
        ({"rows": 11}, "leave the page down"),
        ({"height": 20.0}, "one diameter"),
    ],
)
def test_a_preset_whose_labels_overlap_or_leave_the_page_is_refused(story, change, message):
    with pytest.raises(ValidationError, match=message):
        label_preset_create(owner=story.alice, **{**GOOD, **change})
