"""This app's REST endpoints, included under /api/ by config/api_urls.py.

/api/campaigns/ is served by the league (league/api_urls.py), whose campaign endpoints add the
standings and rounds to this app's own.
"""

from rest_framework.routers import SimpleRouter

from campaigns.api import MembershipViewSet

router = SimpleRouter()
router.register("memberships", MembershipViewSet, basename="membership")
urlpatterns = router.urls
