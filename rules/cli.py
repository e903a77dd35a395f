"""The rules CLI (a contract): systems, odds, roll, tables. JSON on stdout; errors exit 2."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from rules import narrate
from rules.dice import CURRENT_SCHEME, SCHEMES, Dice, GivenDice, SeededDice, parse_given
from rules.errors import RulesError
from rules.schema import parse_assignments
from rules.system import all_systems, get_system

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's usage errors: one line, exit 2
        raise RulesError(message)


def _parser() -> argparse.ArgumentParser:
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
        type=int,
        choices=SCHEMES,
        default=CURRENT_SCHEME,
        help=f"how --seed becomes dice (default {CURRENT_SCHEME}; 1 for battles set up before "
        "2026-11-22)",
    )
    tables = sub.add_parser("tables", help="a system's reference tables")
    tables.add_argument("system")
    tables.add_argument(
        "options",
        nargs="*",
        metavar="name=value",
        help="campaign options (house rules) that change the tables",
    )
    return parser


def _systems() -> dict[str, Any]:
    return {"systems": [system.as_json() for system in all_systems()]}


def _odds(args: argparse.Namespace) -> dict[str, Any]:
    check = get_system(args.system).check(args.check)
    params = check.params.validate(parse_assignments(args.params))
    odds = check.odds(params)
    return {"system": args.system, "check": args.check, "params": params, **odds.as_json()}


def _roll(args: argparse.Namespace) -> dict[str, Any]:
    check = get_system(args.system).check(args.check)
    dice: Dice
    seed = None
    if args.dice is not None:
        dice = GivenDice(parse_given(args.dice))
    else:
        seed = args.seed if args.seed is not None else _fresh_seed()
        dice = SeededDice(seed, f"cli/{args.system}/{args.check}", args.scheme)
    resolution = check.resolve(parse_assignments(args.params), dice)
    if isinstance(dice, GivenDice):
        dice.ensure_all_used()
    result = {"system": args.system, **resolution.as_json()}
    # The same plain words the table shows, so a roll at the terminal reads as one at the table.
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


def _tables(args: argparse.Namespace) -> dict[str, Any]:
    system = get_system(args.system)
    options = system.options.validate(parse_assignments(args.options))
    return {"system": system.key, "options": options, "tables": system.tables(options)}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the process exit code."""
    try:
        args = _parser().parse_args(argv)
        handler = {
            "systems": lambda a: _systems(),
            "odds": _odds,
            "roll": _roll,
            "tables": _tables,
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
