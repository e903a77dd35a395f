"""Benchmark: Swiss pairing and standings at 16, 64, 256 and 1,024 players (pure Python).

Plays a seeded season per size: round 1 from a level table, then results for every game
(seeded dice), standings, and the next round, up to round 5. Prints JSON: per size the time
of round 1's pairing, the slowest later pairing, and standings after four rounds (the best of
three runs each, in milliseconds). Budget (issue 16): pairing <= 100 ms at 256 players and
<= 1 s at 1,024; standings <= 20 ms at 256 and <= 200 ms at 1,024.

No database: `league.core` is the pure league core. `python bench/league.py [sizes...]`.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from league.core.records import Round
    from rules.dice import Dice

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from league.core import Entrant, LeagueSettings, Result, compute_standings, next_swiss_round  # noqa: E402
from rules.dice import D12, SeededDice  # noqa: E402

SIZES = (16, 64, 256, 1024)
ROUNDS = 5
LEAGUE = LeagueSettings()

T = TypeVar("T")


def _best_of(runs: int, work: Callable[[], T]) -> tuple[float, T]:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        value = work()
        best = min(best, time.perf_counter() - started)
    return best * 1000, value


def _results(round_: Round, dice: Dice) -> list[Result]:
    results = [Result(round_.number, bye, None) for bye in round_.byes]
    for game in round_.games:
        roll = dice.roll(D12, f"{round_.number}:{game.home}:{game.away}")
        winner = game.home if roll <= 5 else game.away if roll <= 10 else None
        results.append(
            Result(round_.number, game.home, game.away, winner, home_vp=roll, away_vp=13 - roll)
        )
    return results


def season(players: int) -> dict[str, float]:
    entrants = list(range(1, players + 1))
    dice = SeededDice(f"bench league {players}", "results")
    first_ms, round_ = _best_of(
        3, lambda: next_swiss_round([Entrant(p, 0) for p in entrants], [], LEAGUE, number=1)
    )
    played, results, later_ms, standings_ms = [round_], _results(round_, dice), 0.0, 0.0
    for number in range(2, ROUNDS + 1):
        standings_ms, table = _best_of(3, partial(compute_standings, entrants, results, LEAGUE))
        ms, round_ = _best_of(3, partial(next_swiss_round, table, played, LEAGUE, number=number))
        later_ms = max(later_ms, ms)
        played.append(round_)
        results += _results(round_, dice)
    return {
        "players": players,
        "round_1_pairing_ms": round(first_ms, 2),
        "slowest_pairing_rounds_2_to_5_ms": round(later_ms, 2),
        "standings_after_4_rounds_ms": round(standings_ms, 2),
    }


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or SIZES
    print(json.dumps({"bench": "league", "sizes": [season(n) for n in sizes]}, indent=2))


if __name__ == "__main__":
    main()
