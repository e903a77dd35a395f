"""The event log is append-only: once written, only `voided`/`voided_at` may change.

A database trigger (PostgreSQL and SQLite) refuses any other UPDATE, so a mistaken event is
voided, never rewritten, whatever code path touches the table.
"""

from django.db import migrations

FROZEN = ("battle_id, seq, kind, actor_id, target_id, check_name, params, dice, dice_given, "
          "outcome, details, effects, state_before, turn, created_at")

PG_UP = [
    """CREATE OR REPLACE FUNCTION battles_event_append_only() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'battle_event_append_only: an event is voided, never rewritten'
            USING ERRCODE = '23000';
    END $$ LANGUAGE plpgsql""",
    f"""CREATE TRIGGER battle_event_append_only BEFORE UPDATE OF {FROZEN}
    ON battles_battleevent FOR EACH ROW EXECUTE FUNCTION battles_event_append_only()""",
]
PG_DOWN = [
    "DROP TRIGGER IF EXISTS battle_event_append_only ON battles_battleevent",
    "DROP FUNCTION IF EXISTS battles_event_append_only()",
]
SQLITE_UP = [
    f"""CREATE TRIGGER IF NOT EXISTS battle_event_append_only BEFORE UPDATE OF {FROZEN}
    ON battles_battleevent FOR EACH ROW
    BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: battle_event_append_only'); END""",
]
SQLITE_DOWN = ["DROP TRIGGER IF EXISTS battle_event_append_only"]


def _run(statements: dict[str, list[str]]):  # type: ignore[no-untyped-def]  # a migration helper
    def run(apps, schema_editor) -> None:  # type: ignore[no-untyped-def]  # historical apps
        for statement in statements.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [("battles", "0001_initial")]

    operations = [
        migrations.RunPython(
            _run({"postgresql": PG_UP, "sqlite": SQLITE_UP}),
            _run({"postgresql": PG_DOWN, "sqlite": SQLITE_DOWN}),
        ),
    ]
