"""A campaign's chronicle: each league round (results, how the table moved) and each month of
battles (who beat whom, the deadliest figure, the fallen), every sentence citing its rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime

from battles.models import Battle, BattleFigure, BattleSide, BattleStatus
from campaigns.models import Campaign
from chronicle.text import Section, Sentence, Story, listed, ordinal, plural
from league.core import LeagueError, PlayerId, StandingRow, compute_standings
from league.models import Pairing, Winner
from league.selectors import (
    core_result,
    counted,
    league_adjustments,
    league_of,
    league_pairings,
    league_players,
    league_settings,
)
from rosters.models import Character, CharacterStatus, ServiceRecordEntry
from rules.system import get_system

#: Battles whose result stands (the post-battle rolls may still be running).
FOUGHT = (BattleStatus.FINISHED, BattleStatus.PROCESSING, BattleStatus.PROCESSED)


def campaign_chronicle(campaign: Campaign) -> Story:
    """Return the campaign's chronicle: a section per league round, then per month of battles."""
    system = get_system(campaign.system).name
    return Story(
        campaign.name,
        f"{system} · {campaign.club.name}",
        (*_rounds(campaign), *_months(campaign)),
    )


# --- league rounds ------------------------------------------------------------------------------


def _rounds(campaign: Campaign) -> list[Section]:
    pairings = list(league_pairings(campaign).select_related("home__user", "away__user"))
    if not pairings:
        return []
    settled = counted(pairings)
    players = list(league_players(campaign))
    names: dict[PlayerId, str] = {p.pk: p.player_name for p in players}
    try:
        settings = league_settings(league_of(campaign))
    except LeagueError:
        settings = None  # bad settings: the results are still told, the table is not
    numbers = sorted({p.round.number for p in pairings})
    before: dict[PlayerId, int] = {}
    out = []
    for number in numbers:
        results = [_result(p, names) for p in settled if p.round.number == number]
        table: list[Sentence] = []
        if settings is not None and results:
            upto = [p for p in settled if p.round.number <= number]
            rows = compute_standings(
                [p.pk for p in players],
                [core_result(p) for p in upto],
                settings,
                league_adjustments(campaign),
            )
            table, before = (
                _movement(rows, before, upto, names, number),
                {r.player: i + 1 for i, r in enumerate(rows)},
            )
        said = [r for r in results if r is not None] + table
        if said:
            out.append(Section(f"Round {number}", tuple(said)))
    return out


def _result(pairing: Pairing, names: Mapping[PlayerId, str]) -> Sentence | None:
    home = names.get(pairing.home_id, "")
    cite = (("pairing", pairing.pk),)
    if pairing.is_bye:
        return Sentence(f"{home} had the bye.", cite)
    away = names.get(pairing.away_id, "") if pairing.away_id is not None else ""
    score = f" ({pairing.home_vp}–{pairing.away_vp} in victory points)"
    if pairing.winner == Winner.DRAW:
        text = f"{home} and {away} fought to a draw{score}"
    elif pairing.winner == Winner.HOME:
        text = f"{home} beat {away}{score}"
    elif pairing.winner == Winner.AWAY:
        text = f"{away} beat {home} ({pairing.away_vp}–{pairing.home_vp} in victory points)"
    else:
        return None
    if pairing.major_victory:
        text += ", a major victory"
    return Sentence(f"{text}.", cite, battle=pairing.battle_id)


def _movement(
    rows: Sequence[StandingRow],
    before: Mapping[PlayerId, int],
    upto: Sequence[Pairing],
    names: Mapping[PlayerId, str],
    number: int,
) -> list[Sentence]:
    """The leader after the round, and every player who rose or fell two places or more."""

    def games(player: PlayerId) -> tuple[tuple[str, int], ...]:
        return tuple(("pairing", p.pk) for p in upto if player in (p.home_id, p.away_id))

    said = []
    leader = rows[0] if rows else None
    if leader is not None and games(leader.player):
        points = plural(leader.points, "point")
        text = f"After round {number}, {names[leader.player]} leads with {points}."
        said.append(Sentence(text, games(leader.player)))
    for place, row in enumerate(rows, start=1):
        was = before.get(row.player)
        if was is None or abs(was - place) < 2 or not games(row.player):
            continue
        verb = "climbs" if place < was else "drops"
        text = f"{names[row.player]} {verb} from {ordinal(was)} to {ordinal(place)}."
        said.append(Sentence(text, games(row.player)))
    return said


