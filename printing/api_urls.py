"""This app's REST endpoints, included under /api/ by config/api_urls.py."""

from django.urls import path

from printing import apis

urlpatterns = [
    path("forces/<int:pk>/labels.pdf", apis.ForceLabelsView.as_view(), name="force-labels"),
    path("forces/<int:pk>/cards.pdf", apis.ForceCardsView.as_view(), name="force-cards"),
    path("forces/<int:pk>/roster.pdf", apis.ForceRosterView.as_view(), name="force-roster"),
    path(
        "systems/<str:key>/reference.pdf",
        apis.SystemReferenceView.as_view(),
        name="system-reference",
    ),
    path("battles/<int:pk>/packet.pdf", apis.BattlePacketView.as_view(), name="battle-packet"),
    path("pairings/<int:pk>/packet.pdf", apis.PairingPacketView.as_view(), name="pairing-packet"),
    path(
        "campaigns/<int:pk>/report.pdf", apis.CampaignReportView.as_view(), name="campaign-report"
    ),
    path("print/labels.pdf", apis.PostedLabelsView.as_view(), name="print-labels"),
    path("print/cards.pdf", apis.PostedCardsView.as_view(), name="print-cards"),
    path("print/stickers.pdf", apis.StickersView.as_view(), name="print-stickers"),
    path("print-jobs/<int:pk>/", apis.PrintJobView.as_view(), name="print-job"),
    path(
        "print-jobs/<int:pk>/download",
        apis.PrintJobDownloadView.as_view(),
        name="print-job-download",
    ),
]
