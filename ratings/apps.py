from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Club rating"

    def ready(self) -> None:
        # Ratings sit above campaigns: the league announces results, the rating listens.
        # Round 1 of a Swiss league seeded by club rating asks through the league's port.
        from campaigns import ports
        from campaigns.signals import result_written
        from ratings.receivers import rate_the_game
        from ratings.selectors import seeded_by_rating

        result_written.connect(rate_the_game, dispatch_uid="ratings.rate_the_game")
        ports.install_seeding(seeded_by_rating)
