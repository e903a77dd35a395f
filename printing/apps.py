from contextlib import suppress

from django.apps import AppConfig


class PrintingConfig(AppConfig):
    name = "printing"
    verbose_name = "Printing"

    def ready(self) -> None:
        # The force admin is rosters' (rosters/admin/forces.py); printing adds its print actions to
        # it here, after every admin module is loaded, so rosters needs no import of printing.
        from django.contrib.admin.exceptions import NotRegistered

        from league.signals import desk_attention
        from printing.admin import add_force_print_actions
        from printing.receivers import failed_jobs_for_the_desk

        # The organiser's desk (league, below) asks what failed; printing answers.
        desk_attention.connect(failed_jobs_for_the_desk, dispatch_uid="printing.failed_jobs")

        with suppress(NotRegistered):  # a site without the force admin has nothing to extend
            add_force_print_actions()

    def warm(self) -> None:
        """Fill the print caches before a process's first document (config/boot.py)."""
        from printing.render import warm

        warm()
