"""Render a named family of print templates to PDF with WeasyPrint.

`render_pdf("labels", context)` renders `templates/printing/labels.html` with Django's template
engine, then WeasyPrint lays it out. Stylesheets (`static/printing/print.css` and the family's
own `static/printing/<family>.css`, plus an optional `templates/printing/<family>.geometry.css`
rendered from the context) are parsed once per process (per distinct geometry) and passed in
ready-made, which saves the CSS parse on every document. Static and media files are read
straight from disk by the URL fetcher, so a Celery worker renders exactly what a request would,
and nothing is ever fetched over the network.
"""

from __future__ import annotations

import io
import logging
import mimetypes
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import cssselect2
import weasyprint
import weasyprint.urls
from django.conf import settings
from django.contrib.staticfiles import finders
from django.template import TemplateDoesNotExist
from django.template.loader import render_to_string
from weasyprint.text.fonts import FontConfiguration

# WeasyPrint logs every layout step at INFO; a worker printing 1,000 labels does not need that.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)

# Every document is rendered against this made-up origin; the fetcher maps it back to disk.
BASE_URL = "https://muster.invalid/"


class PrintFetchError(ValueError):
    """A document asked for a file that is not a static or media file."""


@lru_cache(maxsize=1)
def font_config() -> FontConfiguration:
    return FontConfiguration()


def _static_path(relative: str) -> Path | None:
    found = finders.find(relative)
    if found:
        return Path(found)
    collected = Path(settings.STATIC_ROOT) / relative
    return collected if collected.is_file() else None


def _media_path(relative: str) -> Path | None:
    root = Path(settings.MEDIA_ROOT).resolve()
    path = (root / relative).resolve()
    # resolve() first, so "../" in a stored file name cannot read outside MEDIA_ROOT.
    return path if path.is_relative_to(root) and path.is_file() else None


def local_path(url: str) -> Path | None:
    """Return the file on disk that a static or media URL of a document names, if any."""
    parts = urlsplit(url)
    if f"{parts.scheme}://{parts.netloc}/" != BASE_URL:
        return None
    route = unquote(parts.path)
    for prefix, lookup in (
        ("/" + settings.STATIC_URL.strip("/") + "/", _static_path),
        ("/" + settings.MEDIA_URL.strip("/") + "/", _media_path),
    ):
        if route.startswith(prefix):
            return lookup(route.removeprefix(prefix))
    return None


def _read_local(url: str) -> tuple[bytes, str]:
    path = local_path(url)
    if path is None:
        raise PrintFetchError(f"print documents may only use static and media files, not {url}")
    mime_type, _ = mimetypes.guess_type(path.name)
    return path.read_bytes(), mime_type or "application/octet-stream"


if hasattr(weasyprint, "URLFetcher"):  # WeasyPrint >= 68: fetchers are URLFetcher subclasses

    class DiskFetcher(weasyprint.URLFetcher):  # type: ignore[misc]  # WeasyPrint has no types
        """Serve data: URIs and Muster's own static/media files; refuse everything else."""

        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.startswith("data:"):
                return super().fetch(url, headers)
            body, mime_type = _read_local(url)
            return weasyprint.urls.URLFetcherResponse(url, body, {"Content-Type": mime_type})

    url_fetcher: Any = DiskFetcher(fail_on_errors=True)
else:  # pragma: no cover - older WeasyPrint takes a function returning a dict

    def url_fetcher(url: str, timeout: int = 10, ssl_context: Any = None) -> dict[str, Any]:
        if url.startswith("data:"):
            fetched: dict[str, Any] = weasyprint.default_url_fetcher(url, timeout, ssl_context)
            return fetched
        body, mime_type = _read_local(url)
        return {"string": body, "mime_type": mime_type}


# WeasyPrint's default style sheet has rules for pseudo-elements of *every* element (::marker,
# ::footnote-call, ::footnote-marker, ::note-call, ::note-marker, ::note-callback), so every
# element of a document costs seven computed styles instead of one: a sixth of a card deck's
# render time. Muster's documents have no footnotes or notes, so they get the stock sheet with
# those rules dropped and ::marker kept for list items only. Nothing that prints changes.
_UNUSED_UA_RULES = ("::footnote-", "::note-")


@lru_cache(maxsize=1)
def user_agent_stylesheet() -> weasyprint.CSS | None:
    """Return WeasyPrint's own HTML style sheet without the rules Muster never uses."""
    path = Path(weasyprint.__file__).parent / "css" / "html5_ua.css"
    if not path.is_file():  # pragma: no cover - a WeasyPrint that moved it: use the stock one
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    kept = [
        line.replace("::marker {", "li::marker {", 1)
        for line in lines
        if not line.startswith(_UNUSED_UA_RULES)
    ]
    return weasyprint.CSS(
        string="\n".join(kept), url_fetcher=url_fetcher, font_config=font_config()
    )


def well_formed_root(html: str) -> ElementTree.Element | None:
    """Return the tree of `html` if it is well-formed XML with an `<html>` root, else None.

    Muster's print templates write well-formed markup (`<!DOCTYPE html>`, void elements
    closed, only XML's five named character references, which is all Django's escaping
    writes), so Python's C XML parser builds the tree WeasyPrint's HTML5 parser would build,
    about 50 times faster: tinyhtml5 reads a 90-card deck's 53 KB in 31 ms of the deck's
    700 (docs/printing.md). Anything else (text with a control character XML forbids, a
    template that leaves a `<br>` open) goes to the HTML5 parser, as every document did before.
    Every piece of a player's text is escaped by the templates, so none of it can reach the
    parser as markup (a DOCTYPE with entities, say): the XML it reads is Muster's own.
    """
    try:
        root = ElementTree.fromstring(html)
    except ElementTree.ParseError:
        return None
    return root if root.tag == "html" else None


