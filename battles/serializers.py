"""Battle API serializers: small inputs validated here and by the rules engine, outputs that
read rows the view fetched in bulk. The seed is shown only once the battle is PROCESSED."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from battles.models import (
    Battle,
    BattleEvent,
    BattleFigure,
    BattleSide,
    BattleStatus,
    PostBattleRoll,
)
from battles.services.consent import battle_answer_by
from battles.words import event_dice_text, event_sentence
from common.serializers import Serializer
from rosters.models import Character, Force
from rosters.selectors import characters_visible_to, forces_visible_to

# --- output -------------------------------------------------------------------------------


class FigureSerializer(serializers.ModelSerializer[BattleFigure]):
    class Meta:
        model = BattleFigure
        fields = [
            "id",
            "side",
            "character",
            "name",
            "unit_name",
            "stats",
            "state",
            "skills_used",
            "kills",
            "final_status",
            "extra",
        ]


class SideSerializer(serializers.ModelSerializer[BattleSide]):
    force_name = serializers.CharField(source="force.name", read_only=True)
    broken = serializers.SerializerMethodField()

    class Meta:
        model = BattleSide
        fields = [
            "id",
            "index",
            "force",
            "force_name",
            "result",
            "victory_points",
            "broke_at_seq",
            "broken",
            "agreed_at",
            "agreed_by",
        ]

    def get_broken(self, side: BattleSide) -> bool | None:
        """True past the breakpoint, False before it, None where the system has none."""
        tracked = self.context.get("breakpoints_tracked", True)
        return (side.broke_at_seq is not None) if tracked else None


class EventSerializer(serializers.ModelSerializer[BattleEvent]):
    check = serializers.CharField(source="check_name")
    sentence = serializers.SerializerMethodField(
        help_text="What happened, in the game's words (from the rules engine)."
    )
    dice_text = serializers.SerializerMethodField(
        help_text='The dice with what each was for: "to hit d12: 3 · damage d12: 4".'
    )

    class Meta:
        model = BattleEvent
        fields = [
            "id",
            "seq",
            "kind",
            "actor",
            "target",
            "check",
            "params",
            "dice",
            "dice_given",
            "outcome",
            "details",
            "effects",
            "turn",
            "created_by",
            "created_at",
            "voided",
            "voided_at",
            "sentence",
            "dice_text",
        ]

    def get_sentence(self, event: BattleEvent) -> str:
        return event_sentence(event.battle.system, event)

    def get_dice_text(self, event: BattleEvent) -> str:
        return event_dice_text(event)


class BattleHouseRulesSerializer(Serializer):
    version = serializers.IntegerField()
    digest = serializers.CharField()


class BattleSerializer(serializers.ModelSerializer[Battle]):
    sides = serializers.SerializerMethodField()
    figures = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField()
    house_rules = serializers.SerializerMethodField(
        help_text="The campaign's house-rules version the battle is played under (null: the "
        "rules as written); fixed when the battle is set up."
    )
    answer_by = serializers.SerializerMethodField(
        help_text="A reported result: the last day the other side has to confirm or dispute it "
        "(after it an organiser may settle it). Null when nothing is waiting."
    )

    class Meta:
        model = Battle
        fields = [
            "id",
            "campaign",
            "system",
            "scenario",
            "campaign_date",
            "status",
            "options",
            "house_rules",
            "seed",
            "seed_sha256",
            "activation_method",
            "activation_state",
            "auto_resolved",
            "created_at",
            "reported_at",
            "finished_at",
            "processed_at",
            "disputed_by",
            "dispute_note",
            "answer_by",
            "sides",
            "figures",
        ]

    @extend_schema_field(serializers.DateField(allow_null=True))
    def get_answer_by(self, battle: Battle) -> str | None:
        if battle.status != BattleStatus.REPORTED:
            return None
        day = battle_answer_by(battle)
        return day.isoformat() if day else None

    @extend_schema_field(BattleHouseRulesSerializer(allow_null=True))
    def get_house_rules(self, battle: Battle) -> dict[str, Any] | None:
        version = battle.house_rules
        return {"version": version.number, "digest": version.digest} if version else None

    def get_seed(self, battle: Battle) -> str | None:
        return battle.seed if battle.status == BattleStatus.PROCESSED else None

    def get_sides(self, battle: Battle) -> list[dict[str, Any]]:
        return list(SideSerializer(battle.sides.all(), many=True, context=self.context).data)

    def get_figures(self, battle: Battle) -> list[dict[str, Any]]:
        return list(FigureSerializer(battle.figures.all(), many=True).data)


class BattleListSerializer(serializers.ModelSerializer[Battle]):
    class Meta:
        model = Battle
        fields = [
            "id",
            "campaign",
            "system",
            "scenario",
            "campaign_date",
            "status",
            "seed_sha256",
            "created_at",
            "processed_at",
        ]


class LedgerSerializer(serializers.ModelSerializer[PostBattleRoll]):
    character_name = serializers.CharField(source="character.name", read_only=True)

    class Meta:
        model = PostBattleRoll
        fields = [
            "id",
            "battle",
            "character",
            "character_name",
            "procedure",
            "index",
            "subject",
            "outcome",
            "dice",
            "result",
            "house_rule",
            "created_at",
        ]


# --- input --------------------------------------------------------------------------------


class VisibleForceField(serializers.PrimaryKeyRelatedField[Force]):
    """A force id among those the caller may read: an unseen one is answered as a missing one."""

    def get_queryset(self) -> QuerySet[Force]:
        return forces_visible_to(self.context["request"].user)


class VisibleCharacterField(serializers.PrimaryKeyRelatedField[Character]):
    """A character id among those the caller may read (unseen: the same error as missing)."""

    def get_queryset(self) -> QuerySet[Character]:
        return characters_visible_to(self.context["request"].user)


class ExtraFigureSerializer(Serializer):
    """An unnamed figure: its stats are checked by the rule system when the battle is set up."""

    name = serializers.CharField(max_length=120, required=False, allow_blank=True)
    unit = serializers.CharField(max_length=120, required=False, allow_blank=True)
    stats = serializers.DictField(required=False, default=dict)


class SideInputSerializer(Serializer):
    force = VisibleForceField(queryset=Force.objects.all())
    characters = VisibleCharacterField(
        queryset=Character.objects.all(),
        many=True,
        required=False,
        allow_null=True,
        default=None,
        help_text="Leave out to take every character fit to fight.",
    )
    extras = serializers.ListField(
        child=ExtraFigureSerializer(),
        required=False,
        default=list,
        max_length=200,
        help_text="Unnamed figures: {name, unit, stats}.",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        strays = [c.pk for c in attrs.get("characters") or [] if c.force_id != attrs["force"].pk]
        if strays:
            raise serializers.ValidationError(
                {
                    "characters": [
                        f"character {pk} is not in force {attrs['force'].pk}" for pk in strays
                    ]
                }
            )
        return attrs


class BattleInputSerializer(Serializer):
    campaign = serializers.IntegerField(required=False, allow_null=True, default=None)
    scenario = serializers.CharField(required=False, allow_blank=True, default="", max_length=120)
    campaign_date = serializers.DateField(required=False, allow_null=True, default=None)
    options = serializers.DictField(required=False, default=dict)
    sides = SideInputSerializer(many=True)


class ResolveInputSerializer(Serializer):
    check = serializers.CharField(max_length=40)
    actor = serializers.IntegerField()
    target = serializers.IntegerField(required=False, allow_null=True, default=None)
    params = serializers.DictField(required=False, default=dict)
    dice = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        allow_null=True,
        default=None,
        allow_empty=False,
        help_text="Dice typed in, in the check's dice order. Leave out to let the server roll.",
    )


class ActivationInputSerializer(Serializer):
    method = serializers.CharField(max_length=40)
    units = serializers.ListField(
        child=serializers.CharField(max_length=160), required=False, allow_null=True, default=None
    )


class FigureResultSerializer(Serializer):
    figure = serializers.IntegerField()
    wounds = serializers.IntegerField(required=False, min_value=0, max_value=99)
    status = serializers.CharField(required=False, max_length=20)
    skills_used = serializers.ListField(child=serializers.CharField(max_length=40), required=False)
    kills = serializers.IntegerField(required=False, min_value=0, max_value=99)
    care = serializers.CharField(required=False, allow_null=True)
    hazard = serializers.IntegerField(required=False, allow_null=True)
    captured = serializers.BooleanField(required=False)
    wound_locations = serializers.ListField(child=serializers.CharField(), required=False)
    hero = serializers.CharField(required=False, allow_null=True)


class SideResultSerializer(Serializer):
    side = serializers.IntegerField()
    result = serializers.CharField(max_length=4)
    victory_points = serializers.IntegerField(required=False, min_value=-999, max_value=999)


class DisputeInputSerializer(Serializer):
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=1000,
        help_text="What is wrong with the reported result (the organiser reads it).",
    )


class ResultInputSerializer(Serializer):
    figures = FigureResultSerializer(many=True, required=False, default=list)
    sides = SideResultSerializer(many=True, required=False, default=list)
    options = serializers.DictField(required=False, default=dict)


class SimulateInputSerializer(Serializer):
    """A "who would win?" question: two sides of forces (or a battle's own sides)."""

    sides = SideInputSerializer(many=True, required=False)
    options = serializers.DictField(required=False, default=dict)
