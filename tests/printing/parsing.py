"""Print documents read by the XML parser (printing.render.well_formed_root), checked against
WeasyPrint's own HTML5 parser: the same document must print the same PDF, byte for byte."""

from __future__ import annotations

from collections.abc import Mapping

import weasyprint
from django.template.loader import render_to_string

from printing.render import (
    BASE_URL,
    PrintHTML,
    font_config,
    render_pdf,
    stylesheets,
    url_fetcher,
    well_formed_root,
)


class HTML5PrintHTML(PrintHTML):
    """A print document read by WeasyPrint's HTML5 parser (tinyhtml5), as every document was
    read before the XML parser: the reference the fast path is compared with."""

    def __init__(self, *, string: str, base_url: str, url_fetcher: object) -> None:
        weasyprint.HTML.__init__(self, string=string, base_url=base_url, url_fetcher=url_fetcher)


def html5_pdf(family: str, context: Mapping[str, object]) -> bytes:
    """Render a family's document as `render_pdf` does, but read by the HTML5 parser."""
    html = render_to_string(f"printing/{family}.html", context)
    source = HTML5PrintHTML(string=html, base_url=BASE_URL, url_fetcher=url_fetcher)
    document = source.render(stylesheets=stylesheets(family, context), font_config=font_config())
    pdf: bytes = document.write_pdf()
    return pdf


def assert_read_as_xml_and_printed_the_same(family: str, context: Mapping[str, object]) -> None:
    """The family's template writes well-formed markup for this context, and the document the
    XML parser reads prints exactly the PDF the HTML5 parser's would."""
    html = render_to_string(f"printing/{family}.html", context)
    assert well_formed_root(html) is not None, f"{family}: not well-formed XML, read as HTML5"
    assert render_pdf(family, context) == html5_pdf(family, context), f"{family}: PDFs differ"
