"""Input serializers for the print endpoints: every option is checked before anything renders.

Each `validated_data` is plain JSON, the same parameters a `PrintJob` stores, so a job renders
exactly what the request asked for.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from common.serializers import Serializer
from printing.cards import CARD_SIZES
from printing.documents import EXTRA_STATES, sticker_codes
from printing.selectors import label_preset_for
from printing.sheets import (
    MAX_CALIBRATION_MM,
    PAGE_SIZES,
    Calibration,
    SheetError,
    validate_calibration,
    validate_preset,
    validate_start,
)
from rules.errors import UnknownSystem
from rules.errors import ValidationError as RulesValidationError
from rules.system import RuleSystem, all_systems, get_system

MAX_POSTED_FIGURES = 2000
MAX_STICKERS = 5000


class SheetInput(Serializer):
    """Which label stock, where to start on it, and the printer's calibration."""

    preset = serializers.CharField(default="OL1575", max_length=40)
    start = serializers.IntegerField(default=1, min_value=1)
    calibration_x = serializers.FloatField(
        default=0.0, min_value=-MAX_CALIBRATION_MM, max_value=MAX_CALIBRATION_MM
    )
    calibration_y = serializers.FloatField(
        default=0.0, min_value=-MAX_CALIBRATION_MM, max_value=MAX_CALIBRATION_MM
    )
    guides = serializers.BooleanField(default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = self.context["user"]
        checks = (
            ("preset", lambda: validate_preset(label_preset_for(attrs["preset"], user))),
            (
                "calibration_x",
                lambda: validate_calibration(
                    label_preset_for(attrs["preset"], user),
                    Calibration(attrs["calibration_x"], attrs["calibration_y"]),
                ),
            ),
            (
                "start",
                lambda: validate_start(label_preset_for(attrs["preset"], user), attrs["start"]),
            ),
        )
        for field, check in checks:
            try:
                check()
            except SheetError as error:
                raise serializers.ValidationError({field: str(error)}) from None
        return attrs


class ForceLabelsInput(SheetInput):
    qr = serializers.BooleanField(default=False)
    include = serializers.ListField(
        child=serializers.ChoiceField(choices=[name for name, _ in EXTRA_STATES]),
        default=list,
        help_text="Also label figures who are dead, retired or captured (left out by default; "
        "recovering figures are labelled anyway).",
    )

    def validate_include(self, include: list[str]) -> list[str]:
        return sorted({part for item in include for part in item.split(",") if part})

    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "getlist") and "include" in data:  # a form's include=dead&include=...
            plain = {key: data.get(key) for key in data}
            plain["include"] = [p for v in data.getlist("include") for p in str(v).split(",") if p]
            data = plain
        return super().to_internal_value(data)


class CardsInput(Serializer):
    size = serializers.ChoiceField(choices=list(CARD_SIZES), default="poker")
    page = serializers.ChoiceField(choices=list(PAGE_SIZES), default="A4")
    blanks = serializers.IntegerField(default=0, min_value=0, max_value=90)
    qr = serializers.BooleanField(default=False, help_text="A QR code to each figure's page.")


class ForceCardsInput(CardsInput):
    """A force's cards: active figures by default; others by option, a unit, or picked ones."""

    include = serializers.ListField(
        child=serializers.ChoiceField(choices=[name for name, _ in EXTRA_STATES]),
        default=list,
        help_text="Also print figures who are recovering, dead, retired or captured.",
    )
    unit = serializers.IntegerField(required=False, min_value=1, help_text="Only this unit.")
    figures = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        default=list,
        max_length=MAX_POSTED_FIGURES,
        help_text="Only these characters (ids), whatever their status.",
    )

    def validate_include(self, include: list[str]) -> list[str]:
        # "include=dead,recovering" reads as naturally as include=dead&include=recovering.
        return sorted({part for item in include for part in item.split(",") if part})

    def to_internal_value(self, data: Any) -> Any:
        if hasattr(data, "getlist"):
            # The force page's form sends unit= for "every unit".
            plain = {
                key: data.get(key) for key in data if not (key == "unit" and not data.get(key))
            }
            for key in ("include", "figures"):
                if key in data:
                    plain[key] = [p for v in data.getlist(key) for p in str(v).split(",") if p]
            data = plain
        return super().to_internal_value(data)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        force = self.context.get("force")
        if force is None:
            return attrs
        if "unit" in attrs and not force.units.filter(pk=attrs["unit"]).exists():
            raise serializers.ValidationError({"unit": "this force has no such unit"})
        picked = set(attrs.get("figures") or ())
        if picked:
            found = set(force.characters.filter(pk__in=picked).values_list("pk", flat=True))
            if picked - found:
                missing = ", ".join(str(pk) for pk in sorted(picked - found))
                raise serializers.ValidationError(
                    {"figures": f"not characters of this force: {missing}"}
                )
        return attrs


class StickersInput(SheetInput):
    system = serializers.ChoiceField(
        choices=[system.key for system in all_systems()],
        default="rencounter",
        help_text="Whose wound or hit codes to print.",
    )
    colour = serializers.BooleanField(default=True)
    counts = serializers.DictField(child=serializers.IntegerField(min_value=0), required=False)

    def validate_counts(self, counts: dict[str, int]) -> dict[str, int]:
        if sum(counts.values()) > MAX_STICKERS:
            raise serializers.ValidationError(f"at most {MAX_STICKERS} stickers at once")
        return counts

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        codes = [code for code, _, _ in sticker_codes(attrs["system"])]
        unknown = set(attrs.get("counts") or {}) - set(codes)
        if unknown:
            raise serializers.ValidationError(
                {"counts": f"unknown wound codes {sorted(unknown)}; use {', '.join(codes)}"}
            )
        return attrs


class ReferenceInput(Serializer):
    campaign = serializers.IntegerField(required=False, min_value=1)
    page = serializers.ChoiceField(choices=list(PAGE_SIZES), default="A4")


class FigureInput(Serializer):
    name = serializers.CharField(max_length=120)
    stats = serializers.DictField(default=dict)
    rank = serializers.CharField(max_length=80, default="", allow_blank=True)
    unit = serializers.CharField(max_length=120, default="", allow_blank=True)
    qr_url = serializers.URLField(default="", allow_blank=True)
    wounds = serializers.IntegerField(default=0, min_value=0, max_value=50)


def _system(key: str) -> RuleSystem:
    try:
        return get_system(key)
    except UnknownSystem as error:
        raise serializers.ValidationError({"system": str(error)}) from None


class PostedFiguresMixin(Serializer):
    """Figures posted for a preview, stats checked by the system's own schema."""

    system = serializers.CharField(max_length=40)
    # What FigureInput(many=True, ...) builds: a list serializer, which takes max_length.
    figures = FigureInput.many_init(allow_empty=False, max_length=MAX_POSTED_FIGURES)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        attrs = super().validate(attrs)
        system = _system(attrs["system"])
        for index, figure in enumerate(attrs["figures"]):
            try:
                figure["stats"] = system.stats.validate(figure["stats"])
            except RulesValidationError as error:
                problem: dict[str, Any] = {"figures": {index: {"stats": error.errors}}}
                raise serializers.ValidationError(problem) from None
        return attrs


class PostedLabelsInput(PostedFiguresMixin, SheetInput):
    pass


class PostedCardsInput(PostedFiguresMixin, CardsInput):
    pass


class PacketInput(SheetInput):
    """A packet's label options: the stock its new base labels print on."""


class ReportInput(Serializer):
    all = serializers.BooleanField(default=False, help_text="Every battle, not the latest five.")
