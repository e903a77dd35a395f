"""Shared fixtures for the Django tests."""
