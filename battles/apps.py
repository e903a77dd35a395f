from django.apps import AppConfig


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = "Battles"

    def ready(self) -> None:
        # Battles sit above campaigns: the league settles games through what this installs.
        from battles.services.pairings import LEAGUE_BATTLES
        from campaigns import ports

        ports.install_battles(LEAGUE_BATTLES)
