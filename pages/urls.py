"""Server-rendered pages for players (the REST API lives under /api/, see config/api_urls.py)."""

from django.urls import include, path

from pages import (
    accounts,
    battles,
    campaigns,
    character_edit,
    characters,
    force_edit,
    forces,
    invitations,
    league,
    units,
)
from pages.odds import odds_page
from pages.views import home

urlpatterns = [
    path("", home, name="home"),
    # Accounts are django-allauth's (sign up, sign in, sign out, password reset and change,
    # e-mail addresses); the profile page is ours.
    path("accounts/profile/", accounts.profile, name="profile"),
    path("accounts/", include("allauth.urls")),
    path("odds/", odds_page, name="odds"),
    path("campaigns/<int:pk>/", campaigns.campaign_page, name="campaign-page"),
    path("campaigns/<int:pk>/join/<str:code>/", invitations.campaign_join, name="campaign-join"),
    path(
        "campaigns/<int:pk>/invitations/",
        invitations.campaign_invitations,
        name="campaign-invitations",
    ),
    path(
        "campaigns/<int:pk>/invitations/<int:invitation_pk>/revoke/",
        invitations.invitation_revoke_page,
        name="invitation-revoke",
    ),
    path("campaigns/<int:pk>/joining/", invitations.campaign_joining, name="campaign-joining"),
    path(
        "campaigns/<int:pk>/waiting/<int:request_pk>/",
        invitations.join_request_decide,
        name="join-request-decide",
    ),
    path(
        "campaigns/<int:pk>/members/<int:member_pk>/remove/",
        invitations.member_remove,
        name="member-remove",
    ),
    path("campaigns/<int:pk>/disputes/", league.campaign_disputes, name="campaign-disputes"),
    path("pairings/<int:pk>/report/", league.pairing_report_page, name="pairing-report"),
    path("pairings/<int:pk>/settle/", league.pairing_settle, name="pairing-settle"),
    path("forces/new/", force_edit.force_new, name="force-new"),
    path("forces/<int:pk>/", forces.force_page, name="force-page"),
    path("forces/<int:pk>/edit/", force_edit.force_edit, name="force-edit"),
    path("forces/<int:pk>/archive/", force_edit.force_archive, name="force-archive"),
    path("forces/<int:pk>/delete/", force_edit.force_delete, name="force-delete"),
    path("forces/<int:pk>/units/new/", units.unit_add, name="unit-add"),
    path("forces/<int:pk>/units/squad/", units.squad_roll, name="squad-roll"),
    path("forces/<int:pk>/characters/new/", character_edit.character_new, name="character-new"),
    path("forces/<int:pk>/characters/many/", character_edit.character_many, name="character-many"),
    path("units/<int:pk>/edit/", units.unit_edit, name="unit-edit"),
    path("units/<int:pk>/shift/", units.unit_shift, name="unit-shift"),
    path("units/<int:pk>/delete/", units.unit_delete, name="unit-delete"),
    path("forces/<int:pk>/import/", forces.force_import, name="force-import"),
    path("characters/<int:pk>/", characters.character_page, name="character-page"),
    path("characters/<int:pk>/edit/", character_edit.character_edit, name="character-edit"),
    path("characters/<int:pk>/move/", character_edit.character_move, name="character-move"),
    path("characters/<int:pk>/status/", character_edit.character_status, name="character-status"),
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
