"""How engine values read on a page: stat values, battle state, post-battle changes."""

from __future__ import annotations

from pages.display import change_text, state_items, value_text
from rules.schema import Field


def test_a_die_stat_reads_as_a_die():
    assert value_text(Field("vigor", "die", choices=((6, "d6"), (8, "d8"))), 8) == "d8"


def test_a_choice_reads_as_its_label():
    field = Field("shield", "choice", choices=(("none", "No shield"), ("large", "Large shield")))

    assert value_text(field, "large") == "Large shield"


def test_battle_state_shows_status_flags_and_counts_and_hides_empty_values():
    items = state_items(
        {"status": "wounded", "loaded": True, "wounds": 2, "ducked": False, "reload_progress": 0}
    )

    assert items == (("wounded", False), ("loaded", False), ("wounds 2", True))


def test_a_figure_out_of_action_is_bad_news():
    assert state_items({"status": "dead"}) == (("dead", True),)


def test_a_healing_date_reads_as_recovering_until():
    assert change_text({"kind": "recovers_on", "after": "1777-10-11"}) == (
        "recovering until 1777-10-11"
    )


def test_a_stat_change_reads_before_and_after():
    assert change_text({"kind": "stat", "field": "fire", "before": 7, "after": 8}) == "fire: 7 → 8"
