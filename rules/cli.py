"""The rules CLI (a contract): systems, odds, roll, tables. JSON on stdout; errors exit 2."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from rules.dice import CURRENT_SCHEME, SCHEMES, Dice, GivenDice, SeededDice, parse_given
from rules.errors import RulesError
from rules.schema import parse_assignments
from rules.system import RuleSystem, all_systems, get_system

if TYPE_CHECKING:
    import argparse

    #: A command line as read: by argparse, or by `_plain_odds` when there is nothing to decide.
    Arguments = argparse.Namespace | SimpleNamespace

EXIT_BAD_INPUT = 2


#: What a number looks like on the command line: ASCII digits, an optional sign and fraction.
#: int() and float() also take `1_0` and full-width digits; a typo should not become a value.
PLAIN_NUMBER = re.compile(r"[+-]?[0-9]+(\.[0-9]+)?")
PLAIN_DIE = re.compile(r"[0-9]+")


def _looks_numeric(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return any(ch.isdigit() for ch in value)


def _check_text(argv: Sequence[str]) -> None:
    """Refuse arguments that are not UTF-8 (the shell passed bytes Python could not decode)."""
    for position, arg in enumerate(argv, start=1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            raise RulesError(f"argument {position} is not UTF-8 text") from None


def _assignments(pairs: Sequence[str]) -> dict[str, str]:
    """Parse name=value words, refusing a name given twice and numbers written oddly."""
    seen: set[str] = set()
    for pair in pairs:
        name, _, value = pair.partition("=")
        name, value = name.strip(), value.strip()
        if name in seen:
            raise RulesError(f"parameter {name!r} is given twice")
        seen.add(name)
        if _looks_numeric(value) and not PLAIN_NUMBER.fullmatch(value):
            raise RulesError(f"{name}: {value!r} is not a number written with the digits 0-9")
    return parse_assignments(pairs)


def _given_dice(text: str) -> list[int]:
    """Parse --dice: values separated by commas (or spaces); no empty entries, digits 0-9.

    An empty text is no dice at all: a check that needs none (a direct order, a reserve) then
    resolves, and one that needs some says which die is missing.
    """
    if not text.strip():
        return []
    for entry in text.split(","):
        if not entry.strip():
            raise RulesError(f"--dice has an empty entry in {text!r}: give one value per comma")
        for value in entry.split():
            if not PLAIN_DIE.fullmatch(value):
                raise RulesError(f"--dice: {value!r} is not a whole number written with 0-9")
    return parse_given(text)


def _scheme(text: str) -> int:
    if not PLAIN_DIE.fullmatch(text):
        import argparse

        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number written with 0-9")
    return int(text)


def _plain_odds(words: Sequence[str]) -> SimpleNamespace | None:
    """`odds SYSTEM CHECK name=value...` with no option at all, read without argparse.

    Building the parser imports argparse, gettext, locale and shutil (with bz2 and lzma) and
    looks up translations for every help text: most of what a cold `odds` spends outside its
    system. With no word starting with "-" there is nothing for argparse to decide, and the
    namespace is the one it would build; anything else (an option, too few words) goes to it.
    """
    if len(words) < 3 or words[0] != "odds" or any(word.startswith("-") for word in words):
        return None
    return SimpleNamespace(
        command="odds", system=words[1], check=words[2], params=list(words[3:]), house=None
    )


def _parser() -> argparse.ArgumentParser:
    import argparse  # only for a command line `_plain_odds` does not read

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> Any:  # argparse's usage errors: one line, exit 2
            raise RulesError(message)

    parser = _Parser(prog="python -m rules", description="Muster's rules engine")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("systems", help="systems, their checks, parameters and outcome keys")
    odds = sub.add_parser("odds", help="exact distribution of a check's outcomes")
    odds.add_argument("system")
    odds.add_argument("check")
    odds.add_argument("params", nargs="*", metavar="name=value")
    roll = sub.add_parser("roll", help="resolve a check with seeded or given dice")
    roll.add_argument("system")
    roll.add_argument("check")
    roll.add_argument("params", nargs="*", metavar="name=value")
    source = roll.add_mutually_exclusive_group()
    source.add_argument("--seed", help="seed for reproducible dice (default: a fresh random one)")
    source.add_argument("--dice", help="dice rolled at the table, in order, e.g. 6,6,2,1")
    roll.add_argument(
        "--scheme",
        type=_scheme,
        choices=SCHEMES,
        default=CURRENT_SCHEME,
        help=f"how --seed becomes dice (default {CURRENT_SCHEME}; 1 for battles set up before "
        "2026-11-22)",
    )
    tables = sub.add_parser("tables", help="a system's reference tables")
    tables.add_argument("system")
    for command in (odds, roll, tables):
        command.add_argument(
            "--house", metavar="FILE", help="a house-rules pack (JSON) to apply; - reads stdin"
        )
    template = sub.add_parser(
        "house-template", help="a house-rules pack of every editable table as it stands"
    )
    template.add_argument("system")
    tables.add_argument(
        "options",
        nargs="*",
        metavar="name=value",
        help="campaign options (house rules) that change the tables",
    )
    return parser


def _systems() -> dict[str, Any]:
    return {"systems": [system.as_json() for system in all_systems()]}


#: A pack is a few tables of a few hundred rows: a file far bigger than this is not one.
MAX_PACK_BYTES = 1_000_000


def _system(args: Arguments) -> RuleSystem:
    """The system asked for, under the `--house` pack if one was given."""
    system = get_system(args.system)
    path = getattr(args, "house", None)
    if path is None:
        return system
    from rules import house

    return system.with_house(house.read_pack_file(path, MAX_PACK_BYTES))


def _odds(args: Arguments) -> dict[str, Any]:
    check = _system(args).check(args.check)
    params = check.params.validate(_assignments(args.params))
    odds = check.odds(params)
    return {"system": args.system, "check": args.check, "params": params, **odds.as_json()}


def _roll(args: Arguments) -> dict[str, Any]:
    check = _system(args).check(args.check)
    dice: Dice
    seed = None
    if args.dice is not None:
        dice = GivenDice(_given_dice(args.dice))
    else:
        seed = args.seed if args.seed is not None else _fresh_seed()
        dice = SeededDice(seed, f"cli/{args.system}/{args.check}", args.scheme)
    resolution = check.resolve(_assignments(args.params), dice)
    if isinstance(dice, GivenDice):
        dice.ensure_all_used()
    result = {"system": args.system, **resolution.as_json()}
    # The same plain words the table shows, so a roll at the terminal reads as one at the table.
    from rules import narrate  # only `roll` words its result; `odds` need not load it

    result["sentence"] = narrate.event_sentence(args.system, result)
    result["dice_text"] = narrate.dice_text(result["dice"])
    if seed is not None:
        result["seed"] = seed  # pass it back with --seed to reproduce these dice
        result["scheme"] = args.scheme
    return result


def _fresh_seed() -> str:
    # The CLI is the one place a fresh seed is made; the engine itself never reads entropy.
    import secrets

    return secrets.token_hex(16)


def _tables(args: Arguments) -> dict[str, Any]:
    system = _system(args)
    options = system.options.validate(_assignments(args.options))
    tables = system.tables(options)
    result: dict[str, Any] = {"system": system.key, "options": options, "tables": tables}
    if system.pack is not None:
        result["house_rules"] = {
            "pack": system.pack.digest,
            "changed": list(system.pack.changed_tables()),
        }
    printed_only = _printed_only(system, tables)
    if printed_only is not None:  # the cells the sheet marks as printed only
        result["printed_only"] = printed_only
    return result


def _printed_only(system: RuleSystem, tables: Mapping[str, Any]) -> dict[str, Any] | None:
    """The printed-only columns these tables show, as the sheet marks them (`rules.printed`)."""
    from importlib import import_module

    from rules import printed

    reference = import_module(f"rules.systems.{system.key}.reference")
    return printed.shown(getattr(reference, "PRINTED_ONLY", ()), tables)


def _house_template(args: Arguments) -> dict[str, Any]:
    from rules import house

    return house.template(get_system(args.system))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the process exit code."""
    try:
        words = list(sys.argv[1:] if argv is None else argv)
        _check_text(words)
        args = _plain_odds(words) or _parser().parse_args(words)
        handler = {
            "systems": lambda a: _systems(),
            "odds": _odds,
            "roll": _roll,
            "tables": _tables,
            "house-template": _house_template,
        }[args.command]
        output = handler(args)
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        json.dump(output, sys.stdout, indent=2, default=str)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:  # `python -m rules systems | head` is not an error
        sys.stderr.close()
    return 0
