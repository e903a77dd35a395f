"""Writes: a player's own paragraph on a battle report."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction

from battles.models import Battle
from chronicle.models import ReportParagraph
from chronicle.selectors import is_player_of
from common.users import User

MAX_PARAGRAPH = 2000


@transaction.atomic
def report_paragraph_write(*, battle: Battle, user: User, text: str) -> ReportParagraph | None:
    """Save the player's paragraph on the battle (replacing theirs); empty text removes it."""
    if not is_player_of(battle, user):
        raise PermissionDenied("only the players of this battle may write on its report")
    text = (text or "").strip()
    if len(text) > MAX_PARAGRAPH:
        raise ValidationError(
            {"text": [f"Keep it to {MAX_PARAGRAPH} characters (this is {len(text)})."]}
        )
    if not text:
        ReportParagraph.objects.filter(battle=battle, author_id=user.pk).delete()
        return None
    paragraph, _ = ReportParagraph.objects.update_or_create(
        battle=battle, author_id=user.pk, defaults={"text": text}
    )
    return paragraph
