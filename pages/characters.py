"""The character page: a career — stat line, equipment, wounds, service record, stats over time."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from pages.selectors import character_career
from rosters.selectors import characters_visible_to
from rules.system import get_system


@login_required
def character_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a character's career; the page prints cleanly as a record sheet."""
    characters = characters_visible_to(request.user).select_related("force__campaign", "unit")
    character = get_object_or_404(characters, pk=pk)
    career = character_career(character, get_system(character.force.system))
    return render(request, "pages/character.html", {"career": career, "character": character})
