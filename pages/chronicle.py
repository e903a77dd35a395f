"""The chronicle pages: a campaign's chronicle, a battle's report (with the players' own
paragraphs) and a character's career or obituary; the chronicle as a PDF."""

from __future__ import annotations

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from battles.models import Battle
from battles.selectors import battles_visible_to
from campaigns.selectors import campaigns_visible_to
from chronicle.campaigns import campaign_battles, campaign_chronicle, fallen
from chronicle.careers import character_story
from chronicle.printed import chronicle_context
from chronicle.reports import battle_report
from chronicle.selectors import is_player_of, report_paragraphs
from chronicle.services import MAX_PARAGRAPH, report_paragraph_write
from common.throttling import throttle_page
from common.users import signed_in
from printing.render import render_pdf
from rosters.models import Character
from rosters.selectors import characters_visible_to


class ParagraphForm(forms.Form):
    text = forms.CharField(
        label="Your paragraph",
        required=False,
        max_length=MAX_PARAGRAPH,
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text="Shown beside the report under your name. Leave it empty to take it down.",
    )


@login_required
def campaign_chronicle_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a campaign's chronicle to its members, with links to every report and career."""
    campaign = get_object_or_404(campaigns_visible_to(request.user).select_related("club"), pk=pk)
    characters = Character.objects.filter(force__campaign_id=campaign.pk).select_related("force")
    context = {
        "campaign": campaign,
        "story": campaign_chronicle(campaign),
        "battles": list(reversed(campaign_battles(campaign))),
        "fallen": fallen(campaign),
        "characters": characters.order_by("force__name", "force_id", "name"),
    }
    return render(request, "pages/chronicle/campaign.html", context)


@login_required
@throttle_page("pdfs")
def campaign_chronicle_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """The campaign's chronicle as a printable PDF."""
    campaign = get_object_or_404(campaigns_visible_to(request.user).select_related("club"), pk=pk)
    pdf = render_pdf("chronicle", chronicle_context(campaign))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'inline; filename="{campaign.slug or "campaign"}-chronicle.pdf"'
    )
    return response


@login_required
def battle_report_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a battle's report (so far, while it is played); its players may add their paragraph."""
    battles = battles_visible_to(request.user).select_related("campaign")
    battle = get_object_or_404(battles, pk=pk)
    writer = is_player_of(battle, request.user)
    paragraphs = list(report_paragraphs(battle))
    mine = next((p for p in paragraphs if p.author_id == request.user.pk), None)
    form = ParagraphForm(initial={"text": mine.text if mine else ""})
    if request.method == "POST":
        if not writer:
            raise Http404("Only the players of this battle write on its report.")
        form = ParagraphForm(request.POST)
        if form.is_valid() and _write(form, battle, request):
            return redirect("battle-report", pk=battle.pk)
    context = {
        "battle": battle,
        "story": battle_report(battle),
        "paragraphs": paragraphs,
        "form": form if writer else None,
    }
    return render(request, "pages/chronicle/report.html", context)


def _write(form: ParagraphForm, battle: Battle, request: HttpRequest) -> bool:
    try:
        report_paragraph_write(
            battle=battle, user=signed_in(request.user), text=form.cleaned_data["text"]
        )
    except ValidationError as error:
        form.add_error("text", error.message_dict.get("text", error.messages))
        return False
    return True


@login_required
def character_story_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a character's career, and for the dead their obituary."""
    characters = characters_visible_to(request.user).select_related("force__campaign")
    character = get_object_or_404(characters, pk=pk)
    context = {"character": character, "story": character_story(character)}
    return render(request, "pages/chronicle/character.html", context)
