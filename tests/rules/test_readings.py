"""Where a rule text is ambiguous, `tables` says which reading Muster takes."""

from __future__ import annotations

import pytest

from rules.dice import GivenDice
from rules.system import get_system


@pytest.mark.parametrize(
    ("system", "words"),
    [("escarmouche", "Shaken adds one passive die"), ("d12_skirmish", "a 4 counts as out of ammo")],
)
def test_the_tables_mark_the_reading(system, words):
    readings = get_system(system).tables({})["readings"]

    assert any(words in reading and reading.startswith("Muster's reading") for reading in readings)


def test_a_misfire_of_4_is_out_of_ammo():
    result = get_system("d12_skirmish").check("misfire").resolve({}, GivenDice([4]))

    assert result.outcome == "out_of_ammo"


def test_shaken_adds_a_passive_die_to_a_move():
    check = get_system("escarmouche").check("move")
    calm = check.odds(check.params.validate({"active": 1, "shaken": 0}))
    shaken = check.odds(check.params.validate({"active": 1, "shaken": 1}))

    assert calm.as_json() != shaken.as_json()
