"""The seam between the figures and the check form, as one property over every check.

For figures with stats and equipment drawn from each system's stat schema (not the defaults)
and battle state drawn from its keys, the check form served by the real view pre-fills every
parameter the rules engine declares as coming from a figure with that figure's value, says
where it came from, and prices exactly the values it shows (`Check.odds`, which is what
`python -m rules odds` prints).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from html.parser import HTMLParser
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from battles.models import Battle, BattleFigure
from battles.services import SideChoice, battle_start
from campaigns.models import Role
from campaigns.services.house_rules import house_rules_save
from rules import house
from rules.checks import Check, FigureView, FromEquipment, FromState, Source, _Stat
from rules.errors import RulesError, ValidationError
from rules.schema import Field
from rules.system import all_systems, get_system
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UnitFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

SYSTEMS = [s.key for s in all_systems()]


# --- figures drawn from a stat schema -------------------------------------------------------


def _value(field: Field) -> st.SearchStrategy[Any]:
    if field.kind == "int":
        low = field.min if field.min is not None else 0
        return st.integers(low, field.max if field.max is not None else low + 10)
    if field.kind in ("choice", "die"):
        return st.sampled_from(field.choice_values())
    if field.kind == "bool":
        return st.booleans()
    if field.kind == "multichoice":
        most = min(field.max or 3, 3)
        return st.lists(st.sampled_from(field.choice_values()), unique=True, max_size=most)
    return st.just(field.default)


@st.composite
def stats_of(draw: st.DrawFn, system_key: str) -> dict[str, Any]:
    """Stats for one figure of the system: every field drawn, then the schema's own check."""
    schema = get_system(system_key).stats
    raw = {f.name: draw(_value(f)) for f in schema.fields}
    for _ in range(3):
        try:
            return schema.validate(raw)
        except ValidationError as exc:
            # e.g. a shield with a two-handed weapon, Bowmen without bows: the roster refuses
            # those too, so the fields named take their defaults instead.
            raw = {name: value for name, value in raw.items() if name not in exc.errors}
    assume(False)
    raise AssertionError("unreachable")


@st.composite
def state_for(draw: st.DrawFn, system_key: str, stats: Mapping[str, Any]) -> dict[str, Any]:
    """A battle state partway through a game: counts (wounds, shaken, Hits) and markers drawn."""
    state = dict(get_system(system_key).initial_state(stats))
    for key, value in state.items():
        if isinstance(value, bool):
            state[key] = draw(st.booleans())
        elif isinstance(value, int):
            state[key] = draw(st.integers(0, 3))
    return state


# --- the page, read as a player's browser would ---------------------------------------------


class _FormReader(HTMLParser):
    """Collects each named input's value, the sources shown, and the odds rows."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, Any] = {}
        self.sources: dict[str, str] = {}
        self.odds: dict[str, str] = {}
        self._select: str | None = None
        self._source: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name", "")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind == "checkbox":
                self.values[name] = "checked" in a
            elif kind == "radio":
                if "checked" in a:
                    self.values[name] = a["value"]
            elif kind != "hidden" or name not in self.values:
                self.values[name] = a.get("value", "")
        elif tag == "select":
            self._select = name or None
        elif tag == "option" and self._select and "selected" in a:
            self.values[self._select] = a["value"]
        elif tag == "tr" and "data-outcome" in a:
            self.odds[a["data-outcome"]] = a.get("data-exact") or a["data-probability"]
        elif a.get("data-testid", "").startswith("source-"):
            self._source = a["data-testid"].removeprefix("source-")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None

    def handle_data(self, data: str) -> None:
        if self._source:
            self.sources[self._source] = data.strip()
            self._source = None


def _read(html: str) -> _FormReader:
    reader = _FormReader()
    reader.feed(html)
    return reader


# --- what the figure holds, read independently of the engine's `read` -----------------------


def _fits(field: Field, value: Any) -> tuple[bool, Any]:
    try:
        return True, field.normalise(value)
    except (ValueError, TypeError):
        return False, None


def _expected(source: Source, field: Field, figure: FigureView) -> tuple[bool, Any]:
    """The figure's own value for the parameter (ok False where the parameter cannot take it)."""
    if isinstance(source, _Stat) and source.equals is None:
        ok, value = _fits(field, figure.stats.get(source.stat))
        return (ok, value) if ok else _fits(field, source.otherwise)
    if isinstance(source, _Stat):
        return True, figure.stats.get(source.stat) == source.equals
    if isinstance(source, FromState) and source.above is None:
        return _fits(field, figure.state.get(source.key, source.default))
    if isinstance(source, FromEquipment):
        carried = figure.stats.get(source.stat)
        for item in carried if isinstance(carried, list) else [carried]:
            ok, value = _fits(field, item)
            if ok:
                return ok, value
        return _fits(field, source.otherwise)
    found = source.read(field, figure)  # a flag or a rule over stats and state
    return (found is not None, found.value if found else None)


