"""A player's report of a league game: their result (through `pairing_report`) and the story
beside it (a link to the battle, a few lines), saved together or not at all."""

from __future__ import annotations

from django.db import transaction

from common.users import User
from league.models import Pairing, PairingReport
from league.services.results import Claim, pairing_report, side_of


@transaction.atomic
def pairing_report_file(
    *, pairing: Pairing, user: User, claim: Claim, link: str = "", text: str = ""
) -> Pairing:
    """Record the player's result and their note on it; sending it again just updates both."""
    pairing = pairing_report(pairing=pairing, user=user, claim=claim)
    side = side_of(pairing, user)
    report = PairingReport.objects.filter(pairing=pairing, side=str(side).upper()).first()
    report = report or PairingReport(pairing=pairing, side=str(side).upper())
    report.reporter, report.link, report.text = user, link.strip(), text.strip()
    report.full_clean(exclude=["pairing"])
    report.save()
    return pairing
