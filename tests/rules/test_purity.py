"""The rules engine stays pure Python: no Django, no app, no clock, no global random."""

import ast
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "rules"
FORBIDDEN_ROOTS = {
    "django",
    "rest_framework",
    "celery",
    "rosters",
    "battles",
    "campaigns",
    "league",
    "printing",
    "config",
    "random",
    "time",
}


def _imported_roots(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module.split(".")[0]


def test_rules_imports_no_framework_app_clock_or_global_random():
    offenders = {
        f"{path.relative_to(RULES)}: {root}"
        for path in RULES.rglob("*.py")
        for root in _imported_roots(path)
        if root in FORBIDDEN_ROOTS
    }
    assert not offenders


def test_rules_never_calls_datetime_now_or_today():
    offenders = [
        str(path.relative_to(RULES))
        for path in RULES.rglob("*.py")
        if any(token in path.read_text() for token in ("datetime.now", "date.today", ".utcnow("))
    ]
    assert not offenders
