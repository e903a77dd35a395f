"""Battles: sides, the figures in them, the event log and the post-battle ledger.

A battle moves SETUP -> IN_PROGRESS -> REPORTED (-> DISPUTED) -> FINISHED -> PROCESSING ->
PROCESSED. REPORTED waits for every side's consent: a side's figures are touched only once its
owner (or an organiser of its force's campaign) agreed the result (battles.services.consent).
Its seed is drawn
at creation and kept secret until PROCESSED; its SHA-256 is public from the start, so players
can later check that the revealed seed is the one the battle was committed to.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from rules.dice import CURRENT_SCHEME


class BattleStatus(models.TextChoices):
    SETUP = "SETUP", "Setting up"
    IN_PROGRESS = "IN_PROGRESS", "In progress"
    REPORTED = "REPORTED", "Result reported, waiting for the other side to confirm"
    DISPUTED = "DISPUTED", "Result disputed, waiting for an organiser"
    FINISHED = "FINISHED", "Agreed, waiting for the post-battle rolls"
    PROCESSING = "PROCESSING", "Post-battle rolls running"
    PROCESSED = "PROCESSED", "Processed"


class SideResult(models.TextChoices):
    UNDECIDED = "", "Undecided"
    WIN = "WIN", "Win"
    DRAW = "DRAW", "Draw"
    LOSS = "LOSS", "Loss"


class EventKind(models.TextChoices):
    CHECK = "CHECK", "Check"
    ACTIVATION = "ACTIVATION", "Activation"
    # A wound, hit or marker added or taken off by hand at the table (no dice).
    ADJUSTMENT = "ADJUSTMENT", "Adjustment"
    # A void is logged as an event of its own (details: {"voids": seq}), so a phone that
    # follows the log from its last event number learns of it too.
    VOID = "VOID", "Void"


class Battle(models.Model):
    Status = BattleStatus

    campaign = models.ForeignKey(
        "campaigns.Campaign",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="battles",
    )
    system = models.CharField(max_length=40, help_text="Rule system key.")
    scenario = models.CharField(max_length=120, blank=True)
    campaign_date = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.SETUP)
    options = models.JSONField(
        default=dict, blank=True, help_text="Campaign options for this battle (validated)."
    )
    seed = models.CharField(max_length=64, editable=False)
    seed_sha256 = models.CharField(max_length=64, editable=False)
    # How the seed becomes dice (rules.dice.SCHEMES): fixed when the battle is set up, so a
    # battle's audit keeps re-deriving its dice after a newer scheme becomes the default.
    dice_scheme = models.PositiveSmallIntegerField(
        default=CURRENT_SCHEME,
        editable=False,
        help_text="1: HMAC-SHA256 blocks; 2: SHAKE-256 blocks (rules/dice.py).",
    )
    # The campaign's house-rules version when the battle was set up (None: the rules as
    # written): fixed like `dice_scheme`, so the battle's odds and audit re-derive exactly after
    # the club edits its tables again.
    house_rules = models.ForeignKey(
        "campaigns.HouseRules",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        editable=False,
        related_name="battles",
    )
    activation_method = models.CharField(max_length=40, blank=True)
    activation_state = models.JSONField(default=dict, blank=True)
    auto_resolved = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # When a result was reported (the opponent's time to answer counts from here) and when
    # every side had agreed it (FINISHED: the aftermath may be rolled).
    reported_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    dispute_note = models.TextField(blank=True, max_length=1000)
    claimed_at = models.DateTimeField(null=True, blank=True)
    claim_token = models.CharField(max_length=32, blank=True, editable=False)
    processed_at = models.DateTimeField(null=True, blank=True)
    # The idempotency key of the request that finished the battle: the same request again
    # (a double tap, a phone retrying) is answered as done instead of refused.
    finish_key = models.CharField(max_length=64, blank=True, editable=False)
    # One phone: whoever may play taps for every figure (how the table assistant began).
    # Off: each player acts only for their own side's figures, each on their own phone.
    one_phone = models.BooleanField(
        default=True, help_text="One phone drives both sides; off: each player their own."
    )
    # The hash of the newest event (battles/chain.py): the head of the log's hash chain,
    # moved under the battle's row lock with every event appended.
    log_head = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=BattleStatus.values), name="battle_status_valid"
            ),
            # A claimed battle always says when it was claimed: the sweep depends on it.
            models.CheckConstraint(
                condition=~Q(status=BattleStatus.PROCESSING) | Q(claimed_at__isnull=False),
                name="battle_processing_has_claim",
            ),
            # A result waiting for consent says since when (the organiser's deadline counts).
            models.CheckConstraint(
                condition=~Q(status__in=[BattleStatus.REPORTED, BattleStatus.DISPUTED])
                | Q(reported_at__isnull=False),
                name="battle_reported_has_time",
            ),
        ]
        # The sweep looks for FINISHED/PROCESSING battles; a partial index keeps it cheap.
        indexes = [
            models.Index(
                fields=["status", "claimed_at"],
                name="battle_waiting",
                condition=Q(status__in=[BattleStatus.FINISHED, BattleStatus.PROCESSING]),
            ),
        ]

    def __str__(self) -> str:
        return self.scenario or f"Battle {self.pk}"


class BattleSide(models.Model):
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="sides")
    index = models.PositiveSmallIntegerField()
    force = models.ForeignKey(
        "rosters.Force", on_delete=models.PROTECT, related_name="battle_sides"
    )
    result = models.CharField(
        max_length=4, choices=SideResult.choices, default=SideResult.UNDECIDED, blank=True
    )
    victory_points = models.IntegerField(default=0)
    broke_at_seq = models.PositiveIntegerField(
        null=True, blank=True, help_text="Event after which the side crossed its breakpoint."
    )
    # Consent: who agreed the reported result for this side (its force's owner, or an organiser
    # of the force's campaign) and when. The aftermath waits until every side has agreed.
    agreed_at = models.DateTimeField(null=True, blank=True)
    agreed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["battle", "index"], name="battle_side_index_unique"),
            # One winner at most: two sides saved as "Win" is refused by the database too.
            models.UniqueConstraint(
                fields=["battle"],
                condition=Q(result=SideResult.WIN),
                name="battle_side_one_winner",
            ),
            models.UniqueConstraint(fields=["battle", "force"], name="battle_side_force_unique"),
            models.CheckConstraint(
                condition=Q(result__in=SideResult.values), name="battle_side_result_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.battle}: side {self.index + 1} ({self.force})"


class BattleFigure(models.Model):
    """A character (or an unnamed extra) as it stood at the start, and its battle state."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="figures")
    side = models.ForeignKey(BattleSide, on_delete=models.CASCADE, related_name="figures")
    character = models.ForeignKey(
        "rosters.Character",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="battle_figures",
    )
    name = models.CharField(max_length=120)
    unit_name = models.CharField(max_length=120, blank=True)
    # Part of the post-battle dice context, fixed when the battle is set up (the character's
    # id then) and carried verbatim by a campaign export, so an imported battle's ledger can
    # still be re-derived by the audit although its characters have new ids.
    dice_key = models.CharField(
        max_length=40,
        blank=True,
        editable=False,
        help_text="Post-battle dice derive from (seed, this key); empty for unnamed extras.",
    )
    stats = models.JSONField(help_text="Snapshot at the start: permanent wounds applied.")
    state = models.JSONField(default=dict, help_text="Battle state, keys per rule system.")
    skills_used = models.JSONField(default=list, blank=True)
    # The player's last calls for this figure, by check: the judgement parameters (range,
    # cover, the situation) and a weapon chosen over the one the rules would pick. Not battle
    # state: voiding an event does not unmake a choice.
    table_choices = models.JSONField(
        default=dict, blank=True, help_text="Last values chosen at the table, by check."
    )
    kills = models.PositiveIntegerField(default=0)
    final_status = models.CharField(max_length=20, blank=True)
    extra = models.JSONField(
        default=dict, blank=True, help_text="Care, hazard, captured, wound locations, hero."
    )
    record = models.JSONField(
        null=True,
        blank=True,
        editable=False,
        help_text="The post-battle record the procedure ran on (kept for the audit).",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["battle", "character"],
                condition=Q(character__isnull=False),
                name="battle_figure_character_once",
            ),
            models.UniqueConstraint(
                fields=["battle", "dice_key"],
                condition=~Q(dice_key=""),
                name="battle_figure_dice_key_once",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def character_pk(self) -> int:
        """The id of the character this figure is; asking it of an unnamed extra is a bug."""
        if self.character_id is None:
            raise ValueError(f"{self.name} is an unnamed extra: it has no character")
        return self.character_id


class BattleEvent(models.Model):
    """One resolved check, activation draw or hand adjustment. Append-only: only `voided`
    ever changes."""

    Kind = EventKind

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.CHECK)
    actor = models.ForeignKey(
        BattleFigure, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    target = models.ForeignKey(
        BattleFigure, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    check_name = models.CharField(max_length=40)
    params = models.JSONField(default=dict)
    dice = models.JSONField(default=list)
    dice_given = models.BooleanField(default=False)
    outcome = models.CharField(max_length=40, blank=True)
    details = models.JSONField(default=dict, blank=True)
    effects = models.JSONField(default=list, blank=True)
    state_before = models.JSONField(
        default=dict, blank=True, help_text="What voiding restores: figures and activation."
    )
    turn = models.PositiveIntegerField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    voided = models.BooleanField(default=False)
    voided_at = models.DateTimeField(null=True, blank=True)
    # Idempotency keys sent by the table's forms: a request that made (or voided) this event
    # and arrives again is applied once. Empty when the caller sent none (API, services).
    request_key = models.CharField(max_length=64, blank=True, editable=False)
    void_key = models.CharField(max_length=64, blank=True, editable=False)
    # The hash of the event before this one (the battle's log_head when it was appended):
    # the links of a hash chain over the log, so a row edited later shows (battles/chain.py).
    prev_hash = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["battle", "seq"], name="battle_event_seq_unique"),
            models.UniqueConstraint(
                fields=["battle", "request_key"],
                condition=~Q(request_key=""),
                name="battle_event_request_once",
            ),
            models.UniqueConstraint(
                fields=["battle", "void_key"],
                condition=~Q(void_key=""),
                name="battle_event_void_once",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=EventKind.values), name="battle_event_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.check_name} -> {self.outcome}"


class PostBattleRoll(models.Model):
    """The ledger: one post-battle procedure step for one character, with its dice."""

    # PROTECT: the ledger is how anyone re-derives a processed battle's rolls.
    battle = models.ForeignKey(Battle, on_delete=models.PROTECT, related_name="ledger")
    character = models.ForeignKey(
        "rosters.Character", on_delete=models.CASCADE, related_name="post_battle_rolls"
    )
    procedure = models.CharField(max_length=40)
    index = models.PositiveIntegerField()
    subject = models.CharField(max_length=120, blank=True)
    outcome = models.CharField(max_length=40)
    dice = models.JSONField(default=list)
    result = models.JSONField(help_text="The whole roll: outcome, dice, changes, details.")
    house_rule = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["battle", "character", "procedure", "index"],
                name="post_battle_roll_unique",
            ),
        ]
        indexes = [models.Index(fields=["character", "battle"], name="ledger_by_character")]

    def __str__(self) -> str:
        return f"{self.character} {self.procedure} #{self.index}: {self.outcome}"
