"""Results of league pairings: players report, organisers confirm, settle disputes and correct;
a battle that settles a pairing, and a no-show fought by simulation: `league.services.battles`.

Every write takes the pairing row with `select_for_update` and bumps its `version`; a caller who
says which version it saw (`expected_version`) gets `LeagueConflict` if someone got there first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.selectors import campaigns_managed_by
from common.users import User
from league.errors import LeagueConflict
from league.models import Pairing, ResultEntry, RoundStatus, Winner
from league.signals import result_written

HOME, AWAY = "home", "away"


@dataclass(frozen=True)
class Claim:
    """A result as someone states it; `winner` is "" only when neither player turned up."""

    winner: str
    home_vp: int = 0
    away_vp: int = 0
    home_figures_lost: int = 0
    away_figures_lost: int = 0
    major_victory: bool = False
    home_no_show: bool = False
    away_no_show: bool = False

    def as_json(self) -> dict[str, str | int | bool]:
        return asdict(self)


def claim_from(data: Mapping[str, Any]) -> Claim:
    """Validate a reported result; a single no-show makes the other player the winner."""
    known = set(Claim.__dataclass_fields__)
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValidationError({name: ["is not part of a result"] for name in unknown})
    values = {k: v for k, v in data.items() if v is not None}
    home_gone, away_gone = bool(values.get("home_no_show")), bool(values.get("away_no_show"))
    if home_gone != away_gone:
        values["winner"] = Winner.AWAY if home_gone else Winner.HOME
    claim = Claim(**{**values, "winner": str(values.get("winner", "")).upper()})
    _check_claim(claim)
    return claim


#: No game scores or loses more than this: a claim beyond it is a typo or a probe, and a
#: disputed claim (kept as JSON, beside the columns) must hold no more than they could.
MAX_CLAIM_COUNT = 10_000


def _check_claim(claim: Claim) -> None:
    both_gone = claim.home_no_show and claim.away_no_show
    if claim.winner not in (Winner.HOME, Winner.AWAY, Winner.DRAW) and not both_gone:
        raise ValidationError({"winner": ["say who won: HOME, AWAY or DRAW"]})
    if both_gone and claim.winner:
        raise ValidationError({"winner": ["nobody wins when neither player turned up"]})
    if claim.major_victory and (
        claim.winner == Winner.DRAW or claim.home_no_show or claim.away_no_show
    ):
        raise ValidationError({"major_victory": ["a major victory needs a game won on the table"]})
    counts = ("home_vp", "away_vp", "home_figures_lost", "away_figures_lost")
    bad = [
        n
        for n in counts
        if not isinstance(getattr(claim, n), int)
        or isinstance(getattr(claim, n), bool)
        or getattr(claim, n) < 0
    ]
    if bad:
        raise ValidationError({n: ["must be a whole number of at least 0"] for n in bad})
    too_many = [n for n in counts if getattr(claim, n) > MAX_CLAIM_COUNT]
    if too_many:
        raise ValidationError({n: [f"must be at most {MAX_CLAIM_COUNT:,}"] for n in too_many})


def claim_of(pairing: Pairing) -> Claim | None:
    """Return the result a pairing currently holds, or None if nothing was reported."""
    if not pairing.winner and not (pairing.home_no_show and pairing.away_no_show):
        return None
    return Claim(**{name: getattr(pairing, name) for name in Claim.__dataclass_fields__})


def _write(pairing: Pairing, claim: Claim) -> None:
    for name, value in claim.as_json().items():
        setattr(pairing, name, value)


def _locked(pairing: Pairing) -> Pairing:
    return (
        Pairing.objects.select_for_update(of=("self",))
        .select_related("round__campaign", "home__user", "away__user")
        .get(pk=pairing.pk)
    )


def _save(pairing: Pairing, user: User) -> Pairing:
    pairing.version += 1
    pairing.full_clean(exclude=["battle"])
    pairing.save()
    result_entry_record(pairing, user)
    return pairing


#: What a result entry keeps of the pairing: the claim and who stands behind it.
RESULT_FIELDS = (
    *Claim.__dataclass_fields__,
    "reported_by_home",
    "reported_by_away",
    "confirmed_by_organiser",
    "disputed",
)


def result_entry_of(pairing: Pairing, user: User | None) -> ResultEntry:
    """The entry (unsaved) for the result the pairing holds now, at its current version."""
    return ResultEntry(
        pairing=pairing,
        version=pairing.version,
        result={name: getattr(pairing, name) for name in RESULT_FIELDS},
        by=user if user is not None and user.is_authenticated else None,
    )


def result_entry_record(pairing: Pairing, user: User | None) -> ResultEntry:
    """Keep the result this write left (`pairing.version` already bumped): one entry a version,
    so the record shows every correction, and the pairing is history the database protects."""
    entry = result_entry_of(pairing, user)
    entry.save()
    return entry


def side_of(pairing: Pairing, user: User) -> str | None:
    """Return which side of the pairing the user plays ("home"/"away"), or None."""
    if pairing.home.user_id == user.pk:
        return HOME
    if pairing.away is not None and pairing.away.user_id == user.pk:
        return AWAY
    return None


def is_organiser_of(pairing: Pairing, user: User) -> bool:
    return campaigns_managed_by(user).filter(pk=pairing.round.campaign_id).exists()


# --- players report --------------------------------------------------------------------------


@transaction.atomic
def pairing_report(*, pairing: Pairing, user: User, claim: Claim) -> Pairing:
    """Record one player's report. Both reporting alike settles the game; differing reports
    mark it disputed (the first stands, the other is kept) until an organiser settles it.

    Each side's latest claim is remembered, so a player who comes round to the other's
    result settles the game whichever of the two changed their mind.
    """
    pairing = _locked(pairing)
    side = side_of(pairing, user)
    if side is None or pairing.is_bye:
        raise ValidationError({"pairing": ["only the two players of a game report its result"]})
    _require_reportable(pairing)
    before = _reported_state(pairing)
    other = AWAY if side == HOME else HOME
    theirs = claims_by_side(pairing)[other]
    if theirs is None or theirs == claim:
        _write(pairing, claim)
        setattr(pairing, f"reported_by_{side}", True)
        setattr(pairing, f"reported_by_{other}", theirs is not None)
        pairing.disputed, pairing.disputed_claim = False, {}
    else:
        _write(pairing, theirs)
        setattr(pairing, f"reported_by_{other}", True)
        setattr(pairing, f"reported_by_{side}", False)
        pairing.disputed, pairing.disputed_claim = True, {"side": side, **claim.as_json()}
    if _reported_state(pairing) == before:
        # The same report again changes nothing: no new version (an organiser holding the
        # page would get a false conflict) and no second announcement.
        return pairing
    return _announce(_save(pairing, user), confirmed=False, user=user)


def _reported_state(pairing: Pairing) -> tuple[object, ...]:
    """Everything a report can change on a pairing."""
    return (
        *(getattr(pairing, name) for name in Claim.__dataclass_fields__),
        pairing.reported_by_home,
        pairing.reported_by_away,
        pairing.disputed,
        sorted((pairing.disputed_claim or {}).items()),
    )


def claims_by_side(pairing: Pairing) -> dict[str, Claim | None]:
    """Return what each player currently says the result is ("home"/"away"; None: nothing).

    The pairing's result fields hold a reporter's claim; in a dispute the other player's
    differing claim is kept in `disputed_claim`.
    """
    claims: dict[str, Claim | None] = {HOME: None, AWAY: None}
    for side in (HOME, AWAY):
        if getattr(pairing, f"reported_by_{side}"):
            claims[side] = claim_of(pairing)
    kept = dict(pairing.disputed_claim or {})
    if pairing.disputed and kept.get("side") in claims:
        side = kept.pop("side")
        known = {k: v for k, v in kept.items() if k in Claim.__dataclass_fields__}
        claims[side] = Claim(**known)
    return claims


def _require_reportable(pairing: Pairing) -> None:
    if pairing.round.status == RoundStatus.LOCKED:
        raise LeagueConflict(f"round {pairing.round.number} is locked; ask an organiser")
    if pairing.confirmed_by_organiser:
        raise LeagueConflict("an organiser already confirmed this result; ask them to correct it")


# --- organisers confirm, settle and correct -----------------------------------------------------


@transaction.atomic
def pairing_confirm(
    *,
    pairing: Pairing,
    user: User,
    claim: Claim | None = None,
    expected_version: int | None = None,
) -> Pairing:
    """Confirm the reported result, or record `claim` (settling a dispute or correcting).

    Confirming without a claim needs a report to confirm and refuses a second confirmation:
    of two organisers confirming at once, one wins and the other gets `LeagueConflict`.
    """
    pairing = _locked(pairing)
    if not is_organiser_of(pairing, user):
        raise ValidationError({"pairing": ["only the campaign's organisers confirm results"]})
    if pairing.is_bye:
        raise ValidationError({"pairing": ["a bye has no result to confirm"]})
    _check_version(pairing, expected_version)
    if claim is None:
        claim = _claim_to_confirm(pairing)
    _write(pairing, claim)
    pairing.confirmed_by_organiser, pairing.confirmed_by = True, user
    pairing.disputed, pairing.disputed_claim = False, {}
    return _announce(_save(pairing, user), confirmed=True, user=user)


def _announce(pairing: Pairing, *, confirmed: bool, user: User) -> Pairing:
    """Say a result was written: the club rating rates the game, the notices tell the club and
    the players (league.signals; both listen from above)."""
    result_written.send(sender=Pairing, pairing=pairing, confirmed=confirmed, by=user)
    return pairing


def _check_version(pairing: Pairing, expected: int | None) -> None:
    if expected is not None and pairing.version != expected:
        raise LeagueConflict(
            f"the result changed since you loaded it (version {expected}, now "
            f"{pairing.version}); reload and check before confirming"
        )


def _claim_to_confirm(pairing: Pairing) -> Claim:
    if pairing.confirmed_by_organiser:
        raise LeagueConflict(f"already confirmed by {pairing.confirmed_by or 'an organiser'}")
    if pairing.disputed:
        raise ValidationError({"winner": ["the players disagree: enter the result to settle it"]})
    claim = claim_of(pairing)
    if claim is None:
        raise ValidationError({"winner": ["nothing reported yet: enter the result"]})
    return claim
