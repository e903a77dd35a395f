"""Roster admin: forces with their units and characters inline, characters with their
service record and history (one module a page; what they share is `common`)."""

from rosters.admin import characters, forces

__all__ = ["characters", "forces"]
