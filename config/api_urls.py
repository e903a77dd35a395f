"""Everything under /api/: each app contributes its own routes."""

from django.urls import include, path

urlpatterns = [
    path("", include("rosters.api_urls")),
    path("", include("league.api_urls")),
    path("", include("campaigns.api_urls")),
    path("", include("battles.api_urls")),
    path("", include("chronicle.api_urls")),
    path("", include("ratings.api_urls")),
    path("", include("notices.api_urls")),
    path("", include("printing.api_urls")),
]
