"""`/api/campaigns/{id}/ratings/`: the club rating of a campaign's players, best first.

Members (and organisers, the club's admins) read it; strangers get the 404 of any private
campaign data, anonymous requests 401/403. The rating is the club's Glicko-2 (ratings.services).
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from campaigns.models import display_name
from campaigns.selectors import campaigns_visible_to
from ratings.models import PlayerRating
from ratings.selectors import campaign_ratings


class RatingSerializer(serializers.ModelSerializer[PlayerRating]):
    player = serializers.SerializerMethodField(help_text="The player's name as the club shows it.")

    class Meta:
        model = PlayerRating
        fields = ["user", "player", "rating", "deviation", "volatility", "games", "updated_at"]
        read_only_fields = fields

    def get_player(self, row: PlayerRating) -> str:
        return str(display_name(row.user))


@extend_schema(tags=["ratings"], responses=RatingSerializer(many=True))
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def campaign_ratings_view(request: Request, campaign_pk: int) -> Response:
    """The club ratings of the campaign's players, best first (unrated players absent)."""
    campaign = get_object_or_404(campaigns_visible_to(request.user), pk=campaign_pk)
    rows = campaign_ratings(campaign)
    return Response(RatingSerializer(rows, many=True).data)
