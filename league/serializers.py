"""League API serializers: the standings, rounds and pairings, and the small inputs."""

from __future__ import annotations

from functools import cache

from rest_framework import serializers

from campaigns.models import Membership
from common.serializers import Serializer
from league.core import PlayerId, StandingRow
from league.forms import PLACE_FIELDS, RESULT_FIELDS
from league.models import Pairing, Round, RoundKind


class StandingRowSerializer(Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField(help_text="Membership id.")
    name = serializers.CharField()
    played = serializers.IntegerField()
    won = serializers.IntegerField()
    drawn = serializers.IntegerField()
    lost = serializers.IntegerField()
    byes = serializers.IntegerField()
    result_points = serializers.IntegerField()
    bonus_points = serializers.IntegerField()
    adjustment_points = serializers.IntegerField()
    points = serializers.IntegerField()
    vp_for = serializers.IntegerField()
    vp_against = serializers.IntegerField()
    vp_difference = serializers.IntegerField()
    figures_lost = serializers.IntegerField()
    strength_of_schedule = serializers.IntegerField()
    separated_by = serializers.CharField(allow_null=True)
    adjustments = serializers.ListField(child=serializers.DictField())


@cache
def _row_fields() -> tuple[str, ...]:
    """The fields a row copies as they are, from the serializer that documents them. Built
    once: a serializer's fields are deep copies, and building them for every row cost a
    fifth of the standings API's CPU (bench/club_night.py --costs)."""
    names = list(StandingRowSerializer().fields)
    return tuple(name for name in names if name not in ("name", "adjustments"))


def standing_row(row: StandingRow, names: dict[PlayerId, str]) -> dict[str, object]:
    """Return one table row as the API shows it (names and adjustment reasons included)."""
    data: dict[str, object] = {name: getattr(row, name) for name in _row_fields()}
    data["name"] = names[row.player]
    data["adjustments"] = [{"points": a.points, "reason": a.reason} for a in row.adjustments]
    return data


class PlayerBriefSerializer(serializers.ModelSerializer[Membership]):
    name = serializers.CharField(source="player_name", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "name"]


class PairingSerializer(serializers.ModelSerializer[Pairing]):
    home = PlayerBriefSerializer(read_only=True)
    away = PlayerBriefSerializer(read_only=True, allow_null=True)
    round = serializers.IntegerField(source="round.number", read_only=True)
    campaign = serializers.IntegerField(source="round.campaign_id", read_only=True)
    settled = serializers.BooleanField(source="is_settled", read_only=True)

    class Meta:
        model = Pairing
        fields = [
            "id",
            "campaign",
            "round",
            *PLACE_FIELDS,
            "battle",
            *RESULT_FIELDS,
            "reported_by_home",
            "reported_by_away",
            "confirmed_by_organiser",
            "disputed",
            "disputed_claim",
            "settled",
            "version",
        ]
        read_only_fields = fields


class RoundSerializer(serializers.ModelSerializer[Round]):
    pairings = PairingSerializer(many=True, read_only=True)

    class Meta:
        model = Round
        fields = ["id", "campaign", "number", "kind", "status", "locked_at", "pairings"]
        read_only_fields = fields


class RoundInputSerializer(Serializer):
    kind = serializers.ChoiceField(choices=[RoundKind.ROUND_ROBIN, RoundKind.SWISS])
    legs = serializers.IntegerField(min_value=1, max_value=4, default=1)


class PairingResultInputSerializer(Serializer):
    winner = serializers.ChoiceField(choices=["HOME", "AWAY", "DRAW", ""], required=False)
    home_vp = serializers.IntegerField(min_value=0, default=0)
    away_vp = serializers.IntegerField(min_value=0, default=0)
    home_figures_lost = serializers.IntegerField(min_value=0, default=0)
    away_figures_lost = serializers.IntegerField(min_value=0, default=0)
    major_victory = serializers.BooleanField(default=False)
    home_no_show = serializers.BooleanField(default=False)
    away_no_show = serializers.BooleanField(default=False)


class ConfirmInputSerializer(Serializer):
    version = serializers.IntegerField(
        min_value=0, help_text="The pairing's version you looked at (a newer one is a 409)."
    )
    result = PairingResultInputSerializer(
        required=False, help_text="Give it to settle a dispute or correct; omit to confirm."
    )


class SwapInputSerializer(Serializer):
    first = serializers.IntegerField(help_text="Membership id.")
    second = serializers.IntegerField(help_text="Membership id.")


class LinkBattleInputSerializer(Serializer):
    battle = serializers.IntegerField()
    version = serializers.IntegerField(min_value=0, required=False)
