"""This app's REST endpoints, included under /api/ by config/api_urls.py."""

from rest_framework.routers import SimpleRouter

router = SimpleRouter()
urlpatterns = router.urls