# --- the battle: one per system, its two figures' stats replaced for each example -----------


def _battle(system: str) -> Battle:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    campaign = CampaignFactory(system=system)
    forces = []
    for owner, name in ((alice, "Red"), (bob, "Blue")):
        MembershipFactory(user=owner, campaign=campaign)
        force = ForceFactory(campaign=campaign, owner=owner, name=name)
        CharacterFactory(force=force, unit=UnitFactory(force=force), name=f"{name} man")
        forces.append(force)
    return battle_start(sides=[SideChoice(force=f) for f in forces], campaign=campaign, user=alice)


def _set(figure: BattleFigure, stats: dict[str, Any], state: dict[str, Any]) -> FigureView:
    BattleFigure.objects.filter(pk=figure.pk).update(stats=stats, state=state, table_choices={})
    return FigureView(figure.name, stats, state)


def _check_form(client: Any, battle: Battle, check: Check, actor: int, target: int) -> str:
    url = f"/battles/{battle.pk}/form/?actor={actor}&check={check.name}&against={target}"
    response = client.get(url)
    assert response.status_code == 200, (check.name, response.status_code)
    return response.content.decode()


def _assert_filled_from_figures(
    check: Check, page: _FormReader, figures: Mapping[str, FigureView]
) -> None:
    for field in check.params.fields:
        source = check.sources[field.name]
        if source.who is None:  # the player's judgement
            continue
        if source.who == "target" and not check.takes_target:
            continue
        figure = figures[source.who]
        ok, expected = _expected(source, field, figure)
        if not ok:
            continue  # the figure's value is not one this parameter takes (d0 for a d4+ roll)
        shown = field.normalise(page.values[field.name])
        assert shown == expected, (check.name, field.name, shown, expected)
        assert page.sources[field.name].endswith(f"— {figure.name}"), (check.name, field.name)


