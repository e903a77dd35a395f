"""This app's REST endpoints, included under /api/ by config/api_urls.py."""

from django.urls import path

from notices.api import WebhookViewSet

hooks = WebhookViewSet.as_view({"get": "list", "post": "create"})
hook = WebhookViewSet.as_view({"get": "retrieve", "patch": "partial_update", "delete": "destroy"})

urlpatterns = [
    path("campaigns/<int:campaign_pk>/webhooks/", hooks, name="campaign-webhooks"),
    path("campaigns/<int:campaign_pk>/webhooks/<int:pk>/", hook, name="campaign-webhook"),
]
