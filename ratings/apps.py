from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Club rating"

    def ready(self) -> None:
        # Ratings sit above the league: the league announces results, the rating listens;
        # round 1 of a Swiss league seeded by club rating is asked of the rating the same way.
        from league.signals import result_written, swiss_seeding
        from ratings.receivers import rate_the_game, seed_by_rating

        result_written.connect(rate_the_game, dispatch_uid="ratings.rate_the_game")
        swiss_seeding.connect(seed_by_rating, dispatch_uid="ratings.seed_by_rating")
