"""What the battles app announces to the apps above it (the notices).

Battles never import who listens (tests/test_import_graph.py); an app above connects a
receiver when it loads.
"""

from django.dispatch import Signal

#: A finished battle's post-battle rolls are done and committed. Sent with `battle_id`.
battle_processed = Signal()

#: A result was reported and waits for the other sides to confirm. Sent with `battle_id`, `by`.
battle_reported = Signal()

#: A reported result was disputed and waits for an organiser. Sent with `battle_id`, `by`.
battle_disputed = Signal()
