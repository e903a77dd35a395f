"""Read endpoints: a campaign's chronicle, a battle's report, a character's career.

Every sentence comes with its citations (`kind`, `id`): battle, battle_side, battle_figure,
battle_event, post_battle_roll, service_entry or pairing.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from battles.selectors import battles_visible_to
from campaigns.models import display_name
from campaigns.selectors import campaigns_visible_to
from chronicle.campaigns import campaign_battles, campaign_chronicle, fallen
from chronicle.careers import character_story
from chronicle.reports import battle_report
from chronicle.selectors import report_paragraphs
from common.serializers import Serializer
from rosters.selectors import characters_visible_to


class CiteSerializer(Serializer):
    kind = serializers.CharField(help_text="The table the row is in, e.g. battle_event.")
    id = serializers.IntegerField()


class SentenceSerializer(Serializer):
    text = serializers.CharField()
    cites = CiteSerializer(many=True)
    battle = serializers.IntegerField(required=False, help_text="The battle it tells of.")


class SectionSerializer(Serializer):
    title = serializers.CharField()
    sentences = SentenceSerializer(many=True)


class StorySerializer(Serializer):
    title = serializers.CharField()
    subtitle = serializers.CharField()
    sections = SectionSerializer(many=True)


class ParagraphSerializer(Serializer):
    author = serializers.CharField(help_text="The player who wrote it (not generated).")
    text = serializers.CharField()
    updated_at = serializers.DateTimeField()


class BattleReportSerializer(StorySerializer):
    paragraphs = ParagraphSerializer(many=True)


class NamedSerializer(Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class CampaignChronicleSerializer(StorySerializer):
    battles = NamedSerializer(many=True, help_text="Fought battles: each has a report.")
    fallen = NamedSerializer(many=True, help_text="Dead figures: each has an obituary.")


@extend_schema(responses=CampaignChronicleSerializer, tags=["chronicle"])
class CampaignChronicleView(APIView):
    """GET /api/campaigns/{id}/chronicle/: the campaign's story by round and month."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, pk: int) -> Response:
        campaign = get_object_or_404(
            campaigns_visible_to(request.user).select_related("club"), pk=pk
        )
        data = campaign_chronicle(campaign).as_json()
        data["battles"] = [{"id": b.pk, "name": str(b)} for b in campaign_battles(campaign)]
        data["fallen"] = [{"id": c.pk, "name": c.name} for c in fallen(campaign)]
        return Response(data)


@extend_schema(responses=BattleReportSerializer, tags=["chronicle"])
class BattleReportView(APIView):
    """GET /api/battles/{id}/report/: the report and the players' own paragraphs beside it."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, pk: int) -> Response:
        battle = get_object_or_404(battles_visible_to(request.user), pk=pk)
        # The serializer's input, not JSON yet: it writes `updated_at` as an ISO date.
        data: dict[str, object] = {
            **battle_report(battle).as_json(),
            "paragraphs": [
                {"author": display_name(p.author), "text": p.text, "updated_at": p.updated_at}
                for p in report_paragraphs(battle)
            ],
        }
        return Response(BattleReportSerializer(data).data)


@extend_schema(responses=StorySerializer, tags=["chronicle"])
class CharacterCareerView(APIView):
    """GET /api/characters/{id}/career/: the career, and for the dead an obituary first."""

    permission_classes = [IsAuthenticated]

    def get(self, request: Request, pk: int) -> Response:
        character = get_object_or_404(
            characters_visible_to(request.user).select_related("force"), pk=pk
        )
        return Response(character_story(character).as_json())
