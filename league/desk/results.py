"""A round's results on one page, and its printable pairing sheet for the club night.

One row per pairing (byes listed, with nothing to enter). Saving validates every row first;
then the changed rows are recorded in one transaction (`round_results_record`): a row the
service refuses undoes the whole round, and its error shows on its row.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.template.response import TemplateResponse
from django.urls import reverse

from common.users import signed_in
from league import selectors, services
from league.desk.forms import DeadlineForm, RoundResultForm
from league.desk.words import reports, winner_name
from league.models import Pairing, Round
from rosters.models import Force


def forces_by_player(round_: Round) -> dict[int, str]:
    """Return each user's forces in the round's campaign as one line (one query)."""
    names: dict[int, list[str]] = {}
    rows = Force.objects.filter(campaign_id=round_.campaign_id).order_by("pk")
    for owner_id, name in rows.values_list("owner_id", "name"):
        names.setdefault(owner_id, []).append(name)
    return {owner: ", ".join(found) for owner, found in names.items()}


class Row:
    """What the page shows of one pairing: names, forces, its form, both reports."""

    def __init__(self, pairing: Pairing, forces: dict[int, str], form: RoundResultForm | None):
        self.pairing = pairing
        self.form = form
        self.home_force = forces.get(pairing.home.user_id, "")
        self.away_force = forces.get(pairing.away.user_id, "") if pairing.away else ""
        self.reports = reports(pairing)
        self.winner = winner_name(pairing)
        self.battle_url = (
            reverse("admin:battles_battle_change", args=[pairing.battle_id])
            if pairing.battle_id
            else ""
        )


def rows_of(round_: Round, data: QueryDict | None = None) -> list[Row]:
    forces = forces_by_player(round_)
    return [
        Row(p, forces, None if p.is_bye else RoundResultForm(data, pairing=p))
        for p in selectors.round_pairings(round_)
    ]


def results_view(request: HttpRequest, round_: Round, context: dict[str, object]) -> HttpResponse:
    """Show the round's results form; on POST record every changed row, or none."""
    data = request.POST if request.method == "POST" else None
    rows = rows_of(round_, data)
    deadline = DeadlineForm(data, initial={"deadline": round_.deadline}, prefix="round")
    if data is not None and _record(request, round_, rows, deadline):
        return HttpResponseRedirect(request.path)
    context.update(
        {
            "title": f"{round_.campaign}: round {round_.number} results",
            "round": round_,
            "campaign": round_.campaign,
            "rows": rows,
            "deadline_form": deadline,
            "errors": any(r.form is not None and r.form.errors for r in rows),
        }
    )
    return TemplateResponse(request, "admin/campaigns/round/results.html", context)


def _record(request: HttpRequest, round_: Round, rows: list[Row], deadline: DeadlineForm) -> bool:
    forms = [r.form for r in rows if r.form is not None]
    valid = [f.is_valid() for f in forms]  # every row, so each shows its own error
    if not (all(valid) and deadline.is_valid()):
        messages.error(request, "Nothing was saved: correct the games marked below.")
        return False
    changed = [f for f in forms if f.has_changed()]
    try:
        services.round_results_record(
            round_=round_,
            user=signed_in(request.user),
            rows=[
                services.RowResult(f.pairing, f.claim, f.cleaned_data["version"]) for f in changed
            ],
            **({"deadline": deadline.cleaned_data["deadline"]} if deadline.has_changed() else {}),
        )
    except ValidationError as exc:
        _errors_on_rows(forms, exc)
        messages.error(request, "Nothing was saved: correct the games marked below.")
        return False
    messages.success(request, _saved_message(round_, len(changed)))
    return True


def _errors_on_rows(forms: list[RoundResultForm], exc: ValidationError) -> None:
    by_pairing = {str(f.pairing.pk): f for f in forms}
    for key, problems in exc.message_dict.items():
        form = by_pairing.get(key)
        if form is not None:
            for problem in problems:
                form.add_error(None, problem)


def _saved_message(round_: Round, count: int) -> str:
    if not count:
        return f"Round {round_.number}: nothing changed."
    return f"Round {round_.number}: {count} result(s) recorded and confirmed."


def sheet_view(request: HttpRequest, round_: Round) -> HttpResponse:
    """Render the round's pairing sheet, styled to print on one page for the club night."""
    rows = rows_of(round_)
    context = {
        "round": round_,
        "campaign": round_.campaign,
        "rows": rows,
        "scenarios": any(r.pairing.battle_id for r in rows),
    }
    return TemplateResponse(request, "admin/campaigns/round/sheet.html", context)
