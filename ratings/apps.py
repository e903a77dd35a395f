from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Club rating"

    def ready(self) -> None:
        # Ratings sit above campaigns: the league announces results, the rating listens.
        from campaigns.signals import result_written
        from ratings.receivers import rate_the_game

        result_written.connect(rate_the_game, dispatch_uid="ratings.rate_the_game")
