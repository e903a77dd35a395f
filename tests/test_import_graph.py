"""The apps form a ladder, not a web: each app imports only the apps on the rungs below it, and
its data points only down the ladder too.

Every import in every module of every app is read with `ast`: at the top of a file, inside a
function, under `if TYPE_CHECKING:`, and `importlib.import_module("...")` with a literal name.
An import moved into a function to dodge a cycle is still an import, so it still fails here.
So is a foreign key (every ForeignKey, OneToOne and ManyToMany of every model of ours, read
from the loaded models) and a model named by a string in the code (`apps.get_model("battles",
"Battle")`, `get_model("battles.Battle")`, a foreign key to `"battles.Battle"`): a model of an
app above is reached up the ladder however it is named. When a lower app must tell a higher
one something, it sends a signal (battles.signals, league.signals); the higher app imports
the lower one, never the other way round.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Bottom to top. An app imports only apps on lower rungs; apps on one rung do not import each
#: other. `common` is the plumbing every app shares (query helpers, queueing after commit,
#: rule-schema fields); `config` (settings, URLs, the Celery app) sits on top of everything.
LADDER: tuple[tuple[str, ...], ...] = (
    ("rules",),
    ("common",),
    ("campaigns",),
    ("rosters",),
    ("battles",),
    ("league",),
    ("chronicle", "ratings"),
    ("notices",),
    ("printing",),
    ("pages", "campaign_backup"),
    ("config",),
)
RUNG = {app: height for height, rung in enumerate(LADDER) for app in rung}

#: Top-level packages that are not apps: they may import any app and no app imports them.
NOT_APPS = {
    "tests": "the test suite",
    "bench": "the benchmarks",
}

#: Imports that break the ladder on purpose, by (file, module imported), each with its reason.
ALLOWED = {
    (
        "campaigns/migrations/0004_invitations_join_requests_and_reports.py",
        "rosters",  # from rosters import db_constraints
    ): "history: on SQLite the rosters' triggers name campaigns_campaign, so this migration "
    "takes them off around the table rebuild; the migration loader runs it, no app imports it",
}

#: What the pure rules engine may never import, besides the apps.
FRAMEWORKS = {"django", "rest_framework", "celery"}


def imports_in(source: str) -> list[tuple[int, str]]:
    """Return (line, module) for every import in `source`, wherever it sits in the file."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Call) and _names_import_module(node.func) and node.args:
            name = _literal_prefix(node.args[0])
            if name:
                found.append((node.lineno, name))
    return found


def _names_import_module(func: ast.expr) -> bool:
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in ("import_module", "__import__")


def _literal_prefix(arg: ast.expr) -> str:
    """The module a literal (or an f-string's leading text) names: "rules.systems.{key}" gives
    "rules.systems."; a name computed at run time gives ""."""
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    if isinstance(arg, ast.JoinedStr) and arg.values:
        first = arg.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return ""


def _root(module: str) -> str:
    return module.split(".")[0]


def _files(app: str) -> list[Path]:
    return sorted(p for p in (ROOT / app).rglob("*.py") if "__pycache__" not in p.parts)


@cache
def _edges() -> dict[tuple[str, str], list[str]]:
    """Map (importer app, imported app) to the "file:line module" of each import between them."""
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for app in RUNG:
        for path in _files(app):
            where = path.relative_to(ROOT).as_posix()
            for line, module in imports_in(path.read_text(encoding="utf-8")):
                target = _root(module)
                if target in RUNG and target != app and (where, module) not in ALLOWED:
                    edges[(app, target)].append(f"{where}:{line} imports {module}")
    return edges


