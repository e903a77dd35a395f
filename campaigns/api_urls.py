"""This app's REST endpoints, included under /api/ by config/api_urls.py."""

from rest_framework.routers import SimpleRouter

from campaigns.api import CampaignViewSet, MembershipViewSet

router = SimpleRouter()
router.register("campaigns", CampaignViewSet, basename="campaign")
router.register("memberships", MembershipViewSet, basename="membership")
urlpatterns = router.urls
