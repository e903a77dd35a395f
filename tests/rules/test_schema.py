"""Schema validation: the inline fast path agrees with each field's `normalise`."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import ValidationError
from rules.schema import Field, Schema
from rules.system import all_systems
from tests.rules.agreement import params_strategy

SCHEMA = Schema(
    (
        Field("shots", "int", default=1, min=1, max=6),
        Field("weapon", "choice", default="musket", choices=(("musket", "Musket"), ("bow", "Bow"))),
        Field("die", "die", default=6, choices=((4, "d4"), (6, "d6"))),
        Field("cover", "bool", default=False),
        Field("name", "text", required=True, max=10),
    )
)
CHECKS = [check for system in all_systems() for check in system.checks.values()]


def slow_validate(schema: Schema, data: dict[str, Any]) -> dict[str, Any]:
    """Validate field by field through `normalise` alone: what the fast path must equal."""
    values = {
        f.name: f.normalise(data[f.name]) if f.name in data else f.default for f in schema.fields
    }
    return schema.clean(values) if schema.clean else values


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_every_check_validates_canonical_params_as_normalise_does(data: st.DataObject) -> None:
    check = data.draw(st.sampled_from(CHECKS))
    params = data.draw(params_strategy(check))
    try:
        expected = slow_validate(check.params, params)
    except (ValueError, ValidationError):
        with pytest.raises(ValidationError):
            check.params.validate(params)
        return
    assert check.params.validate(params) == expected
    assert list(check.params.validate(params)) == list(check.params.names)  # field order


def test_values_in_their_canonical_type_pass_as_they_are() -> None:
    values = SCHEMA.validate({"shots": 3, "weapon": "bow", "die": 4, "cover": True, "name": "Jo"})
    assert values == {"shots": 3, "weapon": "bow", "die": 4, "cover": True, "name": "Jo"}


def test_text_values_are_parsed_into_their_types() -> None:
    values = SCHEMA.validate({"shots": "3", "die": "4", "cover": "yes", "name": " Jo "})
    assert values == {"shots": 3, "weapon": "musket", "die": 4, "cover": True, "name": "Jo"}


def test_a_one_for_a_bool_becomes_true_not_one() -> None:
    assert SCHEMA.validate({"cover": 1, "name": "Jo"})["cover"] is True


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"shots": 7, "name": "Jo"}, "shots", "must be at most 6, not 7"),
        ({"shots": True, "name": "Jo"}, "shots", "must be a whole number"),
        ({"weapon": "ray gun", "name": "Jo"}, "weapon", "must be one of musket, bow"),
        ({"die": True, "name": "Jo"}, "die", "must be one of 4, 6"),
        ({"cover": 2, "name": "Jo"}, "cover", "must be true or false, not 2"),
        ({"range": 3, "name": "Jo"}, "range", "unknown field; expected one of shots"),
        ({}, "name", "is required"),
        ({"name": None}, "name", "is required"),
        ({"name": ["a list"]}, "name", "must be text"),
    ],
)
def test_a_bad_value_is_named_with_what_was_wrong(
    data: dict[str, Any], field: str, message: str
) -> None:
    with pytest.raises(ValidationError) as error:
        SCHEMA.validate(data)
    assert message in error.value.errors[field]


def test_every_bad_field_is_named_at_once() -> None:
    with pytest.raises(ValidationError) as error:
        SCHEMA.validate({"shots": 0, "weapon": "sling", "range": 1})
    assert set(error.value.errors) == {"shots", "weapon", "range", "name"}
