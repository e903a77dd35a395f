from django.apps import AppConfig


class LeagueConfig(AppConfig):
    name = "league"
    verbose_name = "League"

    def ready(self) -> None:
        # The league sits above battles: a battle abandoned or asked for its answer day is
        # news (and a question) the league hears by the battles' signals.
        from battles.signals import battle_abandoning, battle_answer_day
        from league.receivers import answer_by_round_deadline, unlink_abandoned_battle

        battle_abandoning.connect(unlink_abandoned_battle, dispatch_uid="league.unlink_battle")
        battle_answer_day.connect(answer_by_round_deadline, dispatch_uid="league.answer_day")
