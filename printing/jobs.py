"""Build a document from a print request's validated parameters, for a request or a worker.

The parameters are plain JSON (what `printing.inputs` validated), so a job stored in the
database renders exactly what the request would have rendered.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from campaigns.models import Campaign
from printing.documents import (
    Document,
    cards_document,
    labels_document,
    reference_document,
    roster_document,
    sheet_options,
    stickers_document,
)
from printing.figures import FigureData
from printing.models import PrintJob
from printing.render import Progress, render_pdf, render_pdf_in_parts
from printing.selectors import force_figures, label_preset_for
from rosters.models import Force
from rules.system import RuleSystem, get_system

Kind = PrintJob.Kind


def _posted_figures(system: RuleSystem, params: Mapping[str, Any]) -> list[FigureData]:
    return [
        FigureData(name=f["name"], stats=system.stats.validate(f.get("stats", {})),
                   rank=f.get("rank", ""), unit=f.get("unit", ""), qr_url=f.get("qr_url", ""),
                   wounds=int(f.get("wounds", 0)))
        for f in params["figures"]
    ]


def _source(params: Mapping[str, Any]) -> tuple[RuleSystem, list[FigureData], Force | None]:
    """Return the system and figures: a stored force's, or figures posted for a preview."""
    if "force" in params:
        force = Force.objects.select_related("campaign", "owner").get(pk=params["force"])
        site = params.get("site", "") if params.get("qr") else ""
        return get_system(force.system), force_figures(force, site=site), force
    system = get_system(params["system"])
    return system, _posted_figures(system, params), None


def _campaign_options(system: RuleSystem, force: Force | None) -> dict[str, Any]:
    campaign = force.campaign if force else None
    return system.options.validate(campaign.options if campaign else {})


def _force_header(force: Force | None, system: RuleSystem) -> dict[str, str]:
    if force is None:
        return {"name": "Roster", "faction": "", "campaign": "", "owner": ""}
    return {"name": force.name, "faction": force.faction,
            "campaign": force.campaign.name if force.campaign else "",
            "owner": force.owner.get_username()}


def _labels(params: Mapping[str, Any], user: Any, in_parts: bool) -> Document:
    system, figures, _ = _source(params)
    options = sheet_options(label_preset_for(params["preset"], user), params)
    return labels_document(system, figures, options, in_parts=in_parts)


def _stickers(params: Mapping[str, Any], user: Any, in_parts: bool) -> Document:
    options = sheet_options(label_preset_for(params["preset"], user), params)
    return stickers_document(params["counts"], bool(params.get("colour", True)), options,
                             in_parts=in_parts)


def _cards(params: Mapping[str, Any]) -> Document:
    system, figures, force = _source(params)
    return cards_document(system, figures, _campaign_options(system, force),
                          size=params.get("size", "poker"), page=params.get("page", "A4"),
                          blanks=int(params.get("blanks", 0)))


def _roster(params: Mapping[str, Any]) -> Document:
    system, figures, force = _source(params)
    return roster_document(system, _force_header(force, system), figures)


def _reference(params: Mapping[str, Any]) -> Document:
    system = get_system(params["system"])
    campaign = Campaign.objects.filter(pk=params.get("campaign")).first()
    options = system.options.validate(campaign.options if campaign else params.get("options", {}))
    return reference_document(system, options, campaign.name if campaign else "")


def build_document(kind: str, params: Mapping[str, Any], user: Any, *, in_parts: bool = False
                   ) -> Document:
    """Return the document a print request describes (parameters already validated)."""
    if kind == Kind.LABELS:
        return _labels(params, user, in_parts)
    if kind == Kind.STICKERS:
        return _stickers(params, user, in_parts)
    if kind == Kind.CARDS:
        return _cards(params)
    if kind == Kind.ROSTER:
        return _roster(params)
    if kind == Kind.REFERENCE:
        return _reference(params)
    raise ValueError(f"unknown print job kind {kind!r}")


def render(document: Document) -> bytes:
    """Render a one-part document (the request path)."""
    return render_pdf(document.family, document.parts[0]) if len(document.parts) == 1 else \
        render_pdf_in_parts(document.family, document.parts, len(document.parts))


def page_count(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def render_job(job: PrintJob, progress: Progress) -> tuple[bytes, str, int]:
    """Render a stored job part by part, reporting progress; return (pdf, filename, pages)."""
    document = build_document(job.kind, job.parameters, job.created_by, in_parts=True)
    pdf = render_pdf_in_parts(document.family, document.parts, len(document.parts), progress)
    return pdf, document.filename, page_count(pdf)
