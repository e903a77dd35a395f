"""Server-rendered pages for players."""

from django.urls import include, path

from pages.views import home

urlpatterns = [
    path("", home, name="home"),
    path("accounts/", include("django.contrib.auth.urls")),
]
