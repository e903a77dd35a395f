"""Errors the league core raises; each message says what to change."""

from __future__ import annotations

from collections.abc import Mapping


class LeagueError(ValueError):
    """Base class for every error the league core raises on bad input."""


class SettingsError(LeagueError):
    """League settings are invalid; `errors` maps each setting to its message."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        self.errors: dict[str, str] = dict(errors)
        super().__init__("; ".join(f"{name}: {msg}" for name, msg in self.errors.items()))


class PairingError(LeagueError):
    """No valid pairing exists, or a schedule or manual round is malformed."""


class ResultError(LeagueError):
    """A result or adjustment is inconsistent (unknown player, winner not in the game...)."""
