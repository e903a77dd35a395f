"""Campaign writes (`<entity>_<action>`, keyword-only, atomic), one module per concern:
clubs, campaigns and memberships; joining by invitation; a player's profile; house rules."""

from campaigns.services.clubs import (
    ORGANISERS_GROUP,
    campaign_create,
    campaign_update,
    club_create,
    membership_create,
    membership_delete,
    membership_update,
    organiser_access_sync,
    organisers_group,
)
from campaigns.services.invitations import (
    Joined,
    invitation_accept,
    invitation_create,
    invitation_is_open,
    invitation_revoke,
    invitation_standing,
    join_request_approve,
    join_request_decline,
    membership_remove,
)
from campaigns.services.players import player_profile_update

__all__ = [
    "ORGANISERS_GROUP",
    "Joined",
    "campaign_create",
    "campaign_update",
    "club_create",
    "invitation_accept",
    "invitation_create",
    "invitation_is_open",
    "invitation_revoke",
    "invitation_standing",
    "join_request_approve",
    "join_request_decline",
    "membership_create",
    "membership_delete",
    "membership_remove",
    "membership_update",
    "organiser_access_sync",
    "organisers_group",
    "player_profile_update",
]
