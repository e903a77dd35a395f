"""The campaign backup sits above the apps it reads: none of them imports it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS_BELOW = ("rules", "campaigns", "rosters", "battles", "league", "printing", "pages")


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


@pytest.mark.parametrize("app", APPS_BELOW)
def test_no_app_below_imports_the_campaign_backup(app):
    importers = [
        str(path.relative_to(ROOT))
        for path in (ROOT / app).rglob("*.py")
        if any(m.split(".")[0] == "campaign_backup" for m in _imported_modules(path))
    ]

    assert importers == []


def test_the_backup_reads_the_apps_it_spans():
    modules = _imported_modules(ROOT / "campaign_backup" / "campaign.py")

    assert {"rosters.models", "battles.models", "campaigns.models"} <= modules
