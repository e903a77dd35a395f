"""This app's REST endpoints, included under /api/ by config/api_urls.py."""

from rest_framework.routers import SimpleRouter

from battles.api import BattleViewSet

router = SimpleRouter()
router.register("battles", BattleViewSet, basename="battle")
urlpatterns = router.urls
