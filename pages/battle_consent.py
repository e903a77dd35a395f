"""Agreeing a battle's result on the pages: the other side confirms or disputes, an organiser
settles, a player reopens it to correct it. The aftermath waits until every side agreed.

Each write is a POST making one call into `battles.services` and redirecting to the battle's
after page; a refusal shows the after page again with the reason (400).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from battles.errors import BattleConflict
from battles.models import Battle, BattleStatus
from battles.selectors import battles_visible_to
from battles.services import battle_confirm, battle_dispute, battle_reopen, battle_settle
from pages.battles import after_refused


def _battle(request: HttpRequest, pk: int) -> Battle:
    return get_object_or_404(battles_visible_to(request.user), pk=pk)


def _answer(
    request: HttpRequest, pk: int, call: Callable[..., object], **kwargs: object
) -> HttpResponse:
    battle = _battle(request, pk)
    try:
        call(battle=battle, user=request.user, **kwargs)
    except ValidationError as exc:
        return after_refused(request, battle, exc.messages)
    except BattleConflict as exc:
        return after_refused(request, battle, [str(exc)])
    battle.refresh_from_db()
    if battle.status in (BattleStatus.SETUP, BattleStatus.IN_PROGRESS):
        return redirect("battle-page", pk=battle.pk)
    return redirect("battle-after", pk=battle.pk)


@login_required
@require_POST
def battle_confirm_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The other side agrees the reported result; the last agreement queues the aftermath."""
    return _answer(request, pk, battle_confirm)


@login_required
@require_POST
def battle_dispute_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The other side says the reported result is wrong: an organiser settles it."""
    return _answer(request, pk, battle_dispute, note=request.POST.get("note", ""))


@login_required
@require_POST
def battle_settle_page(request: HttpRequest, pk: int) -> HttpResponse:
    """An organiser agrees the result for the sides still waiting."""
    return _answer(request, pk, battle_settle)


@login_required
@require_POST
def battle_reopen_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Take a result not yet agreed back to the table, to correct it."""
    return _answer(request, pk, battle_reopen)
