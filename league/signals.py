"""What the league announces to the apps above it (the club rating, the notices, printing),
and the two questions it asks them.

The league sits above battles and below ratings on the ladder (tests/test_import_graph.py):
it says that something happened and never imports who listens. Each signal is sent inside the
transaction that wrote the change, so a listener's writes commit or roll back with it. Django
calls the listeners in the order they connected, which is INSTALLED_APPS order: the rating is
recorded before the notices are written (neither reads the other's rows).
"""

from django.dispatch import Signal

#: A pairing's result was reported or confirmed. Sent with `pairing`, `confirmed` (an
#: organiser's confirmation, or a player's report) and `by` (the user who wrote it).
result_written = Signal()

#: A round was paired and its pairings stored. Sent with `round_`.
round_paired = Signal()

#: A question, not news: round 1 of a Swiss league seeded by club rating. The rating sits
#: above the league (a rated game keeps its pairing), so it answers here. Sent with
#: `campaign` and `rows` (the table's `Ranked` rows); a receiver returns the rows as
#: `Entrant`s, best seed first (ratings.apps connects `ratings.selectors.seeded_by_rating`).
swiss_seeding = Signal()

#: A question, not news: what else waits for an organiser on the desk, from the apps above
#: (printing's failed jobs). Sent with `campaign_ids`; a receiver returns (desk field, rows),
#: each row with a `campaign_id`.
desk_attention = Signal()
