"""The rule systems. Importing this package registers each of them.

Each module's import is guarded only by its own existence, never by a try/except that would
hide a broken system: a system that fails to import is a bug the tests must see.
"""

from importlib import import_module

SYSTEM_MODULES = (
    "rules.systems.rencounter",
    "rules.systems.grits_and_glory",
    "rules.systems.escarmouche",
    "rules.systems.game_the_90",
    "rules.systems.d12_skirmish",
)

for _module in SYSTEM_MODULES:
    try:
        import_module(_module)
    except ModuleNotFoundError as exc:  # only a system not written yet is skipped
        if exc.name != _module:
            raise
