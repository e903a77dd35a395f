"""The crawl of the house-rules editor: every link and button of the page (Preview, Save, each
table's "Add a row", export, import, copy) pressed by every actor, first while the campaign plays
the rules as written, then once it has versions and another campaign to copy from."""

from __future__ import annotations

from typing import Any

import pytest

from campaigns.models import Role
from campaigns.services.house_rules import house_rules_save
from rules import house
from tests.crawl.crawler import Caps, Crawl, clean, report
from tests.crawl.world import ACTORS, STAFF, World, make_world
from tests.factories import CampaignFactory, MembershipFactory

# A whole-site crawl: `make test-crawl` runs these (on PostgreSQL), not `make test`.
pytestmark = pytest.mark.crawl

SYSTEM = "rencounter"
#: Only the editor's own routes are followed from the seeds (the rest of the site has its crawls).
EDITOR_ONLY = {"campaigns/<int:pk>/house-rules": 10, "admin/campaigns/campaign/<path:object_id>": 0}


def _seeds(world: World) -> list[str]:
    here = f"/campaigns/{world.campaign.pk}/house-rules/"
    return [
        here,
        f"{here}export.json",
        f"/admin/campaigns/campaign/{world.campaign.pk}/house-rules/",
    ]


def _crawl(world: World, state: str) -> tuple[str, set[str]]:
    """The report, and the buttons of the editor's forms the organiser pressed (by name, or the
    form's own path for a form with one button)."""
    crawls = []
    for n, actor in enumerate((*ACTORS, STAFF)):
        caps = Caps(forms_per_object=n in (0, 2), routes={**EDITOR_ONLY, "": 0})
        crawl = Crawl(world.client(actor), actor, lambda route, kwargs: state, caps)
        crawls.append(crawl.run(_seeds(world)))
    olivia = crawls[ACTORS.index("olivia (organiser)")]
    pressed = {name for _, _, names in olivia._forms for name in names}
    pressed |= {path for _, path, _ in olivia._forms if "house-rules" in path}
    return report(crawls), pressed


def _buttons(world: World) -> set[str]:
    here = f"/campaigns/{world.campaign.pk}/house-rules/"
    adds = {f"add-{t.name}" for t in world.system.house.tables if not t.fixed_rows}
    return {"save", "preview", *adds, here, f"{here}import/"}


def _with_versions(world: World) -> None:
    olivia = world.users["olivia (organiser)"]
    document: dict[str, Any] = house.template(world.system)
    table = next(t for t in world.system.house.tables if not t.fixed_rows and t.key)
    rows = document["tables"][table.name]
    added = {**rows[0], table.key: "crawl_special"}
    for note, tables in (
        ("first", {table.name: [*rows, added]}),
        ("second", {table.name: rows[1:]}),
    ):
        house_rules_save(
            campaign=world.campaign, document={**document, "tables": tables}, user=olivia, note=note
        )
    other = CampaignFactory(system=world.system.key, name="Crawl neighbours")
    MembershipFactory(user=olivia, campaign=other, role=Role.ORGANISER)
    house_rules_save(campaign=other, document=document, user=olivia, note="theirs")


def test_no_button_of_the_house_rules_editor_answers_a_server_error(crawled_worlds):
    (world,) = crawled_worlds([make_world(SYSTEM, every_state=False, house_rules=())])

    before, pressed_before = _crawl(world, f"{SYSTEM}: no house rules yet")
    _with_versions(world)
    after, pressed_after = _crawl(world, f"{SYSTEM}: with versions")

    assert clean(before), before
    assert clean(after), after
    copy = f"/campaigns/{world.campaign.pk}/house-rules/copy/"
    assert _buttons(world) <= pressed_before and copy not in pressed_before
    assert _buttons(world) | {copy} <= pressed_after
