"""Who may change a campaign or its memberships: its organisers and the club's admins."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from campaigns.models import Campaign, Membership
from campaigns.selectors import campaigns_managed_by


def campaign_of(obj: Campaign | Membership) -> Campaign:
    return obj if isinstance(obj, Campaign) else obj.campaign


class CanManageCampaign(BasePermission):
    message = "Only the campaign's organisers or its club's admins may change it."

    def has_object_permission(
        self, request: Request, view: APIView, obj: Campaign | Membership
    ) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if (
            isinstance(obj, Membership)
            and request.method == "DELETE"
            and (obj.user_id == request.user.pk)
        ):
            return True  # anyone may leave a campaign
        return campaigns_managed_by(request.user).filter(pk=campaign_of(obj).pk).exists()
