"""A campaign's house rules: versions of a pack of edited tables (rules.house), saved and read.

Every write validates the pack with the campaign's rule system before anything is stored, and
saves a new version (never edits one): battles keep the version they were set up under.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from campaigns.models import Campaign, HouseRules
from common.users import User, Visitor
from rules import house
from rules.house import Change, Comparison, Pack, PackError
from rules.system import RuleSystem, get_system

#: The longest note a version keeps (the model's field).
NOTE_MAX = 200


def house_rules_current(campaign: Campaign) -> HouseRules | None:
    """The campaign's newest house-rules version, or None if it plays the rules as written."""
    return campaign.house_rules_versions.order_by("-number").first()


def house_rules_versions(campaign: Campaign) -> QuerySet[HouseRules]:
    """Every house-rules version of the campaign, newest first, with who saved each."""
    return campaign.house_rules_versions.select_related("created_by").order_by("-number")


def house_rules_version(campaign: Campaign, number: int) -> HouseRules | None:
    """The campaign's house-rules version `number`, or None if it has no such version."""
    return campaign.house_rules_versions.filter(number=number).first()


def house_rules_filename(campaign: Campaign, version: HouseRules) -> str:
    """The file a version's pack is exported as (and `python -m rules ... --house` reads)."""
    return f"{campaign.slug or 'campaign'}-house-rules-v{version.number}.json"


def pack_of(version: HouseRules | None) -> Pack | None:
    """The validated pack a stored version holds (cached by content in the rules engine)."""
    if version is None:
        return None
    return house.load(get_system(version.campaign.system), version.document)


def rules_under(system_key: str, version: HouseRules | None) -> RuleSystem:
    """The rule system under a house-rules version (None: as written).

    A version that sets no table (an empty pack) is the rules as written too, also for a
    system with no editable tables at all.
    """
    system = get_system(system_key)
    if version is None or not version.document.get("tables"):
        return system
    return system.with_house(version.document)


def rules_for_campaign(campaign: Campaign) -> RuleSystem:
    """The campaign's rule system under its newest house rules: what new battles play under."""
    return rules_under(campaign.system, house_rules_current(campaign))


def house_rules_check(*, campaign: Campaign, document: Any) -> Pack:
    """Validate a pack for the campaign's system; raises PackError naming the bad cell."""
    system = get_system(campaign.system)
    if system.house is None:
        raise PackError(f"{system.name} has no editable tables")
    return house.load(system, document)


@transaction.atomic
def house_rules_save(
    *,
    campaign: Campaign,
    document: Any,
    user: Visitor | None,
    note: str = "",
) -> HouseRules:
    """Save the pack as the campaign's next version and return it.

    Saving the pack the campaign already plays under makes no new version (a double tap or a
    retried request changes nothing): the current version is returned. Raises PackError (the
    bad cell) or ValidationError (the note) before anything is written.
    """
    pack = house_rules_check(campaign=campaign, document=document)
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ValidationError({"note": f"must be at most {NOTE_MAX} characters"})
    # Lock the campaign row: two organisers saving at once get numbers 1 and 2, not a clash.
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    current = house_rules_current(campaign)
    if current is not None and current.digest == pack.digest:
        return current
    number = current.number + 1 if current is not None else 1
    try:
        with transaction.atomic():
            return HouseRules.objects.create(
                campaign=campaign,
                number=number,
                document=pack.as_json(),
                digest=pack.digest,
                note=note,
                created_by=user if isinstance(user, User) else None,
            )
    except IntegrityError:  # the same number saved by a racing request: its version stands
        return HouseRules.objects.get(campaign=campaign, number=number)


def house_rules_copy(*, campaign: Campaign, source: Campaign, user: User | None) -> HouseRules:
    """Copy another campaign's newest pack (same system) as this campaign's next version."""
    if source.system != campaign.system:
        raise ValidationError(
            {"source": "house rules can only be copied from a campaign of the same rule system"}
        )
    version = house_rules_current(source)
    if version is None:
        raise ValidationError({"source": f"{source.name} plays the rules as written"})
    return house_rules_save(
        campaign=campaign,
        document=version.document,
        user=user,
        note=f"Copied from {source.name} (v{version.number})"[:NOTE_MAX],
    )


def house_rules_changes(
    campaign: Campaign, before: HouseRules | None, after: HouseRules | None
) -> list[str]:
    """What changed between two versions (None: the rules as written), one sentence each."""
    system = get_system(campaign.system)
    if system.house is None:
        return []
    changes: list[Change] = house.diff(system, pack_of(before), pack_of(after))
    return [change.sentence(system.house) for change in changes]


def house_rules_preview(
    *, campaign: Campaign, document: Any, before: HouseRules | None
) -> list[Comparison]:
    """The exact odds of the checks an edited pack touches, under `before` (usually the current
    version; None: the rules as written) and under the edit; raises PackError for a bad pack."""
    system = get_system(campaign.system)
    pack = house_rules_check(campaign=campaign, document=document)
    return house.compare(system, pack_of(before), pack)


def editable_rows(campaign: Campaign) -> Mapping[str, list[dict[str, Any]]]:
    """Every editable table's rows as the campaign plays them now (the editor's starting point)."""
    system = get_system(campaign.system)
    return house.effective_rows(system, pack_of(house_rules_current(campaign)))
