"""Print documents read by the XML parser (printing.render.well_formed_root), checked against
WeasyPrint's own HTML5 parser: the same document must print the same PDF, byte for byte."""

from __future__ import annotations

from collections.abc import Mapping
from unittest import mock

from django.template.loader import render_to_string

from printing.render import render_pdf, well_formed_root


def html5_pdf(family: str, context: Mapping[str, object]) -> bytes:
    """Render a family's document as `render_pdf` does, read by the HTML5 parser (tinyhtml5):
    the path a document the XML parser refuses takes, and every document took before."""
    with mock.patch("printing.render.well_formed_root", return_value=None):
        return render_pdf(family, context)


def assert_read_as_xml_and_printed_the_same(family: str, context: Mapping[str, object]) -> None:
    """The family's template writes well-formed markup for this context, and the document the
    XML parser reads prints exactly the PDF the HTML5 parser's would."""
    html = render_to_string(f"printing/{family}.html", context)
    assert well_formed_root(html) is not None, f"{family}: not well-formed XML, read as HTML5"
    assert render_pdf(family, context) == html5_pdf(family, context), f"{family}: PDFs differ"