def _assert_priced_as_shown(check: Check, page: _FormReader) -> None:
    """The odds on the page are the engine's for exactly the values the page holds."""
    values = {f.name: page.values.get(f.name) for f in check.params.fields}
    raw = {name: value for name, value in values.items() if value not in ("", None)}
    try:
        odds = check.odds(raw)
    except RulesError:
        assert not page.odds, check.name  # nothing valid to price: the page prices nothing
        return
    assert page.odds, check.name
    for key, probability in odds.probabilities.items():
        text = page.odds[key]
        if odds.exact:
            assert Fraction(text) == Fraction(probability), (check.name, key)
        else:
            assert abs(float(text) - float(probability)) < 1e-12, (check.name, key)


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_check_is_filled_from_the_figures_and_priced_as_shown(client, system):
    battle = _battle(system)
    client.force_login(battle.sides.get(index=0).force.owner)
    red, blue = battle.figures.get(name="Red man"), battle.figures.get(name="Blue man")
    checks = list(get_system(system).checks.values())

    @settings(
        max_examples=6,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(data=st.data())
    def every_check(data: st.DataObject) -> None:
        figures = {}
        for role, figure in (("actor", red), ("target", blue)):
            stats = data.draw(stats_of(system), label=f"{role} stats")
            state = data.draw(state_for(system, stats), label=f"{role} state")
            figures[role] = _set(figure, stats, state)
        for check in checks:
            page = _read(_check_form(client, battle, check, red.pk, blue.pk))
            _assert_filled_from_figures(check, page, figures)
            _assert_priced_as_shown(check, page)

    every_check()


# --- the form as a player meets it -----------------------------------------------------------


def _melee_battle(muster: Any) -> Battle:
    """Red man 1 (melee 9, musket and sword) against Blue man 1 (melee 8)."""
    for force, melee in ((muster.red, 9), (muster.blue, 8)):
        man = force.characters.get(name=f"{force.name} man 1")
        man.stats = {**man.stats, "melee": melee}
        man.save()
    return battle_start(
        sides=[SideChoice(force=muster.red), SideChoice(force=muster.blue)],
        campaign=muster.campaign,
        user=muster.alice,
    )


def _melee_form(client: Any, battle: Battle, **extra: Any) -> _FormReader:
    red, blue = battle.figures.get(name="Red man 1"), battle.figures.get(name="Blue man 1")
    query = {"actor": red.pk, "check": "melee", "against": blue.pk, **extra}
    response = client.get(f"/battles/{battle.pk}/form/", query)
    assert response.status_code == 200
    return _read(response.content.decode())


def test_the_melee_form_holds_both_skills_with_their_sources_up_front(client, muster):
    battle = _melee_battle(muster)
    client.force_login(muster.alice)

    page = _melee_form(client, battle)
    html = client.get(
        f"/battles/{battle.pk}/form/",
        {"actor": battle.figures.get(name="Red man 1").pk, "check": "melee"},
    ).content.decode()

    assert (page.values["attack_skill"], page.values["parry_skill"]) == ("9", "8")
    assert page.sources["attack_skill"] == "melee 9 — Red man 1"
    assert page.sources["parry_skill"] == "melee 8 — Blue man 1"
    assert page.values["weapon"] == "sword"  # carried, not "no weapon modifiers"
    # Up front: the figures' numbers come before the folded "Situation".
    assert html.index('id="param-attack_skill"') < html.index('class="situation"')


def test_the_odds_shown_are_those_of_nine_against_eight(client, muster):
    battle = _melee_battle(muster)
    client.force_login(muster.alice)
    melee = get_system("rencounter").checks["melee"]

    page = _melee_form(client, battle)

    params = {f.name: page.values.get(f.name) for f in melee.params.fields}
    odds = melee.odds({k: v for k, v in params.items() if v not in ("", None)})
    assert {k: Fraction(v) for k, v in page.odds.items()} == dict(odds.probabilities)
    assert params["attack_skill"] == "9" and params["parry_skill"] == "8"


def test_a_chosen_weapon_and_situation_stay_for_the_figures_next_check(client, muster):
    battle = _melee_battle(muster)
    client.force_login(muster.alice)
    page = _melee_form(client, battle)
    red, blue = battle.figures.get(name="Red man 1"), battle.figures.get(name="Blue man 1")
    chosen = {**page.values, "weapon": "axe", "attack_modifier": "2"}
    chosen = {k: v for k, v in chosen.items() if v is not False and k != "shown"}

    response = client.post(
        f"/battles/{battle.pk}/check/",
        {**chosen, "actor": red.pk, "check": "melee", "against": blue.pk, "dice_mode": "roll"},
    )
    assert response.status_code == 302
    after = _melee_form(client, battle)

    assert after.values["weapon"] == "axe"
    assert after.sources["weapon"] == "your last choice"
    assert after.values["attack_modifier"] == "2"
    assert after.values["attack_skill"] == "9"  # the figure's stats are read anew, never kept


def test_the_situation_typed_survives_a_change_of_target(client, muster):
    battle = _melee_battle(muster)
    client.force_login(muster.alice)
    red = battle.figures.get(name="Red man 1")

    page = _melee_form(client, battle, shown=f"{red.pk}:melee", attack_modifier="-3")

    assert page.values["attack_modifier"] == "-3"


def test_a_check_that_takes_no_target_drops_it(client, muster):
    battle = _melee_battle(muster)
    client.force_login(muster.alice)
    red, blue = battle.figures.get(name="Red man 1"), battle.figures.get(name="Blue man 1")

    html = client.get(
        f"/battles/{battle.pk}/form/", {"actor": red.pk, "check": "action", "against": blue.pk}
    ).content.decode()
    client.post(
        f"/battles/{battle.pk}/check/",
        {
            "actor": red.pk,
            "check": "action",
            "against": blue.pk,
            "experience": "4",
            "wounds": "0",
            "morale": "0",
            "master_variant": "always",
            "dice_mode": "roll",
        },
    )

    assert '<select id="check-target" disabled' in html
    assert "No target: this check concerns Red man 1 alone." in html
    assert battle.events.get().target is None


def test_a_targets_parameter_says_so_while_no_target_is_picked(client, muster):
    battle = _melee_battle(muster)
    client.force_login(muster.alice)

    page = _melee_form(client, battle, against="")

    assert page.values["attack_skill"] == "9"
    assert page.sources["parry_skill"] == "the default: pick a target to read it"


def test_a_weapons_reload_is_read_from_the_clubs_table_under_its_house_rules(client):
    system = get_system("grits_and_glory")
    document = house.template(system)
    next(r for r in document["tables"]["weapons"] if r["key"] == "musket")["reload"] = 4
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    campaign = CampaignFactory(system="grits_and_glory")
    MembershipFactory(user=alice, campaign=campaign, role=Role.ORGANISER)
    house_rules_save(campaign=campaign, document=document, user=alice, note="slow muskets")
    forces = []
    for owner, name in ((alice, "Red"), (bob, "Blue")):
        if owner is bob:
            MembershipFactory(user=owner, campaign=campaign)
        force = ForceFactory(campaign=campaign, owner=owner, name=name)
        CharacterFactory(force=force, unit=UnitFactory(force=force), name=f"{name} man")
        forces.append(force)
    battle = battle_start(
        sides=[SideChoice(force=f) for f in forces], campaign=campaign, user=alice
    )
    red = battle.figures.get(name="Red man")
    _set(red, {**red.stats, "weapons": ["musket"]}, {**red.state, "reloading": 0})
    client.force_login(alice)

    page = _read(_check_form(client, battle, system.check("reload"), red.pk, red.pk))

    assert page.values["reload"] == "4"
    assert page.sources["reload"] == "Reload 4 — Red man"
