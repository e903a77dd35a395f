"""The site's URLs plus views that fail on purpose, for the error page tests."""

from django.core.exceptions import PermissionDenied, SuspiciousOperation
from django.urls import path

from config.urls import handler404
from config.urls import urlpatterns as site_urlpatterns

__all__ = ["handler404", "urlpatterns"]


def forbidden(request):
    raise PermissionDenied("Only the players whose forces fight play this battle.")


def suspicious(request):
    raise SuspiciousOperation("a forged field")


def broken(request):
    raise RuntimeError("the table fell over")


urlpatterns = [
    path("test-errors/forbidden/", forbidden),
    path("test-errors/suspicious/", suspicious),
    path("test-errors/broken/", broken),
    *site_urlpatterns,
]
