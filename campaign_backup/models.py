"""Restores run by the worker: the uploaded backup, its state and where the restore has got to.

A restore writes a whole campaign in ONE transaction (a failure leaves nothing behind), which
can take longer than a request should. The admin stores the checked upload as a `RestoreJob`
and the worker restores it; the job page polls `RestoreProgress` meanwhile.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class RestoreJobStatus(models.TextChoices):
    QUEUED = "QUEUED", "Queued"
    RUNNING = "RUNNING", "Running"
    DONE = "DONE", "Done"
    FAILED = "FAILED", "Failed"


#: A job still to be run (or being run): the states a second job for the same copy would race.
LIVE = (RestoreJobStatus.QUEUED, RestoreJobStatus.RUNNING)


class RestoreJob(models.Model):
    """A backup to restore as a copy (a new name and slug) into a club, and its outcome.

    `idempotency_key` (a hash of the club, the copy's name and slug and the file) is unique, so
    the same form sent twice finds the same job; at most one live job may aim at a club's slug;
    `restored` is one-to-one, so no two jobs can claim one copy (and Campaign's own unique
    (club, slug) keeps two restores of one job from both committing).
    """

    Status = RestoreJobStatus

    club = models.ForeignKey("campaigns.Club", on_delete=models.CASCADE, related_name="+")
    source = models.ForeignKey(
        "campaigns.Campaign",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The campaign whose page the backup was uploaded on.",
    )
    name = models.CharField(max_length=120, help_text="The copy's name.")
    slug = models.SlugField(max_length=120, help_text="The copy's slug in the club.")
    filename = models.CharField(max_length=255, blank=True)
    # The checked document itself, not a file in MEDIA_ROOT: the web and worker machines share
    # the database, not necessarily a disk. Emptied once the copy exists (the copy is the record).
    document = models.JSONField(null=True, blank=True)
    idempotency_key = models.CharField(max_length=64, unique=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(
        default=0, help_text="How many times a worker started it (more than one: one stopped)."
    )
    error = models.TextField(blank=True)
    restored = models.OneToOneField(
        "campaigns.Campaign",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="restore_job",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="restore_jobs"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=RestoreJobStatus.values), name="restore_job_status_valid"
            ),
            models.UniqueConstraint(
                fields=["club", "slug"],
                condition=Q(status__in=LIVE),
                name="restore_job_one_live_per_slug",
            ),
            models.CheckConstraint(
                condition=~Q(status=RestoreJobStatus.DONE) | Q(document__isnull=True),
                name="restore_job_done_drops_document",
            ),
        ]

    def __str__(self) -> str:
        return f"Restore #{self.pk} of {self.name} ({self.get_status_display()})"


class RestoreProgress(models.Model):
    """How far the worker has got with a job, written beside the restore's transaction.

    A row of its own because the worker holds the job row locked for the whole restore (that
    lock is how a second delivery knows the first worker is alive): an update of the job row
    from another connection would wait for the restore it is reporting on.
    """

    job = models.OneToOneField(
        RestoreJob, on_delete=models.CASCADE, primary_key=True, related_name="progress"
    )
    step = models.CharField(max_length=120, blank=True)
    rows_done = models.PositiveIntegerField(default=0)
    rows_total = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.step} {self.rows_done}/{self.rows_total}"

    @property
    def percent(self) -> int:
        """Return the rows written as a whole percentage (99 at most until the job is done)."""
        if not self.rows_total:
            return 0
        return min(99, self.rows_done * 100 // self.rows_total)
