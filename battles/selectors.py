"""Reads for battles: who sees or plays which battle, and what a character carries between games.

Career values (e.g. hero progress) and healing dates are not columns on Character: they are
folded from the `career` and `recovers_on` changes in the character's earlier ledger rows, so
the ledger stays the one source of truth for everything a post-battle roll decided.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

from django.db.models import Count, Q, QuerySet

from battles.models import Battle, BattleFigure, BattleStatus, PostBattleRoll
from campaigns.models import Campaign
from campaigns.selectors import campaigns_managed_by, campaigns_visible_to
from campaigns.services.house_rules import rules_under
from common.json_types import JSONObject
from common.users import Visitor
from rosters.models import Character
from rules.system import RuleSystem, get_system


def _scoped(user: Visitor, campaigns: QuerySet[Campaign]) -> QuerySet[Battle]:
    if not user.is_authenticated:
        return Battle.objects.none()
    if user.is_superuser:
        return Battle.objects.all()
    mine = Battle.objects.filter(sides__force__owner_id=user.pk).values("pk")
    return Battle.objects.filter(
        Q(pk__in=mine)
        | Q(campaign__in=campaigns.values("pk"))
        | Q(created_by_id=user.pk)
        | Q(pk__in=_organised_sides(user))
    )


def _organised_sides(user: Visitor) -> QuerySet[Battle, Mapping[str, object]]:
    """Battles with a side whose force's campaign the user organises: a friendly battle
    outside any campaign still reaches the organiser who settles for that side."""
    managed = campaigns_managed_by(user).values("pk")
    return Battle.objects.filter(campaign__isnull=True, sides__force__campaign__in=managed).values(
        "pk"
    )


def battles_visible_to(user: Visitor) -> QuerySet[Battle]:
    """Return battles a user may read: theirs, and those of campaigns they belong to."""
    return _scoped(user, campaigns_visible_to(user))


def battles_playable_by(user: Visitor) -> QuerySet[Battle]:
    """Return battles a user may change: those with a force of theirs, or that they organise."""
    if not user.is_authenticated:
        return Battle.objects.none()
    if user.is_superuser:
        return Battle.objects.all()
    mine = Battle.objects.filter(sides__force__owner_id=user.pk).values("pk")
    managed = campaigns_managed_by(user).values("pk")
    return Battle.objects.filter(
        Q(pk__in=mine) | Q(campaign__in=managed) | Q(pk__in=_organised_sides(user))
    )


def battle_is_playable_by(battle: Battle, user: Visitor) -> bool:
    return battles_playable_by(user).filter(pk=battle.pk).exists()


def battle_is_deletable_by(battle: Battle, user: Visitor) -> bool:
    """Say whether the user may delete the battle: its creator, while it is not finished."""
    unfinished = battle.status in (BattleStatus.SETUP, BattleStatus.IN_PROGRESS)
    return unfinished and user.is_authenticated and battle.created_by_id == user.pk


def battle_kept_because(battle: Battle) -> str:
    """Say why a battle cannot be deleted ("" when it can: set up or begun, never finished)."""
    if battle.status not in (BattleStatus.SETUP, BattleStatus.IN_PROGRESS):
        return "a finished battle is history: its figures' careers and the ledger point at it"
    return ""


def battle_is_managed_by(battle: Battle, user: Visitor) -> bool:
    """Say whether the user organises the battle's campaign (or is a superuser)."""
    if user.is_superuser:
        return True
    if battle.campaign_id is None:
        return battle_is_playable_by(battle, user)
    return campaigns_managed_by(user).filter(pk=battle.campaign_id).exists()


def figure_belongs_to_other(battle: Battle, figure: BattleFigure, user: Visitor) -> str | None:
    """Return the username of the figure's player when `user` may not act for it, else None.

    A player acts for their own side's figures; the campaign's organisers (and superusers)
    referee and may act for anyone. A battle outside a campaign has no organiser.
    """
    owner = figure.side.force.owner
    if owner.pk == user.pk or user.is_superuser:
        return None
    if battle.campaign_id and campaigns_managed_by(user).filter(pk=battle.campaign_id).exists():
        return None
    return owner.get_username()


