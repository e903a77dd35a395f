"""Starting a battle: sides from forces, figures snapshotted, a secret seed committed to."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from battles.models import Battle, BattleFigure, BattleSide
from battles.selectors import character_recovers_on
from battles.services.common import as_validation
from campaigns.models import Campaign
from campaigns.services.house_rules import house_rules_current, rules_under
from common.users import User
from rosters.models import Character, CharacterStatus, Force
from rosters.selectors import piece_stats
from rules.errors import UnknownSystem
from rules.system import RuleSystem, get_system

FIT_TO_FIGHT = (CharacterStatus.ACTIVE, CharacterStatus.RECOVERING)


@dataclass(frozen=True)
class SideChoice:
    """One side of a new battle: a force, which of its characters fight, and unnamed extras.

    `characters=None` takes every character of the force that is fit to fight.
    """

    force: Force
    characters: tuple[Character, ...] | None = None
    extras: tuple[Mapping[str, object], ...] = field(default_factory=tuple)


def new_seed() -> tuple[str, str]:
    """Return a fresh secret seed and its SHA-256 (the public commitment)."""
    seed = secrets.token_hex(32)
    return seed, hashlib.sha256(seed.encode()).hexdigest()


def _plays(force: Force) -> str:
    """Say what a force plays, in English: "Gridley's Own plays Rencounter", "The Saxons play
    Game the 90%" (a name ending in a plural noun takes the plural verb)."""
    last = force.name.split()[-1] if force.name.split() else ""
    plural = last.endswith("s") and not last.endswith(("'s", "ss", "us"))
    return f"{force.name} {'play' if plural else 'plays'} {system_name(force.system)}"


def system_name(key: str) -> str:
    try:
        return get_system(key).name
    except UnknownSystem:
        return key


def forces_refusal(forces: Sequence[Force]) -> str | None:
    """Return why these forces cannot fight one another (different systems), else None."""
    if len({f.system for f in forces}) <= 1:
        return None
    return "; ".join(_plays(f) for f in forces)


def _check_forces(sides: Sequence[SideChoice], campaign: Campaign | None) -> str:
    if len(sides) < 2:
        raise ValidationError({"sides": ["a battle needs at least two sides"]})
    forces = [s.force for s in sides]
    if len({f.pk for f in forces}) != len(forces):
        raise ValidationError({"sides": ["a force can fight on one side only"]})
    refusal = forces_refusal(forces)
    if refusal:
        raise ValidationError({"sides": [f"these forces cannot fight one another: {refusal}"]})
    outsiders = [f.name for f in forces if campaign and f.campaign_id != campaign.pk]
    if outsiders:
        raise ValidationError({"sides": [f"not in {campaign}: {', '.join(outsiders)}"]})
    return forces[0].system


def campaign_of_forces(sides: Sequence[SideChoice], campaign: Campaign | None) -> Campaign | None:
    """Return the battle's campaign: the one named, else the one every force belongs to.

    Two forces of one campaign always fight that campaign's battle (its date, house rules and
    visibility), however the battle was set up; forces of different campaigns (or none) fight
    a friendly battle outside any campaign.
    """
    if campaign is not None:
        return campaign
    ids = {s.force.campaign_id for s in sides}
    if len(ids) != 1 or None in ids:
        return None
    return sides[0].force.campaign


