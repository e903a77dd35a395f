"""The league in the Django admin, one module per page: the campaign page with the league and
the organiser's desk (`campaign`), rounds (`rounds`), pairings and adjustments (`pairings`)."""

from league.admin import campaign, pairings, rounds

__all__ = ["campaign", "pairings", "rounds"]
