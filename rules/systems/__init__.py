"""The rule systems, one subpackage each, registered when imported.

Importing this package imports none of them: `rules.system.get_system(key)` imports just the
system asked for (a cold `python -m rules odds rencounter ...` need not load the other four),
and `all_systems()` imports every one. A system that fails to import is a bug the tests must
see, so nothing here hides an import error except a system not written yet.
"""

from importlib import import_module

#: Every system's key, in the order `all_systems()` lists them; each is `rules.systems.<key>`.
SYSTEM_KEYS = ("rencounter", "grits_and_glory", "escarmouche", "game_the_90", "d12_skirmish")
SYSTEM_MODULES = tuple(f"rules.systems.{key}" for key in SYSTEM_KEYS)


def load(key: str) -> None:
    """Import (and so register) the system `key`, if Muster has one by that name."""
    if key not in SYSTEM_KEYS:
        return
    module = f"rules.systems.{key}"
    try:
        import_module(module)
    except ModuleNotFoundError as exc:  # only a system not written yet is skipped
        if exc.name != module:
            raise


def load_all() -> None:
    for key in SYSTEM_KEYS:
        load(key)
