"""A player's own paragraph on a battle report, kept apart from the generated text."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class ReportParagraph(models.Model):
    """What one player of a battle wrote about it: shown beside the report, marked as theirs."""

    battle = models.ForeignKey(
        "battles.Battle", on_delete=models.CASCADE, related_name="report_paragraphs"
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="report_paragraphs"
    )
    text = models.TextField(max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            # One paragraph a player: writing again replaces it (a double submit changes nothing).
            models.UniqueConstraint(fields=["battle", "author"], name="report_paragraph_once"),
            models.CheckConstraint(condition=~Q(text=""), name="report_paragraph_has_text"),
        ]

    def __str__(self) -> str:
        return f"{self.author} on battle {self.battle_id}"
