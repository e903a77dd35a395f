"""Query filters for the league API (django-filter); related rows by id, no lookup query."""

from decimal import Decimal

from django.db.models import Q, QuerySet
from django_filters import rest_framework as filters

from league.models import Pairing, Round


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

    def by_player(
        self, queryset: QuerySet[Pairing], name: str, value: Decimal
    ) -> QuerySet[Pairing]:
        return queryset.filter(Q(home_id=value) | Q(away_id=value))
