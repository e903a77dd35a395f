"""Which rules a force's figures are kept by: the campaign's, under its current house rules."""

from __future__ import annotations

from campaigns.services.house_rules import rules_for_campaign
from common.stats import system_for
from rosters.models import Force
from rules.system import RuleSystem


def rules_for_force(force: Force) -> RuleSystem:
    """The rule system a force's figures are kept by: its campaign's, under the campaign's
    current house rules (a weapon the club added is one a figure may carry); a force outside
    any campaign keeps the rules as written."""
    if force.campaign is None:
        return system_for(force.system)
    return rules_for_campaign(force.campaign)