def referees(battle: Battle, user: Visitor) -> bool:
    """Say whether the user referees the battle: a superuser or an organiser of its campaign."""
    if user.is_superuser:
        return True
    campaign_id = battle.campaign_id
    if campaign_id is None:
        return False
    return campaigns_managed_by(user).filter(pk=campaign_id).exists()


def sides_played_by(battle: Battle, user: Visitor) -> frozenset[int] | None:
    """Return the indexes of the sides the user acts for at the table; None for every side.

    One phone taps for both sides; on their own phones a player acts for the sides their
    forces fight on, and the referee (`referees`) for anyone. Reads the battle's sides
    (prefetched by the pages) and at most one query for the organiser.
    """
    if not user.is_authenticated:
        return frozenset()
    if battle.one_phone:
        return None
    own = frozenset(s.index for s in battle.sides.all() if s.force.owner_id == user.pk)
    return None if referees(battle, user) else own


def _earlier_rows(character: Character, before: Battle | None) -> QuerySet[PostBattleRoll]:
    rows = PostBattleRoll.objects.filter(character=character, battle__status=BattleStatus.PROCESSED)
    if before is not None:
        rows = rows.exclude(battle=before).filter(battle__processed_at__isnull=False)
    return rows.order_by("battle__processed_at", "battle_id", "procedure", "index")


def _changes(rows: QuerySet[PostBattleRoll], kind: str) -> list[JSONObject]:
    return [c for row in rows for c in row.result.get("changes", ()) if c.get("kind") == kind]


def _fold_career(career: JSONObject, change: JSONObject) -> None:
    """Apply one `career` change (`field` becomes `after`) to a character's career."""
    field = change["field"]
    if not isinstance(field, str):
        raise ValueError(f"a career change names its field as text, not {field!r}")
    career[field] = change["after"]


def character_career(character: Character, *, before: Battle | None = None) -> JSONObject:
    """Fold the character's `career` changes from processed battles (other than `before`)."""
    career: JSONObject = {}
    for change in _changes(_earlier_rows(character, before), "career"):
        _fold_career(career, change)
    return career


def careers_before(battle: Battle, character_ids: list[int]) -> dict[int, JSONObject]:
    """Fold `career` changes for many characters in one query (for processing a battle)."""
    rows = (
        PostBattleRoll.objects.filter(
            character_id__in=character_ids,
            battle__status=BattleStatus.PROCESSED,
            battle__processed_at__isnull=False,
        )
        .exclude(battle=battle)
        .order_by("battle__processed_at", "battle_id", "procedure", "index")
    )
    careers: dict[int, JSONObject] = {pk: {} for pk in character_ids}
    for row in rows.only("character_id", "result"):
        for change in row.result.get("changes", ()):
            if change.get("kind") == "career":
                _fold_career(careers[row.character_id], change)
    return careers


def battles_fought_before(battle: Battle, character_ids: list[int]) -> dict[int, int]:
    """Count each character's processed battles other than `battle`, in one query."""
    counts = (
        BattleFigure.objects.filter(
            character_id__in=character_ids, battle__status=BattleStatus.PROCESSED
        )
        .exclude(battle=battle)
        .values("character_id")
        .annotate(n=Count("pk"))
    )
    found = {row["character_id"]: row["n"] for row in counts}
    return {pk: found.get(pk, 0) for pk in character_ids}


def character_recovers_on(character: Character) -> date | None:
    """Return the latest healing date a post-battle roll set for the character, if any."""
    found = _changes(_earlier_rows(character, None), "recovers_on")
    if not found:
        return None
    day = found[-1]["after"]
    if not isinstance(day, str):
        raise ValueError(f"a recovers_on change holds an ISO date, not {day!r}")
    return date.fromisoformat(day)


def rules_for_battle(battle: Battle) -> RuleSystem:
    """The battle's rule system under the house-rules version it was set up under.

    Not the campaign's newest version: a battle keeps resolving, pricing and auditing by the
    tables it started with after the club edits them again (None: the rules as written).
    """
    if battle.house_rules_id is None:
        return get_system(battle.system)
    return rules_under(battle.system, battle.house_rules)


def ledger_for(battle: Battle) -> QuerySet[PostBattleRoll]:
    """Return the battle's ledger in a stable order."""
    return battle.ledger.select_related("character").order_by("character_id", "procedure", "index")
