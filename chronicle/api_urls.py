"""This app's REST endpoints, included under /api/ by config/api_urls.py."""

from django.urls import path

from chronicle import api

urlpatterns = [
    path(
        "campaigns/<int:pk>/chronicle/",
        api.CampaignChronicleView.as_view(),
        name="api-campaign-chronicle",
    ),
    path("battles/<int:pk>/report/", api.BattleReportView.as_view(), name="api-battle-report"),
    path(
        "characters/<int:pk>/career/",
        api.CharacterCareerView.as_view(),
        name="api-character-career",
    ),
]
