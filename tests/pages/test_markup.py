"""The table's form fields and chips drawn in Python (pages/markup.py): the markup the
templates drew, every value escaped."""

from types import SimpleNamespace

import pytest

from pages.display import Chip
from pages.markup import chips_html, field_html
from pages.schema_forms import Input, Option

HOSTILE = '<script>alert("x")</script>'


def _input(widget: str, **changes: object) -> Input:
    fields: dict[str, object] = {
        "name": "skill",
        "id": "p-skill",
        "widget": widget,
        "label": "Skill",
        "help": "",
        "value": "7",
        "checked": False,
        "options": (Option("a", "A", True), Option("b", "B", False)),
        "min": None,
        "max": None,
        "error": "",
        "source": "",
    }
    return Input(**{**fields, **changes})  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "widget, control",
    [
        ("number", '<input type="number" inputmode="numeric" id="p-skill" name="skill" value="7"'),
        ("select", '<select id="p-skill" name="skill"'),
        ("text", '<input type="text" id="p-skill" name="skill" value="7"'),
        ("textarea", '<textarea id="p-skill" name="skill" rows="3"'),
        ("checkbox", '<input type="checkbox" id="p-skill" name="skill" value="true"'),
        ("radios", '<input type="radio" id="p-skill-1" name="skill" value="a" checked'),
        ("checkboxes", '<input type="checkbox" id="p-skill-2" name="skill" value="b"'),
    ],
)
def test_every_widget_draws_its_control_with_its_label_and_feedback_slot(widget, control):
    html = field_html(_input(widget))

    assert control in html
    assert "Skill" in html
    assert '<div class="feedback" id="p-skill-feedback"></div>' in html
    assert "aria-invalid" not in html


def test_a_number_keeps_its_bounds_and_a_select_its_choice():
    assert ' min="0" max="12" step="1"' in field_html(_input("number", min=0, max=12))
    select = field_html(_input("select"))
    assert '<option value="a" selected>A</option><option value="b">B</option>' in select


def test_an_error_a_source_and_help_are_described_and_shown():
    html = field_html(_input("number", error="too high", source="melee 9 — Gridley", help="1-12"))

    assert 'aria-describedby="p-skill-source p-skill-help p-skill-feedback"' in html
    assert 'aria-invalid="true"' in html
    assert '<p class="error" id="p-skill-error">too high</p>' in html
    assert 'data-testid="source-skill">melee 9 — Gridley</p>' in html
    assert '<p class="help" id="p-skill-help">1-12</p>' in html


@pytest.mark.parametrize("widget", ["number", "select", "text", "textarea", "checkbox", "radios"])
def test_no_value_label_or_message_reaches_the_page_unescaped(widget):
    option = Option(HOSTILE, HOSTILE, True)
    html = field_html(
        _input(widget, label=HOSTILE, value=HOSTILE, error=HOSTILE, source=HOSTILE,
               help=HOSTILE, options=(option,))
    )  # fmt: skip

    assert "<script>" not in html
    assert "&lt;script&gt;" in html


def _figure(kills: int = 0) -> SimpleNamespace:
    return SimpleNamespace(pk=7, name=HOSTILE, kills=kills)


def test_chips_show_state_and_kills_and_a_button_only_for_what_a_player_may_take_off():
    chips = (Chip("2 wounds", True, "wounds", "wound"), Chip("pinned", False))

    plain = chips_html(chips, _figure(kills=1))
    adjustable = chips_html(chips, _figure(kills=3), adjustable=True)

    assert plain.startswith('<ul class="state" data-chips="7"><li class="is-bad">2 wounds</li>')
    assert '<li class="is-good">1 kill</li>' in plain and "button" not in plain
    assert adjustable.count("<button") == 1
    assert 'name="adjust" value="wounds:remove"' in adjustable
    assert "<li>pinned</li>" in adjustable
    assert '<li class="is-good">3 kills</li>' in adjustable
    assert "<script>" not in adjustable  # the figure's name, in the button's label