def _cycles(edges: dict[tuple[str, str], list[str]]) -> list[list[str]]:
    """Return one cycle (a list of apps, first repeated last) per back edge a depth-first walk
    of the app graph meets."""
    graph: dict[str, list[str]] = defaultdict(list)
    for importer, imported in sorted(edges):
        graph[importer].append(imported)
    cycles, state, path = [], {}, []

    def visit(app: str) -> None:
        state[app] = "open"
        path.append(app)
        for nxt in graph[app]:
            if state.get(nxt) == "open":
                cycles.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                visit(nxt)
        state[app] = "done"
        path.pop()

    for app in sorted(graph):
        if app not in state:
            visit(app)
    return cycles


def _describe(cycle: list[str], edges: dict[tuple[str, str], list[str]]) -> str:
    lines = [" -> ".join(cycle)]
    for importer, imported in pairwise(cycle):
        lines.append(f"  {importer} -> {imported}:")
        lines += [f"    {site}" for site in edges[(importer, imported)]]
    return "\n".join(lines)


# --- the scanner itself ------------------------------------------------------------------------


def test_the_scanner_sees_imports_hidden_in_functions_and_type_checking_blocks():
    source = (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from battles.models import Battle\n"
        "def announce():\n"
        "    from notices.services import result_written\n"
        "    import ratings.services\n"
        "    importlib.import_module('printing.jobs')\n"
        "    return import_module(f'rules.systems.{key}.tables')\n"
        "from . import selectors\n"
    )

    found = imports_in(source)

    assert sorted(found) == [
        (1, "typing"),
        (3, "battles.models"),
        (5, "notices.services"),
        (6, "ratings.services"),
        (7, "printing.jobs"),
        (8, "rules.systems."),
    ]


def test_the_cycle_finder_names_each_edge_of_a_cycle_with_its_file_and_line():
    edges = {
        ("campaigns", "battles"): ["campaigns/services/results.py:294 imports battles.services"],
        ("battles", "campaigns"): ["battles/services/setup.py:19 imports campaigns.models"],
    }

    (cycle,) = _cycles(edges)

    assert cycle == ["battles", "campaigns", "battles"]
    assert "campaigns/services/results.py:294 imports battles.services" in _describe(cycle, edges)


# --- the ladder --------------------------------------------------------------------------------


def test_every_package_in_the_repository_is_an_app_on_the_ladder_or_named_as_not_an_app():
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} | {
        p.name
        for p in ROOT.iterdir()
        if p.is_dir() and not p.name.startswith(".") and any(p.glob("*.py"))
    }

    assert packages - set(RUNG) - set(NOT_APPS) == set()


def test_every_installed_app_of_ours_is_on_the_ladder(settings):
    ours = {name.split(".")[0] for name in settings.INSTALLED_APPS if (ROOT / name).is_dir()}

    assert ours <= set(RUNG)


def test_the_apps_import_each_other_without_a_cycle():
    edges = _edges()

    cycles = _cycles(edges)

    assert not cycles, "import cycles between apps:\n" + "\n".join(
        _describe(cycle, edges) for cycle in cycles
    )


@pytest.mark.parametrize("app", list(RUNG))
def test_an_app_imports_only_apps_on_lower_rungs(app):
    upward = {
        (importer, imported): sites
        for (importer, imported), sites in _edges().items()
        if importer == app and RUNG[imported] >= RUNG[importer]
    }

    assert not upward, f"{app} (rung {RUNG[app]}) imports apps on its rung or above:\n" + "\n".join(
        f"  {imported} (rung {RUNG[imported]}):\n" + "\n".join(f"    {s}" for s in sites)
        for (_, imported), sites in sorted(upward.items())
    )


def test_each_allowed_exception_is_still_in_the_code():
    stale = [
        f"{where} no longer imports {module}"
        for where, module in ALLOWED
        if module not in {m for _, m in imports_in((ROOT / where).read_text(encoding="utf-8"))}
    ]

    assert not stale


def test_rules_imports_no_app_and_no_framework():
    offenders = [
        f"{path.relative_to(ROOT).as_posix()}:{line} imports {module}"
        for path in _files("rules")
        for line, module in imports_in(path.read_text(encoding="utf-8"))
        if _root(module) in (set(RUNG) - {"rules"}) | FRAMEWORKS
    ]

    assert not offenders, "\n".join(offenders)


