"""Reads for battles: who sees or plays which battle, and what a character carries between games.

Career values (e.g. hero progress) and healing dates are not columns on Character: they are
folded from the `career` and `recovers_on` changes in the character's earlier ledger rows, so
the ledger stays the one source of truth for everything a post-battle roll decided.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery, Value

from battles.models import Battle, BattleFigure, BattleSide, BattleStatus, PostBattleRoll
from campaigns.models import Campaign, Club, Membership, Role
from campaigns.selectors import campaigns_managed_by, campaigns_visible_to
from campaigns.services.house_rules import rules_under
from common.json_types import JSONObject
from common.orm import prefetched
from common.users import User, Visitor
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
    if battle.campaign_id and referees(battle, user):
        return None
    return owner.get_username()


def referees(battle: Battle, user: Visitor) -> bool:
    """Say whether the user referees the battle: a superuser or an organiser of its campaign."""
    if user.is_superuser:
        return True
    if battle.campaign_id is None or not isinstance(user, User):
        return False
    # What `campaigns_managed_by` says of the battle's campaign, in one small query.
    role, club_admin = _standing(battle, user)
    return role == Role.ORGANISER or club_admin


def _owners(battle: Battle) -> list[tuple[int, int]]:
    """Each side's index and its force's owner: from the sides the pages prefetched (with
    their forces), else one query, kept on the battle object (a service asks for two users)."""
    if prefetched(battle, "sides"):
        return [(s.index, s.force.owner_id) for s in battle.sides.all()]
    if (kept := battle.__dict__.get("_side_owners")) is None:
        kept = battle.__dict__["_side_owners"] = list(
            battle.sides.values_list("index", "force__owner_id")
        )
    return list(kept)


def sides_played_by(battle: Battle, user: Visitor) -> frozenset[int] | None:
    """Return the indexes of the sides the user acts for at the table; None for every side.

    One phone taps for both sides; on their own phones a player acts for the sides their
    forces fight on, and the referee (`referees`) for anyone. Reads the battle's sides
    (prefetched by the pages, else one query) and at most one query for the organiser.
    """
    if not user.is_authenticated:
        return frozenset()
    if battle.one_phone:
        return None
    own = frozenset(index for index, owner in _owners(battle) if owner == user.pk)
    return None if referees(battle, user) else own


@dataclass(frozen=True)
class BattleAccess:
    """Who the user is to one battle, worked out once per request.

    The same answers as the querysets above (`battles_visible_to`, `battle_is_playable_by`,
    `referees`, `sides_played_by`), read from a battle already loaded with its sides.
    """

    sees: bool
    plays: bool
    referees: bool
    #: The indexes of the sides the user acts for at the table; None for every side.
    sides: frozenset[int] | None


NOBODY = BattleAccess(sees=False, plays=False, referees=False, sides=frozenset())
EVERYTHING = BattleAccess(sees=True, plays=True, referees=True, sides=None)
#: What `with_access` annotates on a battle: the user's role in the battle's campaign (a
#: membership is unique per campaign), whether they are an admin of its club, and whose
#: standing that is.
STANDING = ("access_role", "access_club_admin")


def _standing_of(user: User) -> dict[str, Subquery | Exists | Value]:
    member = Membership.objects.filter(campaign_id=OuterRef("campaign_id"), user_id=user.pk)
    # The club is reached inside the subquery: a join on the battle's side would drop the
    # battles outside any campaign.
    admin = Club.admins.through.objects.filter(
        club__campaigns=OuterRef("campaign_id"), user_id=user.pk
    )
    return {
        "access_role": Subquery(member.values("role")[:1]),
        "access_club_admin": Exists(admin),
        "access_for": Value(user.pk),
    }


def with_access(battles: QuerySet[Battle], user: Visitor) -> QuerySet[Battle]:
    """Annotate each battle with what `battle_access` needs beyond its sides, so it asks no
    query more: two small subqueries on the battle's own row (cheap to build, unlike
    `battles_visible_to`'s nested querysets)."""
    if not isinstance(user, User) or user.is_superuser:
        return battles  # their access needs no campaign: nothing, or everything
    return battles.annotate(**_standing_of(user))


def _standing(battle: Battle, user: User) -> tuple[str | None, bool]:
    """The user's role in the battle's campaign and whether they admin its club: the
    `with_access` annotations when the battle was loaded so for this user, else one query,
    kept on the battle object (a service asks again for the same user)."""
    if getattr(battle, "access_for", None) == user.pk:
        return battle.access_role, bool(battle.access_club_admin)  # type: ignore[attr-defined]
    kept: dict[int, tuple[str | None, bool]] = battle.__dict__.setdefault("_standings", {})
    if user.pk not in kept:
        rows = with_access(Battle.objects.filter(pk=battle.pk), user).values_list(*STANDING)
        found = rows.first()
        kept[user.pk] = (None, False) if found is None else (found[0], bool(found[1]))
    return kept[user.pk]


def _organises_a_side(battle: Battle, user: User) -> bool:
    """Say whether the user organises the campaign of one of the battle's sides' forces (one
    query): a friendly battle outside any campaign reaches that side's organiser."""
    managed = campaigns_managed_by(user).values("pk")
    return BattleSide.objects.filter(battle_id=battle.pk, force__campaign__in=managed).exists()


def battle_access(battle: Battle, user: Visitor) -> BattleAccess:
    """Say what the user may do with the battle: see it, play it, referee it, act for which
    sides, with the answers of `battles_visible_to`, `battle_is_playable_by`, `referees` and
    `sides_played_by`.

    Reads the battle's sides with their forces (as `pages.selectors.battle_with_sides` loads
    them) and the `with_access` annotations; without those, or for a friendly battle of
    someone who plays no side in it, one small query more.
    """
    if not isinstance(user, User):
        return NOBODY
    if user.is_superuser:
        return EVERYTHING
    own = frozenset(index for index, owner in _owners(battle) if owner == user.pk)
    if battle.campaign_id is None:
        # No campaign to belong to or referee: only a side's organiser comes in besides.
        organiser = not own and _organises_a_side(battle, user)
        sees = bool(own) or organiser or battle.created_by_id == user.pk
        return BattleAccess(sees, bool(own) or organiser, False, None if battle.one_phone else own)
    role, club_admin = _standing(battle, user)
    member = role in (Role.ORGANISER, Role.PLAYER) or club_admin
    runs = role == Role.ORGANISER or club_admin
    return BattleAccess(
        sees=bool(own) or member or battle.created_by_id == user.pk,
        plays=bool(own) or runs,
        referees=runs,
        sides=None if battle.one_phone or runs else own,
    )


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
