"""Compress pages and, where WhiteNoise has no pre-compressed copy, static files on the way out.

Django's GZipMiddleware does the work; this subclass only leaves Server-Sent Events alone: a
live table's stream must reach the phone event by event, and gzip would hold each event back
until its buffer fills. CSRF tokens are masked per response, so compressing pages that carry
them does not open the BREACH length oracle.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

#: Content types sent as they are: streams must not be buffered, images are compressed already.
UNCOMPRESSED = ("text/event-stream", "image/png", "image/jpeg", "image/webp", "application/pdf")


class PageCompressionMiddleware(GZipMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.get("Content-Type", "").startswith(UNCOMPRESSED):
            return response
        return super().process_response(request, response)
