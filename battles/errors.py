"""Errors the battle services raise besides Django's ValidationError (a 400)."""

from __future__ import annotations


class BattleConflict(Exception):
    """The battle is in the wrong state for this (finishing twice, editing a processed battle).

    The API answers 409: the request was well formed, but the battle has moved on.
    """
