"""The player's home page: their campaigns and forces (a later issue builds the full site)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from campaigns.selectors import campaigns_visible_to
from rosters.models import Force


@login_required
def home(request: HttpRequest) -> HttpResponse:
    """List the campaigns the user belongs to and the forces they own."""
    campaigns = campaigns_visible_to(request.user).select_related("club").order_by("name", "pk")
    forces = (
        Force.objects.filter(owner=request.user)
        .select_related("campaign")
        .annotate(character_count=Count("characters"))
        .order_by("name", "pk")
    )
    return render(request, "pages/home.html", {"campaigns": campaigns, "forces": forces})
