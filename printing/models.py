"""Printing's tables: users' own label stock, and print jobs run by the worker."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from printing.sheets import PAGE_SIZES, SheetError, SheetPreset, validate_preset


class LabelShape(models.TextChoices):
    ROUND = "round", "Round"
    RECT = "rect", "Rectangular"


class LabelPreset(models.Model):
    """A user's own label stock, measured from the sheet (all lengths in mm)."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="label_presets"
    )
    name = models.CharField(max_length=120)
    page = models.CharField(max_length=10, choices=[(p, p) for p in PAGE_SIZES])
    shape = models.CharField(max_length=5, choices=LabelShape.choices)
    width = models.FloatField(help_text="Label width (the diameter for round labels), mm.")
    height = models.FloatField(help_text="Label height (the diameter for round labels), mm.")
    columns = models.PositiveSmallIntegerField()
    rows = models.PositiveSmallIntegerField()
    left = models.FloatField(help_text="Page edge to the first label's left edge, mm.")
    top = models.FloatField(help_text="Page edge to the first label's top edge, mm.")
    pitch_x = models.FloatField(help_text="One label's left edge to the next one's, mm.")
    pitch_y = models.FloatField(help_text="One label's top edge to the next row's, mm.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="label_preset_name_per_owner"),
            models.CheckConstraint(
                condition=Q(
                    width__gt=0, height__gt=0, columns__gte=1, rows__gte=1, left__gte=0, top__gte=0
                ),
                name="label_preset_positive_geometry",
            ),
            models.CheckConstraint(
                condition=Q(shape__in=LabelShape.values), name="label_preset_shape_valid"
            ),
            models.CheckConstraint(
                condition=Q(page__in=list(PAGE_SIZES)), name="label_preset_page_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> str:
        return f"user-{self.pk}"

    def as_sheet(self) -> SheetPreset:
        return SheetPreset(
            key=self.key,
            name=self.name,
            page=self.page,
            shape=self.shape,  # type: ignore[arg-type]  # the field's choices are the Literal's
            width=self.width,
            height=self.height,
            columns=self.columns,
            rows=self.rows,
            left=self.left,
            top=self.top,
            pitch_x=self.pitch_x,
            pitch_y=self.pitch_y,
        )

    def clean(self) -> None:
        # The same geometry rules as the built-in presets: no overlap, nothing off the page.
        try:
            validate_preset(self.as_sheet())
        except SheetError as error:
            raise ValidationError(str(error)) from None


class PrintJobKind(models.TextChoices):
    LABELS = "LABELS", "Base labels"
    STICKERS = "STICKERS", "Wound stickers"
    CARDS = "CARDS", "Unit cards"
    ROSTER = "ROSTER", "Roster"
    REFERENCE = "REFERENCE", "Quick-reference sheet"
    PACKET = "PACKET", "Game-night packet"
    REPORT = "REPORT", "Campaign report"


class PrintJobStatus(models.TextChoices):
    QUEUED = "QUEUED", "Queued"
    RUNNING = "RUNNING", "Running"
    DONE = "DONE", "Done"
    FAILED = "FAILED", "Failed"


class PrintJob(models.Model):
    """A document too big to render in a request, rendered by the worker with progress.

    `idempotency_key` is a hash of the kind, the parameters and the requester, unique, so the
    same request twice finds the same job instead of rendering twice.
    """

    Kind = PrintJobKind
    Status = PrintJobStatus

    kind = models.CharField(max_length=10, choices=Kind.choices)
    parameters = models.JSONField(default=dict)
    idempotency_key = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0, help_text="Percent done.")
    pages_done = models.PositiveIntegerField(default=0)
    file = models.FileField(upload_to="print-jobs/", blank=True)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="print_jobs"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=PrintJobStatus.values), name="print_job_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=PrintJobKind.values), name="print_job_kind_valid"
            ),
            models.CheckConstraint(condition=Q(progress__lte=100), name="print_job_progress_max"),
        ]
        indexes = [models.Index(fields=["created_by", "created_at"], name="print_job_by_user")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.get_status_display()})"


class LabelPrint(models.Model):
    """A character's base label was printed through Muster (so a packet can skip it next time).

    Kept in printing, not on Character: a roster does not care whether its labels exist, and
    one row per print keeps the history (reprinted after a rebasing, say) for free.
    """

    character = models.ForeignKey(
        "rosters.Character", on_delete=models.CASCADE, related_name="label_prints"
    )
    printed_at = models.DateTimeField(auto_now_add=True)
    printed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    job = models.ForeignKey(
        PrintJob, on_delete=models.SET_NULL, null=True, blank=True, related_name="label_prints"
    )

    class Meta:
        # "Which of these characters has a label yet?" is the one question asked of this table.
        indexes = [models.Index(fields=["character", "printed_at"], name="label_print_by_char")]

    def __str__(self) -> str:
        return f"Label for {self.character_id} at {self.printed_at:%Y-%m-%d %H:%M}"
