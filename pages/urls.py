"""Server-rendered pages for players (the REST API lives under /api/, see config/api_urls.py)."""

from django.urls import include, path

from pages import battles, campaigns, characters, forces
from pages.odds import odds_page
from pages.views import home

urlpatterns = [
    path("", home, name="home"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("odds/", odds_page, name="odds"),
    path("campaigns/<int:pk>/", campaigns.campaign_page, name="campaign-page"),
    path("forces/<int:pk>/", forces.force_page, name="force-page"),
    path("forces/<int:pk>/import/", forces.force_import, name="force-import"),
    path("characters/<int:pk>/", characters.character_page, name="character-page"),
    path("battles/new/", battles.battle_new, name="battle-new"),
    path("battles/<int:pk>/", battles.battle_page, name="battle-page"),
    path("battles/<int:pk>/form/", battles.battle_check_form, name="battle-form"),
    path("battles/<int:pk>/odds/", battles.battle_odds, name="battle-odds"),
    path("battles/<int:pk>/check/", battles.battle_check, name="battle-check"),
    path("battles/<int:pk>/void/", battles.battle_void, name="battle-void"),
    path("battles/<int:pk>/activation/", battles.battle_activation, name="battle-activation"),
    path("battles/<int:pk>/draw/", battles.battle_draw, name="battle-draw"),
    path("battles/<int:pk>/result/", battles.battle_result, name="battle-result"),
    path("battles/<int:pk>/finish/", battles.battle_end, name="battle-finish"),
    path("battles/<int:pk>/after/", battles.battle_after, name="battle-after"),
    path("battles/<int:pk>/after/progress/", battles.battle_progress, name="battle-progress"),
    path("battles/<int:pk>/delete/", battles.battle_remove, name="battle-delete"),
]