# --- data: foreign keys and models named by strings -------------------------------------------


def model_strings_in(source: str) -> list[tuple[int, str]]:
    """Return (line, "app.Model") for every model a call names by string in `source`:
    `get_model("app", "Model")`, `get_model("app.Model")`, and the target of a relation field
    (`ForeignKey("app.Model", ...)`, `to="app.Model"`)."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = (
            node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        )
        strings = [
            a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
        ]
        if name == "get_model" and len(strings) == 2:
            found.append((node.lineno, f"{strings[0]}.{strings[1]}"))
        elif name == "get_model" and strings:
            found.append((node.lineno, strings[0]))
        elif name in RELATIONS:
            targets = strings[:1] + [
                k.value.value
                for k in node.keywords
                if k.arg == "to"
                and isinstance(k.value, ast.Constant)
                and isinstance(k.value.value, str)
            ]
            found += [(node.lineno, t) for t in targets if "." in t]
    return found


RELATIONS = {"ForeignKey", "OneToOneField", "ManyToManyField"}


def _code_files(app: str) -> list[Path]:
    """An app's code: its migrations are history (they name the models as they were then)."""
    return [p for p in _files(app) if "migrations" not in p.parts]


def _upward_strings() -> list[str]:
    upward = []
    for app in RUNG:
        for path in _code_files(app):
            where = path.relative_to(ROOT).as_posix()
            for line, label in model_strings_in(path.read_text(encoding="utf-8")):
                target = label.split(".")[0].lower()
                if target in RUNG and RUNG[target] > RUNG[app]:
                    upward.append(f"{where}:{line} names {label} ({app} -> {target})")
    return upward


def _upward_relations() -> list[str]:
    from django.apps import apps

    upward = []
    for model in apps.get_models():
        app = model._meta.app_label
        if app not in RUNG:
            continue
        for field in model._meta.get_fields(include_hidden=True):
            if not (field.is_relation and field.concrete) or field.related_model is None:
                continue
            target = field.related_model._meta.app_label
            if target in RUNG and RUNG[target] > RUNG[app]:
                upward.append(
                    f"{model._meta.label}.{field.name} -> {field.related_model._meta.label}"
                )
    return upward


def test_the_string_scanner_reads_get_model_and_relation_targets():
    source = (
        "Battle = apps.get_model('battles', 'Battle')\n"
        "job = get_model('printing.PrintJob')\n"
        "pairing = models.OneToOneField('league.Pairing', on_delete=models.PROTECT)\n"
        "club = models.ForeignKey(to='campaigns.Club', on_delete=models.CASCADE)\n"
        "user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)\n"
    )

    assert model_strings_in(source) == [
        (1, "battles.Battle"),
        (2, "printing.PrintJob"),
        (3, "league.Pairing"),
        (4, "campaigns.Club"),
    ]


def test_no_app_names_a_model_of_an_app_above_it_by_string():
    upward = _upward_strings()

    assert not upward, "models named up the ladder:\n" + "\n".join(upward)


@pytest.mark.django_db(databases=[])
def test_every_foreign_key_points_down_the_ladder():
    upward = _upward_relations()

    assert not upward, "relations up the ladder:\n" + "\n".join(upward)


def test_the_old_layout_fails_the_data_checks():
    """Before the league had its app, `campaigns.Pairing.battle` pointed at battles, a rung
    above, and the desk looked battles up by string: both checks see that layout."""
    old_model = "battle = models.OneToOneField('battles.Battle', on_delete=models.PROTECT)\n"
    old_desk = "battle_model = apps.get_model('battles', 'Battle')\n"

    labels = [label for _, label in model_strings_in(old_model + old_desk)]

    assert labels == ["battles.Battle", "battles.Battle"]
    assert all(RUNG[label.split(".")[0]] > RUNG["campaigns"] for label in labels)
