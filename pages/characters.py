"""The character page: a career — stat line, equipment, wounds, service record, stats over time."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from pages.roster_access import may_edit
from pages.selectors import character_career
from rosters.house_rules import rules_for_force
from rosters.selectors import characters_visible_to


@login_required
def character_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a character's career; the page prints cleanly as a record sheet."""
    characters = characters_visible_to(request.user).select_related("force__campaign", "unit")
    character = get_object_or_404(characters, pk=pk)
    career = character_career(character, rules_for_force(character.force))
    context = {
        "career": career,
        "character": character,
        "can_edit": may_edit(character.force, request.user),
    }
    return render(request, "pages/character.html", context)
