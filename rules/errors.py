"""Errors the rules engine raises; each carries a message a player can act on."""

from __future__ import annotations

from collections.abc import Mapping


class RulesError(Exception):
    """Base class for every error the rules engine raises on bad input."""


class UnknownSystem(RulesError):
    """No rule system is registered under that key."""


class UnknownCheck(RulesError):
    """The rule system has no check of that name."""


class ValidationError(RulesError):
    """One or more fields are invalid; `errors` maps each field to its message."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        self.errors: dict[str, str] = dict(errors)
        super().__init__("; ".join(f"{name}: {msg}" for name, msg in self.errors.items()))


class DiceError(RulesError):
    """Given dice were too few, too many or not faces of the die asked for."""
