"""Cross-table invariants that Django cannot declare, installed as real database rules.

- A character's unit belongs to the character's force.
- A force in a campaign is played under the campaign's rule system.
- The service record is append-only (no row is rewritten).

PostgreSQL gets composite foreign keys, (unit, force) -> unit (id, force) and (campaign,
system) -> campaign (id, system), plus a trigger; SQLite gets triggers that do the same checks.
`install` is idempotent. It runs from a migration and again after every `migrate`, because
SQLite drops a table's triggers whenever Django rebuilds that table for a later migration.
"""

from __future__ import annotations

from django.db.backends.base.base import BaseDatabaseWrapper

_PG_FOREIGN_KEYS = {
    "character_unit_in_force": (
        "rosters_character",
        "FOREIGN KEY (unit_id, force_id) REFERENCES rosters_unit (id, force_id)",
    ),
    "force_system_matches_campaign": (
        "rosters_force",
        "FOREIGN KEY (campaign_id, system) REFERENCES campaigns_campaign (id, system)",
    ),
}

# Only the record's content is frozen: Django's SET_NULL on `user_id` must still work when a
# user account is deleted.
_FROZEN_COLUMNS = 'character_id, cause, "before", "after", note, battle_id, created_at'

_PG_APPEND_ONLY = [
    """CREATE OR REPLACE FUNCTION rosters_service_record_append_only() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'service_record_append_only: the service record is never rewritten'
            USING ERRCODE = '23000';
    END $$ LANGUAGE plpgsql""",
    "DROP TRIGGER IF EXISTS service_record_append_only ON rosters_servicerecordentry",
    f"""CREATE TRIGGER service_record_append_only
    BEFORE UPDATE OF {_FROZEN_COLUMNS} ON rosters_servicerecordentry
    FOR EACH ROW EXECUTE FUNCTION rosters_service_record_append_only()""",
]


def _sqlite_guard(name: str, event: str, table: str, when: str) -> str:
    return (
        f"CREATE TRIGGER IF NOT EXISTS {name} BEFORE {event} ON {table} FOR EACH ROW "
        f"WHEN {when} BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: {name}'); END"
    )


_UNIT_MISMATCH = (
    "NEW.unit_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM rosters_unit "
    "WHERE id = NEW.unit_id AND force_id = NEW.force_id)"
)
_SYSTEM_MISMATCH = (
    "NEW.campaign_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM campaigns_campaign "
    "WHERE id = NEW.campaign_id AND system = NEW.system)"
)

_SQLITE_GUARDS = [
    ("character_unit_in_force_ins", "INSERT", "rosters_character", _UNIT_MISMATCH),
    (
        "character_unit_in_force_upd",
        "UPDATE OF unit_id, force_id",
        "rosters_character",
        _UNIT_MISMATCH,
    ),
    (
        "unit_force_keeps_characters",
        "UPDATE OF force_id",
        "rosters_unit",
        "EXISTS (SELECT 1 FROM rosters_character WHERE unit_id = NEW.id "
        "AND force_id != NEW.force_id)",
    ),
    ("force_system_matches_campaign_ins", "INSERT", "rosters_force", _SYSTEM_MISMATCH),
    (
        "force_system_matches_campaign_upd",
        "UPDATE OF campaign_id, system",
        "rosters_force",
        _SYSTEM_MISMATCH,
    ),
    (
        "campaign_system_keeps_forces",
        "UPDATE OF system",
        "campaigns_campaign",
        "EXISTS (SELECT 1 FROM rosters_force WHERE campaign_id = NEW.id AND system != NEW.system)",
    ),
    (
        "service_record_append_only",
        f"UPDATE OF {_FROZEN_COLUMNS}",
        "rosters_servicerecordentry",
        "1",
    ),
]


def install(connection: BaseDatabaseWrapper) -> None:
    """Create the cross-table rules on this database if they are missing."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for name, (table, definition) in _PG_FOREIGN_KEYS.items():
                cursor.execute("SELECT 1 FROM pg_constraint WHERE conname = %s", [name])
                if cursor.fetchone() is None:
                    cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
            for statement in _PG_APPEND_ONLY:
                cursor.execute(statement)
        elif connection.vendor == "sqlite":
            for guard in _SQLITE_GUARDS:
                cursor.execute(_sqlite_guard(*guard))


def uninstall(connection: BaseDatabaseWrapper) -> None:
    """Drop the cross-table rules (for migrating backwards)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            for name, (table, _) in _PG_FOREIGN_KEYS.items():
                cursor.execute(f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {name}")
            cursor.execute(_PG_APPEND_ONLY[1])
            cursor.execute("DROP FUNCTION IF EXISTS rosters_service_record_append_only()")
        elif connection.vendor == "sqlite":
            for name, *_ in _SQLITE_GUARDS:
                cursor.execute(f"DROP TRIGGER IF EXISTS {name}")
