"""The player's home page: their campaigns, their forces and the battles they are playing."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from pages.selectors import home_overview


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """List the campaigns the user belongs to, the forces they own, and battles under way."""
    return render(request, "pages/home.html", {"home": home_overview(request.user)})
