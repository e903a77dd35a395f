"""Fixtures shared with the battle tests."""

from tests.battles.conftest import cast  # noqa: F401  (a fixture: the Brandywine cast)
