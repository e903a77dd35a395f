"""This app's REST endpoints, included under /api/ by config/api_urls.py."""

from rest_framework.routers import SimpleRouter

from rosters.api import CharacterViewSet, ForceViewSet, UnitViewSet
from rosters.systems_api import SystemViewSet

router = SimpleRouter()
router.register("forces", ForceViewSet, basename="force")
router.register("units", UnitViewSet, basename="unit")
router.register("characters", CharacterViewSet, basename="character")
router.register("systems", SystemViewSet, basename="system")
urlpatterns = router.urls