class PrintHTML(weasyprint.HTML):  # type: ignore[misc]  # WeasyPrint has no types
    """A WeasyPrint HTML document that uses the trimmed default style sheet and is read by
    the XML parser when its markup is well-formed (`well_formed_root`)."""

    def __init__(self, *, string: str, base_url: str, url_fetcher: Any) -> None:
        root = well_formed_root(string)
        if root is None:
            super().__init__(string=string, base_url=base_url, url_fetcher=url_fetcher)
            return
        # What weasyprint.HTML sets once its parser has built the tree (a document with no
        # <base> element keeps the base URL it is given). tests/printing/test_render.py
        # renders every family both ways and compares the PDFs byte for byte.
        self.base_url = base_url
        self.url_fetcher = url_fetcher
        self.media_type = "print"
        self.wrapper_element = cssselect2.ElementWrapper.from_html_root(root, content_language=None)
        self.etree_element = self.wrapper_element.etree_element

    def _ua_stylesheets(self, forms: bool = False) -> list[weasyprint.CSS]:
        trimmed = user_agent_stylesheet()
        if trimmed is None or forms:  # pragma: no cover - print documents have no forms
            sheets: list[weasyprint.CSS] = super()._ua_stylesheets(forms)
            return sheets
        return [trimmed]


@lru_cache(maxsize=32)
def _parsed_stylesheet(path: Path, modified: float) -> weasyprint.CSS:
    # Keyed on the modification time so an edited stylesheet is picked up without a restart.
    return weasyprint.CSS(filename=str(path), url_fetcher=url_fetcher, font_config=font_config())


@lru_cache(maxsize=64)
def _parsed_geometry(css: str) -> weasyprint.CSS:
    return weasyprint.CSS(string=css, url_fetcher=url_fetcher, font_config=font_config())


def _file_sheets(template_family: str) -> list[weasyprint.CSS]:
    """The shared print style sheet and the family's own, parsed once per process."""
    sheets = []
    for name in ("print.css", f"{template_family}.css"):
        path = _static_path(f"printing/{name}")
        if path is not None:
            sheets.append(_parsed_stylesheet(path, path.stat().st_mtime))
    return sheets


def stylesheets(template_family: str, context: Mapping[str, object]) -> list[weasyprint.CSS]:
    """Return the shared print stylesheet, the family's own, and the document's geometry.

    Files are parsed once per process. A family may also render `<family>.geometry.css` from
    the context (a label sheet's 154 slot positions, say); the same geometry (same preset and
    calibration) is parsed once and reused by every later document.
    """
    sheets = _file_sheets(template_family)
    try:
        geometry = render_to_string(f"printing/{template_family}.geometry.css", context)
    except TemplateDoesNotExist:
        return sheets
    return [*sheets, _parsed_geometry(geometry)]


def warm() -> None:
    """Fill this process's printing caches before its first document (config/boot.py).

    The font configuration, the trimmed default style sheet, every family's style sheets, and
    one small render in the shared sheet's regular and bold type, which loads the fonts and
    the parts of WeasyPrint and Pango a first document would otherwise load mid-render.
    """
    shared = _static_path("printing/print.css")
    families = sorted(path.stem for path in shared.parent.glob("*.css")) if shared else []
    for family in families:
        _file_sheets(family)
    sample = "<html><body><p>Muster <b>warm</b>\t1</p></body></html>"
    source = PrintHTML(string=sample, base_url=BASE_URL, url_fetcher=url_fetcher)
    source.render(stylesheets=_file_sheets("cards"), font_config=font_config()).write_pdf()


def render_document(template_family: str, context: Mapping[str, object]) -> weasyprint.Document:
    """Lay out one document of the family; the result knows its pages."""
    html = render_to_string(f"printing/{template_family}.html", context)
    source = PrintHTML(string=html, base_url=BASE_URL, url_fetcher=url_fetcher)
    sheets = stylesheets(template_family, context)
    return source.render(stylesheets=sheets, font_config=font_config())


def render_pdf(template_family: str, context: Mapping[str, object]) -> bytes:
    """Render `templates/printing/<template_family>.html` with `context` to PDF bytes."""
    pdf: bytes = render_document(template_family, context).write_pdf()
    return pdf


Progress = Callable[[int, int], None]


def render_sections(
    sections: Iterable[tuple[str, Mapping[str, object]]],
    total: int,
    progress: Progress | None = None,
) -> bytes:
    """Render (family, context) sections into one PDF, reporting (percent, pages done).

    A game-night packet mixes families (rosters, cards, a reference sheet, labels), each with
    its own page size, so each section is its own WeasyPrint document and the PDFs are joined.
    """
    from pypdf import PdfWriter

    writer = PdfWriter()
    for done, (family, context) in enumerate(sections, start=1):
        writer.append(io.BytesIO(render_pdf(family, context)))
        if progress is not None:
            progress(round(100 * done / max(total, 1)), len(writer.pages))
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()
