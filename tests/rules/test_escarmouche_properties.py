"""Escarmouche: bad parameters of any check are refused (the properties every check keeps are
in test_every_check.py)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import ValidationError
from rules.system import get_system

SYSTEM = get_system("escarmouche")
CHECKS = sorted(SYSTEM.checks)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(CHECKS),
    st.sampled_from(["active", "rating", "weapon", "nonsense"]),
    st.sampled_from([-1, 99, "x"]),
)
def test_bad_params_raise_a_validation_error(name, field, value):
    check = SYSTEM.check(name)

    with pytest.raises(ValidationError):
        check.odds({field: value})
