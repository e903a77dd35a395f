"""What one table action costs, and that the cheaper way answers the same (issue 28).

An action reads the battle once under its row lock (`battles.services.table.seat`) and the
API answers from those objects, as the action left them, instead of reloading the battle.
The answers must be what a reload gives; the queries are pinned so a new read shows; the
log's order and exactly-once hold when two phones act at once (PostgreSQL).

alice plays Red, bob plays Blue, olivia organises the campaign (see conftest).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from battles import services
from battles.chain import chain_breaks
from battles.models import Battle, BattleEvent
from tests.battles.conftest import Cast, make_cast, start_battle


def _url(battle: Battle, action: str = "") -> str:
    return f"/api/battles/{battle.pk}/" + (f"{action}/" if action else "")


def _phone(user: Any) -> APIClient:
    """A phone signed in as the bench and the live table's phones are: with a token."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def _figures(battle: Battle, side: int) -> list[int]:
    return list(battle.figures.filter(side__index=side).order_by("pk").values_list("pk", flat=True))


def _damage(battle: Battle, target: int) -> dict[str, Any]:
    """A typed-in damage roll of 1 from Red's first figure: it takes the target out."""
    return {"check": "damage", "actor": _figures(battle, 0)[0], "target": target, "dice": [1]}


def _as_reloaded(client: APIClient, battle: Battle, answer: dict[str, Any]) -> None:
    """The action's answer is the event as the log lists it and the sides as a reload
    (the battle's own page of the API, read afresh) gives them."""
    listed = {e["id"]: e for e in client.get(_url(battle, "events")).json()["results"]}
    reloaded = client.get(_url(battle)).json()["sides"]
    event = {k: v for k, v in answer.items() if k != "sides"}
    assert event == listed[answer["id"]]
    assert answer["sides"] == reloaded


def test_a_check_answers_the_sides_as_a_reload_gives_them_also_past_the_breakpoint(
    cast: Cast,
) -> None:
    battle = start_battle(cast, one_phone=False)
    client = _phone(cast.alice)
    blues = _figures(battle, 1)

    first = client.post(_url(battle, "resolve"), _damage(battle, blues[0]), format="json")
    _as_reloaded(client, battle, first.json())
    second = client.post(_url(battle, "resolve"), _damage(battle, blues[1]), format="json")
    _as_reloaded(client, battle, second.json())

    assert first.status_code == second.status_code == 201
    # The second took Blue past its breakpoint within the action: the answer says so.
    assert [s["broke_at_seq"] for s in second.json()["sides"]] == [None, 2]
    assert [s["broken"] for s in second.json()["sides"]] == [False, True]


def test_a_void_answers_the_voided_event_and_the_sides_as_a_reload_gives_them(
    cast: Cast,
) -> None:
    battle = start_battle(cast, one_phone=False)
    client = _phone(cast.alice)
    for blue in _figures(battle, 1)[:2]:
        client.post(_url(battle, "resolve"), _damage(battle, blue), format="json")

    voided = client.post(_url(battle, "void"))

    assert voided.status_code == 200
    assert voided.json()["seq"] == 2 and voided.json()["voided"] is True
    _as_reloaded(client, battle, voided.json())
    assert [s["broke_at_seq"] for s in voided.json()["sides"]] == [None, None]


def test_a_start_and_a_draw_answer_as_a_reload_gives_them(cast: Cast) -> None:
    battle = start_battle(cast, one_phone=False)
    client = _phone(cast.alice)

    started = client.post(_url(battle, "activation"), {"method": "cards"}, format="json")
    _as_reloaded(client, battle, started.json())
    drawn = client.post(_url(battle, "draw"))
    _as_reloaded(client, battle, drawn.json())

    assert started.status_code == drawn.status_code == 201


def test_an_organiser_who_plays_no_side_still_acts_and_a_stranger_still_gets_404(
    cast: Cast,
) -> None:
    battle = start_battle(cast)
    body = _damage(battle, _figures(battle, 1)[0])

    assert _phone(cast.olivia).post(_url(battle, "resolve"), body, format="json").status_code == 201
    assert _phone(cast.dave).post(_url(battle, "resolve"), body, format="json").status_code == 403
    assert _phone(cast.eve).post(_url(battle, "resolve"), body, format="json").status_code == 404
    missing = f"/api/battles/{battle.pk + 1000}/resolve/"
    assert _phone(cast.alice).post(missing, body, format="json").status_code == 404
    assert battle.events.count() == 1


# Queries, counted as the test database sees them: the service's transaction is a savepoint
# inside the test's (SAVEPOINT and RELEASE, as BEGIN and COMMIT on a server), and a phone's
# token is one query.
#: Token, the player's battle, then the service: savepoint, the row locked, its sides (with
#: the log's top), its figures, the figures changed, the event, the chain's head, release.
API_RESOLVE_QUERIES = 10
#: As a check, with the page's idempotency key (it rides on the sides' read).
SERVICE_RESOLVE_QUERIES = 8
#: The latest standing event read, its flag written: two more than a check.
SERVICE_VOID_QUERIES = 10
#: No figures read or written; the last draw read (whose turn it is), the new state saved
#: with the chain's head.
SERVICE_DRAW_QUERIES = 7
SERVICE_ADJUST_QUERIES = 8


