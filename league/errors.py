"""Errors the league services raise besides Django's ValidationError (a 400)."""

from __future__ import annotations


class LeagueConflict(Exception):
    """The pairing or round moved on under the caller (confirmed by someone else, locked...).

    The API answers 409 and the admin shows the message: the request was well formed, but
    someone else got there first.
    """
