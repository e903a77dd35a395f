"""Query filters for the roster API (django-filter).

Related rows are filtered by id with NumberFilter, not ModelChoiceFilter: an unknown id simply
matches nothing, and the filter costs no extra query to look the row up.
"""

from django_filters import rest_framework as filters

from rosters.models import Character, CharacterStatus, Force, ServiceRecordEntry, Unit


class ForceFilter(filters.FilterSet):
    campaign = filters.NumberFilter(label="Campaign id")
    owner = filters.NumberFilter(label="Owner's user id")

    class Meta:
        model = Force
        fields = ["campaign", "owner", "system"]


class UnitFilter(filters.FilterSet):
    force = filters.NumberFilter(label="Force id")

    class Meta:
        model = Unit
        fields = ["force"]


class CharacterFilter(filters.FilterSet):
    campaign = filters.NumberFilter(field_name="force__campaign", label="Campaign id")
    force = filters.NumberFilter(label="Force id")
    unit = filters.NumberFilter(label="Unit id")
    system = filters.CharFilter(field_name="force__system", label="Rule system key")
    status = filters.MultipleChoiceFilter(choices=CharacterStatus.choices)

    class Meta:
        model = Character
        fields = ["campaign", "force", "unit", "status", "system"]


class ServiceRecordFilter(filters.FilterSet):
    class Meta:
        model = ServiceRecordEntry
        fields = ["cause", "battle_id"]
