from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "notices"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # Notices sit above the league and battles: those announce, the notices listen.
        from battles.signals import battle_disputed, battle_processed, battle_reported
        from league.signals import result_written, round_paired
        from notices import receivers

        result_written.connect(receivers.announce_result, dispatch_uid="notices.result")
        round_paired.connect(receivers.announce_round, dispatch_uid="notices.round")
        battle_processed.connect(receivers.announce_battle, dispatch_uid="notices.battle")
        battle_reported.connect(
            receivers.announce_battle_reported, dispatch_uid="notices.battle_reported"
        )
        battle_disputed.connect(
            receivers.announce_battle_disputed, dispatch_uid="notices.battle_disputed"
        )
