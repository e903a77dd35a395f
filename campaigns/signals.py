"""What the league announces to the apps above it (the club rating, the notices).

Campaigns sit low on the ladder (tests/test_import_graph.py): they say that something happened
and never import who listens. Each signal is sent inside the transaction that wrote the change,
so a listener's writes commit or roll back with it. Django calls the listeners in the order
they connected, which is INSTALLED_APPS order: the rating is recorded before the notices are
written, as when the result services called both by name (neither reads the other's rows).
"""

from django.dispatch import Signal

#: A pairing's result was reported or confirmed. Sent with `pairing`, `confirmed` (an
#: organiser's confirmation, or a player's report) and `by` (the user who wrote it).
result_written = Signal()

#: A round was paired and its pairings stored. Sent with `round_`.
round_paired = Signal()
