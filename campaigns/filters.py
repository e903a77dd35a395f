"""Query filters for the campaign API (django-filter); related rows by id, no lookup query."""

from django_filters import rest_framework as filters

from campaigns.models import Campaign, Membership


class CampaignFilter(filters.FilterSet):
    club = filters.NumberFilter(label="Club id")

    class Meta:
        model = Campaign
        fields = ["club", "system", "status"]


class MembershipFilter(filters.FilterSet):
    campaign = filters.NumberFilter(label="Campaign id")
    user = filters.NumberFilter(label="User id")

    class Meta:
        model = Membership
        fields = ["campaign", "user", "role"]
