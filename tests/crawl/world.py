"""The world the crawl walks: one campaign of a rule system with its cast, and a battle in
every state the table assistant and the post-battle pipeline can leave it in.

alice owns the first side's force, bob the second's; olivia organises the campaign; dave is a
member whose force does not fight; charlie is a stranger; anonymous is nobody; admin is a
staff superuser. Battles are built through the services (as the pages would), except
auto-resolve, which goes through its API endpoint so that a crash there is a 5xx like any
other. A build step that raises is reported as a failure of that state, not a test error.

A system whose tables a club may edit gets house rules: version 1 before the battles are set up
(so they play under it) and version 2 after, so the campaign's pages, the odds page and the
house-rules API show a campaign whose battles are one version behind it.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client

from battles import services
from battles.demo import demo_figure_results
from battles.errors import BattleConflict
from battles.models import Battle
from battles.services import SideChoice
from campaigns.models import Campaign, Role
from campaigns.services.house_rules import house_rules_save
from pages.schema_forms import opening_values
from rosters.models import Force
from rules import house
from rules.checks import Check
from rules.dice import SeededDice
from rules.errors import RulesError
from rules.house import PackError
from rules.system import RuleSystem, get_system
from tests.crawl.crawler import Failure, summary
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ForceFactory,
    MembershipFactory,
    UnitFactory,
    UserFactory,
)

ACTORS = (
    "alice (owner)",
    "bob (other side)",
    "olivia (organiser)",
    "dave (member)",
    "charlie (stranger)",
    "anonymous",
)
STAFF = "admin (staff)"
DRAWS = 3


@dataclass
class World:
    system: RuleSystem
    campaign: Campaign
    users: dict[str, Any]
    forces: list[Force]
    states: dict[int, str] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)

    def client(self, actor: str) -> Client:
        client = Client()
        if self.users.get(actor) is not None:
            client.force_login(self.users[actor])
        return client

    def state_of(self, route: str, kwargs: dict[str, Any]) -> str:
        """Name the state of the battle a URL is about ("site" for every other page)."""
        pk = kwargs.get("pk")
        if "battle" in route and pk is not None and str(pk).isdigit():
            label = self.states.get(int(pk))
            if label:
                return f"{self.system.key}: {label}"
        return f"{self.system.key}: site"

    def seeds(self, *, api: bool = True) -> list[str]:
        """Every page of the world, whether or not a link leads there for this actor (`api`:
        each battle's API answer too, which links on to its events, ledger and audit)."""
        pk = self.campaign.pk
        pages = ["/", "/odds/", "/battles/new/", f"/battles/new/?campaign={pk}"]
        pages += [f"/campaigns/{pk}/", "/api/", "/api/docs/", "/healthz"]
        pages += [f"/odds/?campaign={pk}", f"/campaigns/{pk}/house-rules/"]
        pages += [f"/forces/{force.pk}/" for force in self.forces]
        for force in self.forces:
            pages += [f"/characters/{pk}/" for pk in force.characters.values_list("pk", flat=True)]
        pages += [f"/battles/{pk}/" for pk in self.states]
        if api:
            lists = ("campaigns", "forces", "units", "characters", "memberships", "rounds")
            pages += [f"/api/{name}/" for name in (*lists, "pairings", "systems")]
            house = f"/api/campaigns/{pk}/house-rules/"
            pages += [house, f"{house}versions/1/", f"{house}versions/2/"]
            for pk in self.states:
                pages += [f"/api/battles/{pk}/{part}" for part in ("", "events/", "ledger/")]
                pages.append(f"/api/battles/{pk}/audit/")
        return pages


def _force(campaign: Campaign, owner: Any, name: str, size: int) -> Force:
    force = ForceFactory(campaign=campaign, owner=owner, name=name)
    units = [UnitFactory(force=force, name=f"{name} {n}") for n in ("foot", "horse")]
    for i in range(size):
        CharacterFactory(force=force, unit=units[i % 2], name=f"{name} man {i + 1}")
    return force


def make_world(
    system_key: str,
    *,
    size: int = 2,
    every_state: bool = True,
    house_rules: tuple[dict[str, Any], ...] | None = None,
) -> World:
    """A campaign of the system with its cast, forces and one battle per state (or, with
    `every_state=False`, a battle set up, one auto-resolved and one processed).

    `house_rules` are the packs saved as versions 1 (before the battles) and 2 (after); by
    default the template and the template with one cell changed, for a system with editable
    tables."""
    campaign = CampaignFactory(
        system=system_key, name=f"{system_key} crawl", calendar_date=date(1643, 5, 14)
    )
    names = ("alice", "bob", "olivia", "dave", "charlie")
    people = {n: UserFactory(username=f"{n}-{system_key}") for n in names}
    for name, role in (("alice", Role.PLAYER), ("bob", Role.PLAYER), ("dave", Role.PLAYER)):
        MembershipFactory(user=people[name], campaign=campaign, role=role)
    MembershipFactory(user=people["olivia"], campaign=campaign, role=Role.ORGANISER)
    forces = [
        _force(campaign, people["alice"], "Red", size),
        _force(campaign, people["bob"], "Blue", size),
        _force(campaign, people["dave"], "Grey", 1),
    ]
    users = {actor: people.get(actor.split()[0]) for actor in ACTORS}
    users[STAFF] = get_user_model().objects.filter(username="admin").first() or UserFactory(
        username="admin", is_staff=True, is_superuser=True
    )
    world = World(get_system(system_key), campaign, users, forces)
    packs = default_house_rules(world.system) if house_rules is None else house_rules
    _save_house_rules(world, packs[:1])
    build_battles(world, every_state)
    _save_house_rules(world, packs[1:])
    return world


# --- house rules ----------------------------------------------------------------------------


def default_house_rules(system: RuleSystem) -> tuple[dict[str, Any], ...]:
    """The template, and the template with the first cell that takes another value changed."""
    if system.house is None:
        return ()
    template = house.template(system)
    for table, rows in template["tables"].items():
        for index, row in enumerate(rows):
            for column in system.house.table(table).columns:
                for value in _other_values(column, row.get(column.name)):
                    edited = copy.deepcopy(template)
                    edited["tables"][table][index][column.name] = value
                    try:
                        house.load(system, edited)
                    except PackError:
                        continue
                    return template, edited
    return (template,)


def _other_values(column: Any, value: Any) -> list[Any]:
    if column.kind in ("int", "number") and isinstance(value, int | float):
        return [value + 1, value - 1]
    if column.kind == "bool" and isinstance(value, bool):
        return [not value]
    return []


def _save_house_rules(world: World, packs: tuple[dict[str, Any], ...]) -> None:
    organiser = world.users["olivia (organiser)"]
    for document in packs:
        try:
            house_rules_save(campaign=world.campaign, document=document, user=organiser)
        except PackError as exc:
            world.failures.append(
                Failure(
                    "error",
                    "BUILD",
                    "(house rules)",
                    "olivia (organiser)",
                    f"{world.system.key}: site",
                    "-",
                    summary(exc),
                )
            )


# --- the battles ----------------------------------------------------------------------------


def _start(world: World) -> Battle:
    return services.battle_start(
        sides=[SideChoice(force=world.forces[0]), SideChoice(force=world.forces[1])],
        campaign=world.campaign,
        scenario="The crawl at the ford",
        user=world.users["alice (owner)"],
    )


def _step(world: World, label: str, build: Any) -> Battle | None:
    """Build one state; a crash on the way is a failure of that state."""
    try:
        battle = build(world)
    except Exception as exc:
        world.failures.append(
            Failure(
                "error",
                "BUILD",
                "(services)",
                "alice (owner)",
                f"{world.system.key}: {label}",
                "-",
                summary(exc),
            )
        )
        return None
    if battle is not None:
        world.states[battle.pk] = label
    return battle


def build_battles(world: World, every_state: bool = True) -> None:
    _step(world, "set up", _start)
    if every_state:
        _steps_of_play(world)
    _step(world, "auto-resolved", _auto_resolved)
    # Last: processing sends the wounded to recover, and the recovering may not fight again.
    _step(world, "processed", _processed)


def _steps_of_play(world: World) -> None:
    # Each page's activation form starts the default method and the page after it is fetched;
    # these battles add every method, started and drawn from.
    for method in world.system.activation:
        _step(world, f"activation {method}, {DRAWS} draws", lambda w, m=method: _activated(w, m))
    _step(world, "checks: rolled, typed in, voided", _checked)
    _step(world, "result saved", _with_result)
    # Consent: alice reports, bob (the other side) confirms or disputes; olivia settles.
    _step(world, "reported, waiting for bob", _reported)
    _step(world, "disputed by bob", _disputed)
    _step(world, "finished (bob confirmed)", _confirmed)


def _reported(world: World) -> Battle:
    return services.battle_finish(battle=_with_result(world), user=world.users["alice (owner)"])


def _disputed(world: World) -> Battle:
    bob = world.users["bob (other side)"]
    return services.battle_dispute(battle=_reported(world), user=bob, note="Ned was only hit")


def _confirmed(world: World) -> Battle:
    return services.battle_confirm(battle=_reported(world), user=world.users["bob (other side)"])


def _activated(world: World, method: str, draws: int = DRAWS) -> Battle:
    battle = _start(world)
    services.battle_activation_start(battle=battle, method=method)
    for _ in range(draws):
        try:
            services.battle_activation_draw(battle=battle)
        except (ValidationError, BattleConflict):
            break  # the method refuses another draw here: the state is still worth a visit
    return battle


def _params(check: Check, actor: Any, target: Any) -> dict[str, Any] | None:
    """The check's opening values, filled from the figures' stats where they fit."""
    values = opening_values(check.params)
    for f in check.params.fields:
        source = target if f.name.startswith(("target_", "defender_")) else actor
        key = f.name.removeprefix("target_").removeprefix("defender_")
        if key in source.stats:
            trial = {**values, f.name: source.stats[key]}
            try:
                check.params.validate(trial)
            except (RulesError, TypeError, ValueError):
                continue
            values = trial
    try:
        return dict(check.params.validate(values))
    except (RulesError, TypeError, ValueError):
        return None


def _resolve_some(battle: Battle, count: int) -> int:
    """Resolve up to `count` checks: every other one with the dice typed in; return how many."""
    actor = battle.figures.filter(side__index=0).order_by("pk").first()
    target = battle.figures.filter(side__index=1).order_by("pk").first()
    done = 0
    for check in get_system(battle.system).checks.values():
        params = _params(check, actor, target)
        if params is None or done == count:
            continue
        typed = None
        if done % 2 == 1:
            rolled = check.resolve(params, SeededDice("crawl", check.name))
            typed = [roll.value for roll in rolled.dice]
        try:
            services.battle_resolve(
                battle=battle,
                check=check.name,
                actor=actor.pk,
                target=target.pk,
                params=params,
                dice=typed,
            )
        except ValidationError:
            continue
        done += 1
    return done


def _checked(world: World) -> Battle:
    battle = _start(world)
    if _resolve_some(battle, 3) == 3:
        services.battle_void_last(battle=battle)
    return battle


def _with_result(world: World) -> Battle:
    battle = _start(world)
    _resolve_some(battle, 1)
    sides = [
        {"side": side.pk, "result": result, "victory_points": points}
        for side, result, points in zip(
            battle.sides.order_by("index"), ("WIN", "LOSS"), (3, 1), strict=True
        )
    ]
    return services.battle_record_result(
        battle=battle, figures=demo_figure_results(battle), sides=sides
    )


def _processed(world: World) -> Battle:
    battle = _confirmed(world)
    services.battle_process(battle_id=battle.pk)
    return battle


def _auto_resolved(world: World) -> Battle:
    battle = _start(world)
    url = f"/api/battles/{battle.pk}/auto-resolve/"
    state = f"{world.system.key}: auto-resolve"
    client = world.client("alice (owner)")
    try:
        response = client.post(url)
    except Exception as exc:
        world.failures.append(
            Failure("500", "POST", url, "alice (owner)", state, "-", summary(exc))
        )
        return battle
    if response.status_code >= 500:
        world.failures.append(
            Failure(response.status_code, "POST", url, "alice (owner)", state, "-", "")
        )
    return battle
