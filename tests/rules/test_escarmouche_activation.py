"""Escarmouche's initiative: roll off, act figure by figure, 1s hand the turn over."""

from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import GivenDice, SeededDice
from rules.errors import ValidationError
from rules.systems.escarmouche import activation
from rules.systems.escarmouche.pool import FIGURE_ENDS, KEEPS_INITIATIVE, SIDE_ENDS

UNITS = ["red:Anne", "red:Bart", "blue:Cole"]


def started():
    return activation.start(UNITS, {}, GivenDice([2, 5]))


def test_the_higher_roll_off_goes_first():
    assert started()["side"] == "blue"


def test_a_tied_roll_off_is_rolled_again():
    assert activation.start(UNITS, {}, GivenDice([3, 3, 6, 1]))["side"] == "red"


def test_figures_must_be_named_with_their_side():
    with pytest.raises(ValidationError, match="side:figure"):
        activation.start(["Anne"], {}, SeededDice("x"))


def test_an_action_other_than_a_move_adds_an_active_die():
    state = activation.begin_figure(started(), "blue:Cole")

    state = activation.after_action(state, "shoot", KEEPS_INITIATIVE)
    state = activation.after_action(state, "move", KEEPS_INITIATIVE)

    assert state["pool"] == 1


def test_a_single_one_ends_the_figure_and_counts_against_the_side():
    state = activation.begin_figure(started(), "blue:Cole")

    state = activation.after_action(state, "develop", FIGURE_ENDS)

    assert (state["current"], state["pool"], state["side_ones"]) == (None, 0, 1)


def test_when_every_figure_has_acted_the_turn_passes():
    state = activation.begin_figure(started(), "blue:Cole")
    state = activation.end_figure(state)

    draw = activation.draw(state, SeededDice("x"))

    assert draw.result["side"] == "red"
    assert draw.result["may_act"] == ["red:Anne", "red:Bart"]


def test_losing_the_sides_initiative_passes_the_turn_with_figures_left():
    state = activation.draw(
        activation.draw(
            activation.end_figure(activation.begin_figure(started(), "blue:Cole")), SeededDice("x")
        ).state,
        SeededDice("x"),
    ).state
    state = activation.begin_figure(state, "red:Anne")

    state = activation.after_action(state, "fight", SIDE_ENDS)

    assert activation.draw(state, SeededDice("x")).result["side"] == "blue"


def test_a_figure_cannot_act_twice_in_a_turn():
    state = activation.end_figure(activation.begin_figure(started(), "blue:Cole"))

    with pytest.raises(ValidationError, match="cannot start"):
        activation.begin_figure(state, "blue:Cole")


def test_a_reserving_figure_holds_its_die_through_the_enemys_turn():
    state = activation.end_figure(activation.begin_figure(started(), "blue:Cole"), reserve=True)

    state = activation.draw(state, SeededDice("x")).state

    assert state["reserved"] == ["blue:Cole"]


# --- the auto-resolver's initiative: the same state, changed in place -----------------------

_FIGURES = ["red:Anne", "red:Bart", "red:Dirk", "blue:Cole", "blue:Eve"]
_STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("draw")),
        st.tuples(st.just("begin_figure"), st.sampled_from(_FIGURES)),
        st.tuples(st.just("begin_waiting")),
        st.tuples(
            st.just("after_action"),
            st.sampled_from([activation.MOVE, "develop", "fight"]),
            st.sampled_from([KEEPS_INITIATIVE, FIGURE_ENDS, SIDE_ENDS]),
        ),
        st.tuples(st.just("end_figure")),
        st.tuples(st.just("end_figure"), st.just("reserve")),
        st.tuples(st.just("remove"), st.sampled_from(_FIGURES)),
    ),
    max_size=40,
)


def _played(state, step):
    """One step of the table's initiative: each function returns a new state."""
    name, *args = step
    if name == "draw":
        return activation.draw(state, SeededDice("unused")).state
    if name == "end_figure":
        return activation.end_figure(state, reserve=bool(args))
    if name == "begin_waiting":  # the first figure that may act begins, if there is one
        waiting = activation.may_act(state)
        return activation.begin_figure(state, waiting[0]) if waiting else state
    return getattr(activation, name)(state, *args)


@settings(max_examples=300, deadline=None)
@given(_STEPS)
def test_the_auto_resolvers_initiative_passes_through_the_tables_states(steps):
    table = activation.start(_FIGURES, {}, GivenDice([4, 2]))
    quick = activation.Initiative(activation.start(_FIGURES, {}, GivenDice([4, 2])))

    for step in steps:
        name, *args = step
        change = getattr(quick, name)
        if name == "end_figure":
            change, args = partial(change, reserve=bool(args)), []
        first = (activation.may_act(table) or [None])[0]
        try:
            table = _played(table, step)
        except ValidationError:
            with pytest.raises(ValidationError):
                change(*args)
            continue
        began = change(*args)

        assert quick.state == table
        if name == "begin_waiting":
            assert began == first
        waiting = activation.may_act(table)
        assert quick.first_waiting() == (waiting[0] if waiting else None)
