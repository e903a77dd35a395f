"""Typed inputs from a rules schema, and reading the browser's answers back."""

from __future__ import annotations

from django.http import QueryDict

from pages.schema_forms import opening_value, schema_inputs, submitted_values
from rules.schema import Field, Schema

SCHEMA = Schema(
    (
        Field("skill", "int", min=2, max=12),
        Field("die", "die", default=6, choices=((4, "d4"), (6, "d6"), (8, "d8"))),
        Field(
            "cover",
            "choice",
            default="none",
            choices=tuple((c, c) for c in ("none", "light", "heavy", "hard", "total")),
        ),
        Field("charging", "bool", default=False),
        Field("weapons", "multichoice", default=[], choices=(("sword", "Sword"), ("pike", "Pike"))),
    )
)


def test_a_number_without_a_default_opens_in_the_middle_of_its_range():
    assert opening_value(SCHEMA["skill"]) == 7


def test_each_kind_gets_its_own_widget():
    inputs = schema_inputs(SCHEMA, {"die": 6, "cover": "none", "charging": True})

    assert [i.widget for i in inputs] == ["number", "radios", "select", "checkbox", "checkboxes"]
    assert inputs[3].checked


def test_an_unticked_checkbox_reads_as_false_and_a_ticked_one_as_true():
    unticked, _ = submitted_values(SCHEMA, QueryDict("skill=5"))
    ticked, _ = submitted_values(SCHEMA, QueryDict("skill=5&charging=true"))

    assert unticked["charging"] is False
    assert ticked["charging"] is True


def test_several_ticked_choices_read_as_a_list():
    values, _ = submitted_values(SCHEMA, QueryDict("skill=5&weapons=sword&weapons=pike"))

    assert SCHEMA.validate(values)["weapons"] == ["sword", "pike"]


def test_a_blank_field_without_a_default_is_reported():
    _, errors = submitted_values(SCHEMA, QueryDict("skill="))

    assert errors == {"skill": "Enter a value."}


def test_an_error_is_written_as_a_sentence_next_to_its_field():
    inputs = schema_inputs(SCHEMA, {"skill": 40}, {"skill": "must be at most 12, not 40"})

    assert inputs[0].error == "Must be at most 12, not 40."
    assert inputs[0].describedby == "skill-feedback"


def test_the_selected_choice_is_marked():
    inputs = schema_inputs(SCHEMA, {"die": 8})

    assert [o.selected for o in inputs[1].options] == [False, False, True]
