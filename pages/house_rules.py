"""The organiser's house-rules editor: a campaign's editable tables as typed rows, the exact odds
before and after an edit, versions with what each changed, and a pack exported, imported or
copied from another campaign of the same system.

Organisers only (other members get 403, strangers 404, as on the invitations page). The typed
editor itself is `campaigns.house_rules_forms`, which the admin's editor draws too.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db.models import Exists, OuterRef, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from campaigns.house_rules_forms import (
    STATUS,
    Editor,
    EditorResult,
    Preview,
    editor_for_pack,
    editor_post,
    editor_start,
    stale_warning,
    version_history,
)
from campaigns.models import Campaign, HouseRules
from campaigns.selectors import campaigns_managed_by
from campaigns.services.house_rules import (
    house_rules_check,
    house_rules_copy,
    house_rules_current,
)
from common.form_fields import field_of
from common.throttling import throttle_page
from common.users import signed_in
from pages.invitations import managed_campaign
from rules import house
from rules.house import PackError
from rules.system import get_system

#: The largest pack file an organiser may import: a pack of every table is a few kilobytes.
IMPORT_MAX_BYTES = 1_000_000


class ImportForm(forms.Form):
    pack = forms.FileField(
        label="House-rules file (JSON)",
        help_text="A pack exported from Muster, or written from "
        "<code>python -m rules house-template</code>.",
    )


class CopyForm(forms.Form):
    source = forms.ModelChoiceField(
        queryset=Campaign.objects.none(),
        label="Copy from",
        empty_label=None,
        help_text="Its newest house rules become this campaign's next version.",
    )

    def __init__(self, *args: Any, sources: QuerySet[Campaign], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field_of(self, "source", forms.ModelChoiceField).queryset = sources


def copy_sources(request: HttpRequest, campaign: Campaign) -> QuerySet[Campaign]:
    """The other campaigns of the same system the user organises that have house rules."""
    versions = HouseRules.objects.filter(campaign=OuterRef("pk"))
    return (
        campaigns_managed_by(request.user)
        .filter(system=campaign.system)
        .exclude(pk=campaign.pk)
        .filter(Exists(versions))
        .order_by("name", "pk")
    )


# --- the page ------------------------------------------------------------------------------------


@login_required
def campaign_house_rules(request: HttpRequest, pk: int) -> HttpResponse:
    """Show the editor; POST previews, adds a row or saves what it holds."""
    campaign = managed_campaign(request, pk)
    if get_system(campaign.system).house is None:
        return _page(request, campaign, None)
    if request.method != "POST":
        return _page(request, campaign, editor_start(campaign))
    result = editor_post(campaign, request.POST, request.user)
    if result.kind == "saved" and result.version is not None:
        messages.success(
            request, f"Saved as version {result.version.number}: new battles play under it."
        )
        return redirect("campaign-house-rules", pk=campaign.pk)
    if result.kind == "stale":
        messages.warning(request, stale_warning(result))
    if result.kind == "unchanged":
        messages.info(request, "Nothing changed, so no new version was saved.")
        return redirect("campaign-house-rules", pk=campaign.pk)
    return _result_page(request, campaign, result)


def _result_page(request: HttpRequest, campaign: Campaign, result: EditorResult) -> HttpResponse:
    status = STATUS.get(result.kind, 200)
    return _page(request, campaign, result.editor, result.preview, status=status)


def _page(
    request: HttpRequest,
    campaign: Campaign,
    editor: Editor | None,
    preview: Preview | None = None,
    *,
    import_form: ImportForm | None = None,
    copy_form: CopyForm | None = None,
    status: int = 200,
) -> HttpResponse:
    sources = copy_sources(request, campaign)
    context = {
        "campaign": campaign,
        "system": get_system(campaign.system),
        "editor": editor,
        "preview": preview,
        "current": house_rules_current(campaign),
        "history": version_history(campaign),
        "import_form": import_form or ImportForm(),
        "copy_form": copy_form or CopyForm(sources=sources),
        "can_copy": sources.exists(),
    }
    return render(request, "pages/house_rules.html", context, status=status)


# --- export, import, copy ----------------------------------------------------------------------


@login_required
def campaign_house_rules_export(request: HttpRequest, pk: int) -> HttpResponse:
    """Download the current version as a JSON pack (the rules as written if there is none)."""
    campaign = managed_campaign(request, pk)
    system = get_system(campaign.system)
    if system.house is None:
        return redirect("campaign-house-rules", pk=campaign.pk)
    version = house_rules_current(campaign)
    if version is None:
        document, suffix = house.template(system), "as-written"
    else:
        document, suffix = dict(version.document), f"v{version.number}"
    document.setdefault("name", f"{campaign.name} house rules {suffix}"[: house.MAX_TEXT])
    response = HttpResponse(
        json.dumps(document, indent=2, ensure_ascii=False) + "\n",
        content_type="application/json; charset=utf-8",
    )
    filename = f"{slugify(campaign.name) or 'campaign'}-house-rules-{suffix}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
@require_POST
@throttle_page("imports")
def campaign_house_rules_import(request: HttpRequest, pk: int) -> HttpResponse:
    """Load a JSON pack into the editor with its preview; Save keeps it (nothing is saved here)."""
    campaign = managed_campaign(request, pk)
    if get_system(campaign.system).house is None:
        return redirect("campaign-house-rules", pk=campaign.pk)
    form = ImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, campaign, editor_start(campaign), import_form=form, status=400)
    upload = form.cleaned_data["pack"]
    try:
        pack = house_rules_check(campaign=campaign, document=_read_pack(upload))
    except PackError as error:
        form.add_error("pack", str(error))
        return _page(request, campaign, editor_start(campaign), import_form=form, status=400)
    note = f"Imported from {pack.name or upload.name}"
    result = editor_for_pack(campaign, pack, note=note)
    messages.info(
        request,
        f"{upload.name} is loaded below and checked: see what it changes, then Save to keep it.",
    )
    return _result_page(request, campaign, result)


def _read_pack(upload: UploadedFile) -> object:
    """The uploaded file's JSON, refused in one line if it is too large or not a pack's JSON."""
    name = upload.name or "the upload"
    if (upload.size or 0) > IMPORT_MAX_BYTES:
        raise PackError(f"{name} is larger than 1 MB: not a house-rules pack")
    data = upload.read(IMPORT_MAX_BYTES + 1)
    if len(data) > IMPORT_MAX_BYTES:
        raise PackError(f"{name} is larger than 1 MB: not a house-rules pack")
    return house.parse_pack_json(data, source=name)


@login_required
@require_POST
def campaign_house_rules_copy(request: HttpRequest, pk: int) -> HttpResponse:
    """Save another campaign's newest house rules (same system, organised by you) as the next
    version of this one."""
    campaign = managed_campaign(request, pk)
    if get_system(campaign.system).house is None:
        return redirect("campaign-house-rules", pk=campaign.pk)
    form = CopyForm(request.POST, sources=copy_sources(request, campaign))
    if not form.is_valid():
        return _page(request, campaign, editor_start(campaign), copy_form=form, status=400)
    source = form.cleaned_data["source"]
    before = house_rules_current(campaign)
    try:
        version = house_rules_copy(campaign=campaign, source=source, user=signed_in(request.user))
    except (ValidationError, PackError) as error:
        form.add_error("source", " ".join(getattr(error, "messages", [str(error)])))
        return _page(request, campaign, editor_start(campaign), copy_form=form, status=400)
    if before is not None and version.pk == before.pk:
        messages.info(request, f"{campaign.name} already plays {source.name}'s house rules.")
    else:
        messages.success(
            request, f"Copied {source.name}'s house rules as version {version.number}."
        )
    return redirect("campaign-house-rules", pk=campaign.pk)
