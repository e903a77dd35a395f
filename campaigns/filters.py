"""Query filters for the campaign API (django-filter); related rows by id, no lookup query."""

from django.db.models import Q
from django_filters import rest_framework as filters

from campaigns.models import Campaign, Membership, Pairing, Round


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


class RoundFilter(filters.FilterSet):
    campaign = filters.NumberFilter(label="Campaign id")

    class Meta:
        model = Round
        fields = ["campaign", "status", "kind"]


class PairingFilter(filters.FilterSet):
    campaign = filters.NumberFilter(field_name="round__campaign_id", label="Campaign id")
    round = filters.NumberFilter(field_name="round__number", label="Round number")
    player = filters.NumberFilter(method="by_player", label="Membership id (home or away)")

    class Meta:
        model = Pairing
        fields = ["campaign", "round", "disputed", "confirmed_by_organiser"]

    def by_player(self, queryset, name, value):  # type: ignore[no-untyped-def]
        return queryset.filter(Q(home_id=value) | Q(away_id=value))
