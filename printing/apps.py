from contextlib import suppress

from django.apps import AppConfig


class PrintingConfig(AppConfig):
    name = "printing"
    verbose_name = "Printing"

    def ready(self) -> None:
        # The force admin is rosters' (rosters/admin.py); printing adds its print actions to
        # it here, after every admin module is loaded, so rosters needs no import of printing.
        from django.contrib.admin.exceptions import NotRegistered

        from printing.admin import add_force_print_actions

        with suppress(NotRegistered):  # a site without the force admin has nothing to extend
            add_force_print_actions()
