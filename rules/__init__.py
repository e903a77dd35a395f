"""Muster's rules engine: pure Python, no Django. Dice in, outcomes and exact odds out."""

from rules.system import all_systems, get_system

__all__ = ["all_systems", "get_system"]
