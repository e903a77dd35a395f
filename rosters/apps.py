from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _install_constraints(using: str = "default", **kwargs: object) -> None:
    from django.db import connections

    from rosters import db_constraints

    db_constraints.install(connections[using])


class RostersConfig(AppConfig):
    name = "rosters"
    verbose_name = "Rosters"

    def ready(self) -> None:
        # Re-install after every migrate: SQLite loses triggers when a table is rebuilt.
        post_migrate.connect(_install_constraints, sender=self, dispatch_uid="rosters_constraints")