# --- months of battles ------------------------------------------------------------------------


def campaign_battles(campaign: Campaign) -> list[Battle]:
    """The campaign's fought battles in the order they were fought."""
    battles = Battle.objects.filter(campaign_id=campaign.pk, status__in=FOUGHT)
    return sorted(battles, key=lambda b: (b.campaign_date is None, _day(b), b.pk))


def _day(battle: Battle) -> date:
    """The day a battle was fought: its campaign date, else the day it was finished (entered)."""
    if battle.campaign_date is not None:
        return battle.campaign_date
    when: datetime = battle.finished_at or battle.created_at
    return when.date()


def _month(battle: Battle) -> str:
    return f"{_day(battle):%B %Y}"


def _months(campaign: Campaign) -> list[Section]:
    battles = campaign_battles(campaign)
    ids = [b.pk for b in battles]
    sides = list(
        BattleSide.objects.filter(battle_id__in=ids)
        .select_related("force")
        .order_by("battle_id", "index")
    )
    figures = list(BattleFigure.objects.filter(battle_id__in=ids, kills__gt=0).order_by("pk"))
    dead = list(
        ServiceRecordEntry.objects.filter(battle_id__in=ids, after__status=CharacterStatus.DEAD)
        .select_related("character__force")
        .order_by("pk")
    )
    out = []
    for month in dict.fromkeys(_month(b) for b in battles):
        here = [b for b in battles if _month(b) == month]
        said = [_battle(b, [s for s in sides if s.battle_id == b.pk]) for b in here]
        said += _notables([f for f in figures if any(f.battle_id == b.pk for b in here)])
        said += [_fell(e) for e in dead if any(e.battle_id == b.pk for b in here)]
        out.append(Section(month, tuple(said)))
    return out


def _battle(battle: Battle, sides: Sequence[BattleSide]) -> Sentence:
    won = [s.force.name for s in sides if s.result == "WIN"]
    lost = [s.force.name for s in sides if s.result == "LOSS"]
    drew = [s.force.name for s in sides if s.result == "DRAW"]
    if won and lost:
        text = f"{battle}: {listed(won)} beat {listed(lost)}."
    elif drew:
        text = f"{battle}: {listed(drew)} fought to a draw."
    else:
        text = f"{battle}: {listed(s.force.name for s in sides)} met."
    cites = (("battle", battle.pk), *(("battle_side", s.pk) for s in sides))
    return Sentence(text, cites, battle=battle.pk)


def _notables(figures: Sequence[BattleFigure]) -> list[Sentence]:
    """The month's deadliest figure (a tie names them all)."""
    if not figures:
        return []
    totals: dict[str, list[BattleFigure]] = {}
    for figure in figures:
        totals.setdefault(figure.name, []).append(figure)
    best = max(sum(f.kills for f in rows) for rows in totals.values())
    top = [name for name, rows in totals.items() if sum(f.kills for f in rows) == best]
    cites = tuple(("battle_figure", f.pk) for name in top for f in totals[name])
    verb = "was" if len(top) == 1 else "were"
    each = " each" if len(top) > 1 else ""
    text = f"{listed(top)} {verb} the deadliest, with {plural(best, 'kill')}{each}."
    return [Sentence(text, cites)]


def _fell(entry: ServiceRecordEntry) -> Sentence:
    return Sentence(
        f"{entry.character.name} of {entry.character.force.name} is dead.",
        (("service_entry", entry.pk),),
        battle=entry.battle_id,
    )


def fallen(campaign: Campaign) -> list[Character]:
    """The campaign's dead figures, for the roll of honour."""
    return list(
        Character.objects.filter(force__campaign_id=campaign.pk, status=CharacterStatus.DEAD)
        .select_related("force")
        .order_by("force_id", "name")
    )
