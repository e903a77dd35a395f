"""Campaign reports: the league table, the latest round and recent battle reports as one document.

The reads happen in `printing.selectors` and `campaigns.selectors`; this module only turns what
they return into the `report` template's context (plain strings and numbers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from battles.models import Battle
from league.models import Pairing, Round
from league.selectors import Standings

# A battle report lists at most this many kinds of check; the rest are summed in one line.
MAX_EVENT_LINES = 12


@dataclass(frozen=True)
class BattleReport:
    """One fought battle as the report prints it."""

    title: str
    when: str
    status: str
    sides: tuple[dict[str, object], ...]
    events: tuple[str, ...]
    checks: int
    outcomes: tuple[dict[str, str], ...]


def standings_rows(standings: Standings | None) -> list[dict[str, object]]:
    """Return the league table's rows with player names (empty when the league has none)."""
    if standings is None:
        return []
    names = standings.names
    return [
        {
            "rank": row.rank,
            "player": names.get(row.player, str(row.player)),
            "played": row.played,
            "won": row.won,
            "drawn": row.drawn,
            "lost": row.lost,
            "byes": row.byes,
            "vp_difference": row.vp_difference,
            "points": row.points,
        }
        for row in standings.rows
    ]


def _result(pairing: Pairing) -> str:
    if pairing.is_bye:
        return "bye"
    if not pairing.winner:
        return "disputed" if pairing.disputed else "not played yet"
    score = f"{pairing.home_vp}–{pairing.away_vp}"
    side = {"HOME": pairing.home, "AWAY": pairing.away}.get(pairing.winner)
    if side is None:
        return f"{score} (draw)"
    major = ", major victory" if pairing.major_victory else ""
    return f"{score} ({side.player_name}{major})"


def round_rows(pairings: Sequence[Pairing]) -> list[dict[str, str | int | None]]:
    """Return one row per pairing of the round: table, players, result, whether it counts."""
    return [
        {
            "table": p.table,
            "home": p.home.player_name,
            "away": p.away.player_name if p.away is not None else "—",
            "result": _result(p),
            "settled": "yes" if p.is_settled else "no",
            "battle": str(p.battle) if p.battle_id else "",
        }
        for p in pairings
    ]


def _event_lines(summary: Sequence[tuple[str, str, int]]) -> tuple[tuple[str, ...], int]:
    lines = [
        f"{check.replace('_', ' ')}: {outcome.replace('_', ' ') or '—'} ×{count}"
        for check, outcome, count in summary
    ]
    total = sum(count for _, _, count in summary)
    if len(lines) > MAX_EVENT_LINES:
        rest = sum(count for _, _, count in summary[MAX_EVENT_LINES:])
        lines = [*lines[:MAX_EVENT_LINES], f"… and {rest} more checks of other kinds"]
    return tuple(lines), total


def battle_report(
    battle: Battle,
    summary: Sequence[tuple[str, str, int]],
    outcomes: Sequence[tuple[str, str, str, str]],
) -> BattleReport:
    """Return one battle's report: sides and results, checks rolled, post-battle outcomes."""
    events, checks = _event_lines(summary)
    sides = tuple(
        {
            "force": side.force.name,
            "player": side.force.owner.get_username(),
            "result": side.get_result_display() if side.result else "—",
            "vp": side.victory_points,
        }
        for side in battle.sides.all()
    )
    when = (
        battle.campaign_date.isoformat()
        if battle.campaign_date
        else (f"{battle.finished_at:%Y-%m-%d}" if battle.finished_at else "")
    )
    return BattleReport(
        title=str(battle),
        when=when,
        status=battle.get_status_display(),
        sides=sides,
        events=events,
        checks=checks,
        outcomes=tuple(
            {
                "character": c,
                "procedure": p.replace("_", " "),
                "subject": s,
                "outcome": o.replace("_", " "),
            }
            for c, p, s, o in outcomes
        ),
    )


def report_context(
    *,
    campaign: str,
    system: str,
    standings: Standings | None,
    standings_note: str,
    rounds: Sequence[tuple[Round, Sequence[Pairing]]],
    battles: Sequence[Battle],
    summaries: Mapping[int, Sequence[tuple[str, str, int]]],
    outcomes: Mapping[int, Sequence[tuple[str, str, str, str]]],
    every_battle: bool,
) -> dict[str, object]:
    """Return the `report` template context."""
    return {
        "title": f"{campaign} — campaign report",
        "campaign": campaign,
        "system": system,
        "standings": standings_rows(standings),
        "standings_note": standings_note,
        # Every round, oldest first: with two rounds open at once, both are printed.
        "rounds": [
            {
                "number": round_.number,
                "status": round_.get_status_display(),
                "kind": round_.get_kind_display(),
                "pairings": round_rows(pairings),
            }
            for round_, pairings in rounds
        ],
        "every_battle": every_battle,
        "battles": [
            battle_report(b, summaries.get(b.pk, ()), outcomes.get(b.pk, ())) for b in battles
        ],
    }