def test_a_phones_check_stays_within_its_query_budget(
    cast: Cast, django_assert_num_queries: Any
) -> None:
    battle = start_battle(cast, one_phone=False)
    client = _phone(cast.alice)
    client.post(_url(battle, "activation"), {"method": "cards"}, format="json")  # begun
    # A blow that changes both figures' state and crosses no breakpoint (that write is rare).
    body = _damage(battle, _figures(battle, 1)[0])

    with django_assert_num_queries(API_RESOLVE_QUERIES):
        answer = client.post(_url(battle, "resolve"), body, format="json")

    assert answer.status_code == 201


def _pages_actions(cast: Cast) -> tuple[Battle, dict[str, Callable[[str], BattleEvent]]]:
    """The table services as the pages call them: with the player and a key."""
    battle = start_battle(cast, one_phone=False)
    red, blue = _figures(battle, 0)[0], _figures(battle, 1)[0]
    services.battle_activation_start(battle=battle, method="cards", user=cast.alice)
    actions: dict[str, Callable[[str], BattleEvent]] = {
        "resolve": lambda key: services.battle_resolve(
            battle=battle,
            check="fire",
            actor=red,
            target=blue,
            params={"skill": 9},
            dice=[1, 6],
            user=cast.alice,
            key=key,
        ),
        "void": lambda key: services.battle_void_last(battle=battle, user=cast.alice, key=key),
        "draw": lambda key: services.battle_activation_draw(
            battle=battle, user=cast.olivia, key=key
        ),
        "adjust": lambda key: services.battle_adjust(
            battle=battle, figure=red, state_key="wounds", change="add", user=cast.alice, key=key
        ),
    }
    return battle, actions


@pytest.mark.parametrize(
    ("action", "queries"),
    [
        ("resolve", SERVICE_RESOLVE_QUERIES),
        ("void", SERVICE_VOID_QUERIES),
        ("draw", SERVICE_DRAW_QUERIES),
        ("adjust", SERVICE_ADJUST_QUERIES),
    ],
)
def test_each_pages_action_reads_the_battle_once(
    cast: Cast, django_assert_num_queries: Any, action: str, queries: int
) -> None:
    battle, actions = _pages_actions(cast)
    actions["resolve"]("warm")  # something to void, and the battle begun

    with django_assert_num_queries(queries):
        event = actions[action](f"{action}-1")

    assert event.battle_id == battle.pk


@pytest.mark.parametrize("action", ["resolve", "void", "draw", "adjust"])
def test_an_action_sent_again_with_its_key_is_applied_once(cast: Cast, action: str) -> None:
    battle, actions = _pages_actions(cast)
    actions["resolve"]("warm")
    first = actions[action]("tap-1")
    count = battle.events.count()

    again = actions[action]("tap-1")

    assert again.pk == first.pk and battle.events.count() == count
    battle.refresh_from_db()
    assert chain_breaks(list(battle.events.order_by("seq")), battle.log_head) == []


def _at_once(*phones: Callable[[], None]) -> list[BaseException]:
    """Run the phones in threads of their own, started together; return what they raised."""
    start = threading.Barrier(len(phones))
    problems: list[BaseException] = []

    def run(phone: Callable[[], None]) -> None:
        try:
            start.wait()
            phone()
        except BaseException as exc:  # reported in the test's own thread
            problems.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return problems


def _needs_row_locks() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs row locks across connections: run with DATABASE_URL=postgres://...")


@pytest.mark.django_db(transaction=True)
def test_one_action_tapped_on_two_phones_at_once_is_applied_once() -> None:
    """The second phone waits for the lock, then finds the first one's event by its key:
    the key is looked up after the lock is held, never on a snapshot from before it."""
    _needs_row_locks()
    cast = make_cast()
    battle = start_battle(cast, one_phone=False)
    red, blue = _figures(battle, 0)[0], _figures(battle, 1)[0]
    made: list[int] = []

    def tap(i: int) -> Callable[[], None]:
        def act() -> None:
            for n in range(6):
                event = services.battle_resolve(
                    battle=battle,
                    check="fire",
                    actor=red,
                    target=blue,
                    params={"skill": 9},
                    user=cast.alice,
                    key=f"tap-{n}",
                )
                made.append(event.pk)

        return act

    problems = _at_once(tap(0), tap(1))

    log = list(battle.events.order_by("seq"))
    assert problems == []
    assert [e.request_key for e in log] == [f"tap-{n}" for n in range(6)]
    assert sorted(made) == sorted(e.pk for e in log for _ in range(2))
    battle.refresh_from_db()
    assert chain_breaks(log, battle.log_head) == []


@pytest.mark.django_db(transaction=True)
def test_checks_adjustments_and_draws_at_once_keep_one_log_order() -> None:
    """Actions that read different parts of the battle (a draw reads no figure) still take
    consecutive numbers, each linked to the one before it."""
    _needs_row_locks()
    cast = make_cast()
    battle = start_battle(cast)  # one phone: either may draw, so no draw is refused
    red, blue = _figures(battle, 0)[0], _figures(battle, 1)[0]
    services.battle_activation_start(battle=battle, method="cards", user=cast.olivia)

    def checks() -> None:
        for _ in range(6):
            services.battle_resolve(
                battle=battle, check="fire", actor=red, target=blue, params={"skill": 9}
            )

    def adjustments() -> None:
        for n in range(6):
            services.battle_adjust(
                battle=battle, figure=blue, state_key="wounds", change=("add", "remove")[n % 2]
            )

    def draws() -> None:
        for _ in range(6):
            services.battle_activation_draw(battle=battle)

    problems = _at_once(checks, adjustments, draws)

    battle.refresh_from_db()
    log = list(battle.events.order_by("seq"))
    assert problems == []
    assert [e.seq for e in log] == list(range(1, 20))
    assert chain_breaks(log, battle.log_head) == []
