"""The shared cache's table (settings.SHARED_CACHE) when there is no Redis.

Sign-up counts and page throttles must be shared by every web process; without Redis they
live in this table. `createcachetable` skips tables that exist and caches that are not
database caches, so this is harmless with Redis and when run twice.
"""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies: list = []

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
