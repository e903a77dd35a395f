"""The chronicle as a print context: plain strings for `templates/printing/chronicle.html`.

The campaign's chronicle, then each fought battle's report with its players' own paragraphs
(marked as theirs), then the obituaries of the fallen. `printing` renders it on its own and in
the game-night packet and the campaign report.
"""

from __future__ import annotations

from campaigns.models import Campaign, display_name
from chronicle.campaigns import campaign_battles, campaign_chronicle, fallen
from chronicle.careers import character_story
from chronicle.reports import battle_report
from chronicle.selectors import report_paragraphs
from chronicle.text import Story
from common.json_types import JSONObject


def _story(story: Story) -> JSONObject:
    return {
        "title": story.title,
        "subtitle": story.subtitle,
        "sections": [
            {"title": s.title, "sentences": [x.text for x in s.sentences]} for s in story.sections
        ],
    }


def chronicle_context(campaign: Campaign, *, battles: int | None = None) -> dict[str, object]:
    """Return the print context; `battles` keeps only the latest reports (None: every one)."""
    fought = campaign_battles(campaign)
    if battles is not None:
        fought = fought[-battles:] if battles else []
    reports = []
    for battle in fought:
        report = _story(battle_report(battle))
        report["paragraphs"] = [
            {"author": display_name(p.author), "text": p.text} for p in report_paragraphs(battle)
        ]
        reports.append(report)
    return {
        "title": f"{campaign.name} — chronicle",
        "chronicle": _story(campaign_chronicle(campaign)),
        "reports": reports,
        "obituaries": [_story(character_story(c)) for c in fallen(campaign)],
    }
