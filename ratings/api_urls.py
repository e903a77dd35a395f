"""This app's REST endpoints, included under /api/ by config/api_urls.py."""

from django.urls import path

from ratings.api import campaign_ratings_view

urlpatterns = [
    path("campaigns/<int:campaign_pk>/ratings/", campaign_ratings_view, name="campaign-ratings"),
]
