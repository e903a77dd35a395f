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

#: An unfinished battle is about to be deleted (abandoned by its creator). Sent with
#: `battle_id`, inside the deleting transaction: an app above unlinks its rows from it (a
#: league game set up with it goes back to waiting for one).
battle_abandoning = Signal()

#: A question, not news: the last day the other sides have to answer this battle's report,
#: when an app above sets one (a league game answers by its round's deadline). Sent with
#: `battle_id`; a receiver returns a `datetime.date`, or None when it sets no day.
battle_answer_day = Signal()
