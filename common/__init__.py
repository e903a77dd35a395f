"""Plumbing every app shares: query helpers, Celery tasks queued after commit, and the fields,
forms and serializers a rule system's schema drives. It imports no app, so any app may use it
(the rung above `rules/` in tests/test_import_graph.py)."""
