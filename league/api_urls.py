"""This app's REST endpoints, included under /api/ by config/api_urls.py: the campaigns (with
the league's actions), their rounds and pairings."""

from django.urls import re_path
from rest_framework.routers import SimpleRouter

from league.api import CampaignViewSet, PairingViewSet, RoundViewSet

router = SimpleRouter()
router.register("campaigns", CampaignViewSet, basename="campaign")
router.register("rounds", RoundViewSet, basename="round")
router.register("pairings", PairingViewSet, basename="pairing")
urlpatterns = [
    # /api/campaigns/{id}/standings.csv: the same table as ?format=csv, for a plain link.
    re_path(
        r"^campaigns/(?P<pk>[0-9]+)/standings\.(?P<format>csv)$",
        CampaignViewSet.as_view({"get": "standings"}, **CampaignViewSet.standings.kwargs),
        name="campaign-standings-csv",
    ),
    *router.urls,
]
