"""Muster's URLs: the site pages, the admin, the REST API and its schema, and /healthz."""

from django.conf import settings
from django.contrib import admin
from django.urls import include, path, re_path
from django.views.generic import RedirectView
from drf_spectacular.views import (
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)

from config.health import healthz
from rosters.views import character_photo

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # Photos are checked per request (rosters/views.py) and print jobs are downloaded through
    # the API: no media file is ever served publicly, not even with DEBUG on.
    path(
        f"{settings.MEDIA_URL.lstrip('/')}characters/<str:name>",
        character_photo,
        name="character-photo",
    ),
    # The league's rows moved from the campaigns app to the league app, and the admin names
    # an app in its paths: a bookmark of a round or pairing page still opens it.
    re_path(
        r"^admin/campaigns/(?P<model>round|pairing|leagueadjustment|league)/(?P<rest>.*)$",
        RedirectView.as_view(url="/admin/league/%(model)s/%(rest)s", query_string=True),
    ),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path(
        "api/redoc/",
        SpectacularRedocView.as_view(url_name="api-schema", template_name="api/redoc.html"),
        name="api-redoc",
    ),
    path("api/", include("config.api_urls")),
    path("", include("pages.urls")),
]
# /api/ answers a URL that matches no route with JSON too, like every other API error.
handler404 = "config.errors.not_found"
handler500 = "config.errors.server_error"
