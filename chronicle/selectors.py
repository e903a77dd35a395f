"""Reads: who may read or write on which chronicle, and the players' paragraphs."""

from __future__ import annotations

from django.db.models import QuerySet

from battles.models import Battle
from chronicle.models import ReportParagraph
from common.users import Visitor


def is_player_of(battle: Battle, user: Visitor) -> bool:
    """Whether the user owns a force that fought in the battle."""
    if not getattr(user, "is_authenticated", False):
        return False
    return battle.sides.filter(force__owner_id=user.pk).exists()


def report_paragraphs(battle: Battle) -> QuerySet[ReportParagraph]:
    return battle.report_paragraphs.select_related("author").order_by("created_at", "pk")