def battle_options(
    system: RuleSystem, campaign: Campaign | None, overrides: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Return the campaign's options with this battle's overrides, validated by the system."""
    base = dict(campaign.options) if campaign else {}
    with as_validation("options"):
        return system.options.validate({**base, **(overrides or {})})


def _fit(character: Character, on: date | None) -> Character:
    """Refuse a character who cannot fight, naming him with his force.

    A recovering character whose wounds have healed by the battle's date may fight; he is
    marked ACTIVE when the battle is finished, so an abandoned set-up changes nobody.
    """
    who = f"{character.name} ({character.force.name})"
    if character.status not in FIT_TO_FIGHT:
        return _refuse(f"{who} is {character.get_status_display().lower()}")
    if character.status == CharacterStatus.RECOVERING:
        healed = character_recovers_on(character)
        if healed is not None and (on is None or healed > on):
            return _refuse(f"{who} is recovering until {healed:%-d %b %Y}")
    return character


def _refuse(reason: str) -> Character:
    raise ValidationError({"sides": [reason]})


def _chosen(choice: SideChoice) -> list[Character]:
    if choice.characters is None:
        fit = choice.force.characters.filter(status__in=FIT_TO_FIGHT)
        return list(fit.select_related("unit", "force").order_by("unit__order", "name", "pk"))
    strays = [c.name for c in choice.characters if c.force_id != choice.force.pk]
    if strays:
        raise ValidationError({"sides": [f"not in {choice.force}: {', '.join(strays)}"]})
    return list(choice.characters)


def snapshot_stats(character: Character) -> dict[str, object]:
    """Return the stats a character fights with: his permanent wounds carried in.

    Where the unit is the playing piece (Game the 90%, Grits & Glory) they are the unit's:
    one place for each stat. Permanent wounds live on the character (for every system);
    systems whose battle state depends on them read `permanent_wounds` from this snapshot.
    """
    stats = piece_stats(character, get_system(character.force.system).piece)
    return {**stats, "permanent_wounds": list(character.permanent_wounds)}


def _figure(
    battle: Battle,
    side: BattleSide,
    system: RuleSystem,
    *,
    name: str,
    unit: str,
    stats: Mapping[str, object],
    character: Character | None = None,
) -> BattleFigure:
    return BattleFigure(
        battle=battle,
        side=side,
        character=character,
        dice_key=str(character.pk) if character else "",
        name=name,
        unit_name=unit,
        stats=stats,
        state=system.initial_state(stats),
    )


def _extra(
    battle: Battle, side: BattleSide, system: RuleSystem, data: Mapping[str, object], number: int
) -> BattleFigure:
    given = data.get("stats") or {}
    if not isinstance(given, Mapping):
        raise ValidationError({"extras": [f"extra {number}: stats must be an object"]})
    with as_validation("extras"):
        stats = system.stats.validate(given)
    name = str(data.get("name") or f"Extra {number}")[:120]
    return _figure(battle, side, system, name=name, unit=str(data.get("unit") or ""), stats=stats)


def _all_fit(characters: Sequence[Character], on: date | None) -> list[Character]:
    """Return the characters if every one may fight, else refuse naming each who may not."""
    reasons = []
    for character in characters:
        try:
            _fit(character, on)
        except ValidationError as exc:
            reasons += exc.message_dict["sides"]
    if reasons:
        raise ValidationError({"sides": reasons})
    return list(characters)


def _side_figures(
    battle: Battle,
    side: BattleSide,
    system: RuleSystem,
    choice: SideChoice,
) -> list[BattleFigure]:
    named = _all_fit(_chosen(choice), battle.campaign_date)
    figures = [
        _figure(
            battle,
            side,
            system,
            name=c.name,
            character=c,
            unit=c.unit.name if c.unit else "",
            stats=snapshot_stats(c),
        )
        for c in named
    ]
    figures += [_extra(battle, side, system, data, i + 1) for i, data in enumerate(choice.extras)]
    if not figures:
        raise ValidationError({"sides": [f"{choice.force} brings no figure to the battle"]})
    return figures


@transaction.atomic
def battle_start(
    *,
    sides: Sequence[SideChoice],
    campaign: Campaign | None = None,
    scenario: str = "",
    campaign_date: date | None = None,
    options: Mapping[str, Any] | None = None,
    user: User | None = None,
    one_phone: bool = True,
) -> Battle:
    """Set up a battle between two or more forces, with a seed committed to by its hash.

    A campaign's battle plays under the campaign's newest house rules, fixed on the battle.
    Forces of one campaign make that campaign's battle even when no campaign is named.
    `one_phone=False`: each player acts only for their own side, on their own phone.
    """
    campaign = campaign_of_forces(sides, campaign)
    house_rules = house_rules_current(campaign) if campaign is not None else None
    system = rules_under(_check_forces(sides, campaign), house_rules)
    seed, digest = new_seed()
    battle = Battle.objects.create(
        campaign=campaign,
        system=system.key,
        house_rules=house_rules,
        scenario=scenario,
        seed=seed,
        seed_sha256=digest,
        campaign_date=campaign_date or (campaign.calendar_date if campaign else None),
        options=battle_options(system, campaign, options),
        created_by=user,
        one_phone=one_phone,
    )
    figures: list[BattleFigure] = []
    for index, choice in enumerate(sides):
        side = BattleSide.objects.create(battle=battle, index=index, force=choice.force)
        figures += _side_figures(battle, side, system, choice)
    BattleFigure.objects.bulk_create(figures)
    return battle
