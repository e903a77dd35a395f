"""Battle pages: set up a battle, the table assistant, finishing, and the post-battle page.

Each write is a POST that makes one call into `battles.services` and redirects back (so the
page works without JavaScript); htmx posts the same forms and swaps in the part that changed.
Reads are scoped by `battles.selectors`: strangers get 404, members who do not play get a
read-only table and 403 on every write.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from battles.errors import BattleConflict
from battles.models import (
    Battle,
    BattleEvent,
    BattleFigure,
    BattleSide,
    BattleStatus,
    EventKind,
    SideResult,
)
from battles.selectors import (
    BattleAccess,
    battle_access,
    battle_is_deletable_by,
    rules_for_battle,
    with_access,
)
from battles.services import (
    SideChoice,
    battle_activation_draw,
    battle_activation_start,
    battle_adjust,
    battle_audit,
    battle_delete,
    battle_finish,
    battle_record_result,
    battle_resolve,
    battle_start,
    battle_void_last,
)
from battles.services.adjust import Marker, markers
from battles.services.turns import DRAW, drawn_sides, last_activation
from campaigns.models import Campaign
from campaigns.selectors import campaigns_visible_to
from campaigns.services.house_rules import house_rules_filename, rules_for_campaign
from common.orm import prefetched
from common.users import Visitor, signed_in
from pages.after import battle_report, roll_json
from pages.consent import consent_context
from pages.display import Chip, figure_chips, is_out
from pages.htmx import from_htmx
from pages.live import watch_qr
from pages.narration import EventView, event_view
from pages.odds import OddsResult, odds_result
from pages.selectors import (
    EVENT_LOG_LENGTH,
    Pick,
    Table,
    battle_events,
    battle_ledger,
    battle_picks,
    battle_table,
    battle_with_sides,
    forces_for_battle,
)
from pages.table import CheckForm, figure_by_id, pick_check, submitted_check, suggested_check
from rosters.models import Force
from rosters.selectors import forces_editable_by, forces_visible_to
from rules import narrate
from rules.errors import RulesError
from rules.system import RuleSystem, get_system

PLAYABLE = (BattleStatus.SETUP, BattleStatus.IN_PROGRESS)


def _load(pk: int, user: Visitor, *, sides: bool = True) -> Battle | None:
    """The battle with what `battle_access` reads: with its sides (two queries) for a page,
    without them for a write (one query; `battle_access` then reads whose sides they are),
    which draws the table from the battle as the action left it (`_reload`)."""
    battles = with_access(Battle.objects.filter(pk=pk), user)
    if sides:
        return battle_with_sides(battles).first()
    return battles.select_related("campaign", "house_rules").first()


def _seated(event: BattleEvent | None, battle: Battle) -> Battle | None:
    """The battle as the action's service left it, when it came back with the event: locked,
    read after the lock with its sides (and, but for a draw, its figures) and changed in
    place. The table is drawn from it without reading the battle again (3 queries saved per
    action); its campaign and house rules are the ones loaded, which no action changes."""
    seated = event.battle if event is not None else None
    if seated is None or not prefetched(seated, "sides"):
        return None
    seated.campaign, seated.house_rules = battle.campaign, battle.house_rules
    return seated


def _reload(battle: Battle) -> Battle:
    """Read the battle again with its sides, as an action left it (two queries); its campaign
    and house rules stay the ones loaded, which no action changes."""
    fresh = battle_with_sides(Battle.objects.filter(pk=battle.pk), campaign=False).first()
    if fresh is None:
        raise Http404("No battle here.")  # deleted meanwhile
    fresh.campaign, fresh.house_rules = battle.campaign, battle.house_rules
    return fresh


def _battle(request: HttpRequest, pk: int, *, sides: bool = True) -> tuple[Battle, BattleAccess]:
    """Return the battle and who the user is to it; 404 when they may not see it."""
    battle = _load(pk, request.user, sides=sides)
    access = battle_access(battle, request.user) if battle is not None else None
    if battle is None or access is None or not access.sees:
        raise Http404("No battle here.")
    return battle, access


def _playable(request: HttpRequest, pk: int) -> tuple[Battle, BattleAccess]:
    """Return the battle for a write (its sides not loaded) and the user's access; 404 when
    they may not see it, 403 when they may not play it."""
    battle, access = _battle(request, pk, sides=False)
    if not access.plays:
        raise PermissionDenied("Only the players whose forces fight, or its organisers, play it.")
    return battle, access


def _messages(exc: ValidationError) -> list[str]:
    if hasattr(exc, "message_dict"):
        return [f"{m}" for messages in exc.message_dict.values() for m in messages]
    return list(exc.messages)


def _status(request: HttpRequest) -> int:
    # htmx swaps only 2xx answers; a plain form post gets the honest 400.
    return 200 if from_htmx(request) else 400


def _swaps(request: HttpRequest) -> bool:
    """Say whether htmx asked for the table to swap in (#table is all it takes), not a page.

    A history restore asks for the whole page: htmx puts its body back as it is.
    """
    return from_htmx(request) and not request.htmx.history_restore_request  # type: ignore[attr-defined]


#: The table as htmx swaps it (`#table`), and the page around it.
TABLE_PAGE = "pages/battle/table.html"
TABLE_PART = "pages/battle/_table.html"


def _render_table(
    request: HttpRequest, context: dict[str, object], status: int = 200
) -> HttpResponse:
    """Render the table page, or for htmx only the part it swaps; the answer varies so."""
    template = TABLE_PART if _swaps(request) else TABLE_PAGE
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


# --- the table assistant ------------------------------------------------------------------


def _figures(table: Table) -> dict[int, BattleFigure]:
    return {f.pk: f for f in table.figures}


def _suggested(
    table: Table, query: QueryDict, played: frozenset[int] | None
) -> tuple[CheckForm, BattleFigure | None, BattleFigure | None]:
    figures = _figures(table)
    own = {f.pk: f for b in table.sides if _acts_for(played, b.side.index) for f in b.figures}
    actor = figure_by_id(own, query.get("actor"))
    # "against", not "target": Game the 90% has a check parameter named target.
    target = figure_by_id(figures, query.get("against"))
    check = pick_check(table.system, query.get("check"))
    if not check.takes_target:
        target = None  # the check concerns the actor alone: the target is dropped
    # The calls the player made on the page carry over while the same figure and check stay
    # picked (a change of target keeps the range he set); the figures' values are read anew.
    same = actor is not None and query.get("shown") == f"{actor.pk}:{check.name}"
    # A source may read a table (a weapon's Reload N): the check comes from the battle's system
    # under its house rules, so its sources read the club's table, not the text's.
    form = suggested_check(check, actor, target, query if same else None)
    return form, actor, target


def _house_file(battle: Battle) -> str:
    """The name the battle's house-rules version is exported under, for the CLI command."""
    version = battle.house_rules
    if version is None or battle.campaign is None:
        return ""
    return house_rules_filename(battle.campaign, version)


def _preview(table: Table, form: CheckForm) -> OddsResult | None:
    if form.params is None:
        return None
    try:
        return odds_result(table.system, form.check, form.params, _house_file(table.battle))
    except RulesError:
        return None


#: Events the log shows before "show all".
LOG_SHORT = 5


def _standing_activation(table: Table) -> BattleEvent | None:
    """The latest activation still standing among the events shown (None: none there)."""
    return next((e for e in table.events if e.kind == EventKind.ACTIVATION and not e.voided), None)


def _last_activation(table: Table) -> EventView | None:
    event = _standing_activation(table)
    return event_view(table.system, event) if event is not None else None


def _drawers(table: Table) -> frozenset[int] | None:
    """`battles.services.turns.drawing_sides`, read from the table already loaded: the log
    shown holds the latest activation unless it is full (then it is asked for)."""
    if table.battle.one_phone:
        return None
    last = _standing_activation(table)
    if last is None and len(table.events) >= EVENT_LOG_LENGTH:
        last = last_activation(table.battle)
    if last is None or last.check_name != DRAW or last.details.get("turn_ends"):
        return None
    sides = drawn_sides(last.details)
    known = {block.side.index for block in table.sides}
    return sides if sides and sides <= known else None


def _draw_refusal(table: Table, access: BattleAccess) -> str:
    """`battles.services.turns.draw_refusal` for this viewer, without a query more: the
    players' names come from the sides the table holds."""
    drawers = _drawers(table)
    if drawers is None or access.sides is None or drawers & access.sides:
        return ""
    names = {b.side.force.owner.get_username() for b in table.sides if b.side.index in drawers}
    who = " and ".join(sorted(names))
    return f"{who}'s unit activated last, so {who} draws the next activation"


def _acts_for(played: frozenset[int] | None, side_index: int) -> bool:
    """Say whether the viewer acts for the side (`played` None: for every side)."""
    return played is None or side_index in played


@dataclass(frozen=True)
class FigureRow:
    figure: BattleFigure
    chips: tuple[Chip, ...]
    out: bool
    markers: tuple[Marker, ...] = ()
    mine: bool = True


@dataclass(frozen=True)
class SideBlock:
    side: BattleSide
    rows: tuple[FigureRow, ...]
    standing: int


def _side_blocks(table: Table, played: frozenset[int] | None) -> list[SideBlock]:
    blocks = []
    for block in table.sides:
        rows = []
        mine = _acts_for(played, block.side.index)
        for f in block.figures:
            marks = markers(table.system, f.stats)
            chips = figure_chips(table.system, f.state, marks)
            rows.append(FigureRow(f, chips, is_out(f.state), marks, mine))
        blocks.append(SideBlock(block.side, tuple(rows), sum(1 for r in rows if not r.out)))
    return blocks


#: What the table's forms post to (and the packet), by the name the table uses for each.
TABLE_URLS = {
    "activation": "battle-activation",
    "adjust": "battle-adjust",
    "check": "battle-check",
    "delete": "battle-delete",
    "draw": "battle-draw",
    "finish": "battle-finish",
    "form": "battle-form",
    "packet": "battle-packet",
    "result": "battle-result",
}


def _urls(battle: Battle) -> dict[str, str]:
    """Reverse the table's addresses once a page, not once per figure's form."""
    return {key: reverse(name, args=[battle.pk]) for key, name in TABLE_URLS.items()}


#: The watch link's QR code by link, for this process. A battle's link never changes, and
#: drawing its QR code (segno) cost about 8 ms of CPU, a tenth of every table page's cost
#: (bench/club_night.py --costs), for the same picture on every load.
_WATCH_QRS: dict[str, str] = {}
WATCH_QRS_KEPT = 1024  # links; then the memo starts afresh (a club night holds a few dozen)


def _watch_qr(request: HttpRequest, battle: Battle) -> str:
    """Return `watch_qr`'s inline SVG, drawn once per link per process."""
    link = request.build_absolute_uri(reverse("battle-watch", args=[battle.pk]))
    if link not in _WATCH_QRS:
        if len(_WATCH_QRS) >= WATCH_QRS_KEPT:
            _WATCH_QRS.clear()
        _WATCH_QRS[link] = watch_qr(request, battle)
    return _WATCH_QRS[link]


#: Each line of the event log as drawn (`_event_line.html`), by everything the line shows: a
#: table page draws up to 30 on every action, and they change only when an event is voided.
_LINES: dict[tuple[object, ...], str] = {}
LINES_KEPT = 4096  # lines; then the memo starts afresh (a club night logs a few thousand)


def _line(view: EventView) -> str:
    """Return the event's line of the log, drawn once per process for what it shows."""
    event = view.event
    key = (event.seq, event.voided, event.dice_given, view.sentence, view.dice, view.friendly_fire)
    line = _LINES.get(key)
    if line is None:
        if len(_LINES) >= LINES_KEPT:
            _LINES.clear()
        line = _LINES[key] = render_to_string("pages/battle/_event_line.html", {"view": view})
    return line


def _log(table: Table) -> dict[str, object]:
    views = [event_view(table.system, e) for e in table.events]
    lines = [_line(view) for view in views]
    return {
        "last": views[0] if views else None,
        "log_head": lines[:LOG_SHORT],
        "log_rest": lines[LOG_SHORT:],
        "log_count": len(views),
    }


def _table_context(
    request: HttpRequest,
    battle: Battle,
    access: BattleAccess,
    form: CheckForm | None = None,
    query: QueryDict | None = None,
    **extra: object,
) -> dict[str, object]:
    """The table's context; the choices come from `query`, else the form posted or the URL."""
    system = rules_for_battle(battle)
    table = battle_table(battle, system)
    played = access.sides
    if query is None:
        query = request.GET if form is None else request.POST
    suggested, actor, target = _suggested(table, query, played)
    form = form or suggested
    can_play = access.plays
    return {
        "battle": battle,
        "table": table,
        "system": system,
        "form": form,
        "actor": actor,
        "target": target,
        "preview": _preview(table, form),
        "can_play": can_play,
        # On their own phones "who acts" offers only the viewer's figures (the organiser's:
        # anyone's); the service refuses the rest by name whatever a form sends.
        "acting_sides": [b for b in table.sides if _acts_for(played, b.side.index)],
        "activation": _last_activation(table),
        "draw_refusal": _draw_refusal(table, access) if can_play else "",
        "draw_plays": "all" if played is None else ",".join(map(str, sorted(played))),
        "results": SideResult.choices[1:],
        "ready_to_finish": all(s.side.result for s in table.sides),
        "sides": _side_blocks(table, played),
        "form_key": uuid.uuid4().hex,
        "can_delete": battle_is_deletable_by(battle, request.user),
        "watch_qr": _watch_qr(request, battle),
        "urls": _urls(battle),
        **_log(table),
        **extra,
    }


@login_required
def battle_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Show the table assistant while the battle is played, else the post-battle page."""
    battle, access = _battle(request, pk)
    if battle.status not in PLAYABLE:
        return redirect("battle-after", pk=battle.pk)
    return _render_table(request, _table_context(request, battle, access))


def _check_context(request: HttpRequest, battle: Battle, access: BattleAccess) -> dict[str, object]:
    """What the check form's body shows (`_check_body.html`), not the whole table's context."""
    system = rules_for_battle(battle)
    table = battle_table(battle, system)
    form, actor, target = _suggested(table, request.GET, access.sides)
    return {
        "battle": battle,
        "table": table,
        "system": system,
        "form": form,
        "actor": actor,
        "target": target,
        "preview": _preview(table, form),
        "can_play": access.plays,  # the Void under the last result
        "last": event_view(system, table.events[0]) if table.events else None,
    }


@login_required
def battle_check_form(request: HttpRequest, pk: int) -> HttpResponse:
    """Return the parameters for the chosen actor, check and target, filled from their stats."""
    battle, access = _battle(request, pk)
    return render(request, "pages/battle/_check_body.html", _check_context(request, battle, access))


@login_required
def battle_odds(request: HttpRequest, pk: int) -> HttpResponse:
    """Return the exact odds of the check as currently set, before anything is rolled."""
    battle, _ = _battle(request, pk)
    system = rules_for_battle(battle)
    form = submitted_check(pick_check(system, request.GET.get("check")), request.GET)
    preview = None
    if form.params is not None:
        preview = odds_result(system, form.check, form.params, _house_file(battle))
    context = {"preview": preview, "form": form, "system": system, "battle": battle}
    return render(request, "pages/battle/_preview.html", context)


#: The choices an action keeps for the table that follows it: who acts, the check, the target.
KEPT = ("actor", "check", "against")


def _back_to_table(battle: Battle, request: HttpRequest, *names: str) -> HttpResponse:
    """Redirect to the table, keeping the choices made, scrolled to the result."""
    keep = {name: request.POST[name] for name in names if request.POST.get(name)}
    url = reverse("battle-page", args=[battle.pk])
    return redirect(f"{url}?{urlencode(keep)}#result" if keep else f"{url}#result")


def _done(
    request: HttpRequest, battle: Battle, access: BattleAccess, event: BattleEvent | None = None
) -> HttpResponse:
    """Answer an action that was applied (`event`, what its service returned): htmx gets the
    table it swaps in at once (one round trip), with the choices the redirect would carry; a
    plain form post the redirect."""
    if not _swaps(request):
        return _back_to_table(battle, request, *KEPT)
    fresh = _seated(event, battle) or _reload(battle)
    if fresh.status not in PLAYABLE:
        return _back_to_table(battle, request, *KEPT)  # the table would send it elsewhere
    kept = QueryDict(mutable=True)
    for name in KEPT:
        if request.POST.get(name):
            kept[name] = request.POST[name]
    # The action changed the battle (its state, its sides' breakpoints): drawn anew, as the
    # page the redirect names would draw it. Who the user is to it did not change.
    return _render_table(request, _table_context(request, fresh, access, query=kept))


def _key(request: HttpRequest) -> str:
    """Return the form's idempotency key: a double tap sends the same one twice."""
    return request.POST.get("key", "").strip()[:64]


def _refused(
    request: HttpRequest,
    battle: Battle,
    access: BattleAccess,
    problems: list[str],
    form: CheckForm | None = None,
) -> HttpResponse:
    # Nothing was changed; the battle is read with its sides, which a write did not load.
    context = _table_context(request, _reload(battle), access, form, problems=problems)
    return _render_table(request, context, status=_status(request))


@login_required
@require_POST
def battle_check(request: HttpRequest, pk: int) -> HttpResponse:
    """Resolve a check for the actor against the target, with server dice or dice typed in."""
    battle, access = _playable(request, pk)
    system = rules_for_battle(battle)
    form = submitted_check(pick_check(system, request.POST.get("check")), request.POST)
    if form.errors:
        return _refused(request, battle, access, [], form)
    event = None
    try:
        event = battle_resolve(
            battle=battle,
            check=form.check.name,
            actor=request.POST.get("actor"),
            target=request.POST.get("against") or None,
            params=form.params,
            dice=form.dice,
            user=signed_in(request.user),
            key=_key(request),
        )
    except ValidationError as exc:
        return _refused(request, battle, access, _messages(exc), form)
    except BattleConflict as exc:
        return _refused(request, battle, access, [str(exc)], form)
    except IntegrityError:
        pass  # the same request won a race with itself: it was applied once
    return _done(request, battle, access, event)


def _simple_post(
    request: HttpRequest, pk: int, call: Callable[..., BattleEvent], **kwargs: object
) -> HttpResponse:
    battle, access = _playable(request, pk)
    event = None
    try:
        event = call(battle=battle, user=request.user, key=_key(request), **kwargs)
    except ValidationError as exc:
        return _refused(request, battle, access, _messages(exc))
    except BattleConflict as exc:
        return _refused(request, battle, access, [str(exc)])
    except IntegrityError:
        pass  # the same request won a race with itself: it was applied once
    return _done(request, battle, access, event)


@login_required
@require_POST
def battle_void(request: HttpRequest, pk: int) -> HttpResponse:
    """Void the latest standing event; its effects are undone and it stays in the log."""
    return _simple_post(request, pk, battle_void_last)


@login_required
@require_POST
def battle_adjust_figure(request: HttpRequest, pk: int) -> HttpResponse:
    """Add or take off one wound, Hit or marker on a figure (a tap on its chip), logged."""
    battle, access = _playable(request, pk)
    state_key, _, change = request.POST.get("adjust", "").partition(":")
    event = None
    try:
        event = battle_adjust(
            battle=battle,
            figure=request.POST.get("figure"),
            state_key=state_key,
            change=change,
            reason=request.POST.get("reason", ""),
            user=signed_in(request.user),
            # One form per figure, one button per change: a double tap of the same button
            # sends the same key, another button on the same page a different one.
            key=f"{_key(request)}:{state_key}:{change}"[:64] if _key(request) else "",
        )
    except ValidationError as exc:
        return _refused(request, battle, access, _messages(exc))
    except BattleConflict as exc:
        return _refused(request, battle, access, [str(exc)])
    except IntegrityError:
        pass  # the same request won a race with itself: it was applied once
    return _done(request, battle, access, event)


@login_required
@require_POST
def battle_activation(request: HttpRequest, pk: int) -> HttpResponse:
    """Start the chosen activation method (its deck or dice) for this battle."""
    return _simple_post(request, pk, battle_activation_start, method=request.POST.get("method", ""))


@login_required
@require_POST
def battle_draw(request: HttpRequest, pk: int) -> HttpResponse:
    """Draw the next activation."""
    return _simple_post(request, pk, battle_activation_draw)


def _side_entries(battle: Battle, data: QueryDict) -> list[dict[str, Any]]:
    entries = []
    for side in battle.sides.all():
        points = data.get(f"vp-{side.pk}", "0").strip() or "0"
        if not points.lstrip("-").isdigit():
            raise ValidationError(
                {
                    "sides": [
                        f"side {side.index + 1}: victory points are a whole number, not {points!r}"
                    ]
                }
            )
        entries.append(
            {
                "side": side.pk,
                "result": data.get(f"result-{side.pk}", ""),
                "victory_points": int(points),
            }
        )
    return entries


@login_required
@require_POST
def battle_result(request: HttpRequest, pk: int) -> HttpResponse:
    """Record each side's result and victory points (the battle can then be finished)."""
    battle, access = _playable(request, pk)
    try:
        sides = _side_entries(battle, request.POST)
    except ValidationError as exc:
        return _refused(request, battle, access, _messages(exc))
    try:
        battle_record_result(battle=battle, sides=sides, user=signed_in(request.user))
    except ValidationError as exc:
        return _refused(request, battle, access, _messages(exc))
    except BattleConflict as exc:
        return _refused(request, battle, access, [str(exc)])
    messages.success(request, f"Result saved: {_result_words(battle)}.")
    url = reverse("battle-page", args=[battle.pk])
    return redirect(f"{url}#finish")


def _result_words(battle: Battle) -> str:
    """ "Red: Win (3 VP) · Blue: Loss (0 VP)", as just saved."""
    return " · ".join(
        f"{side.force.name}: {side.get_result_display()} ({side.victory_points} VP)"
        for side in battle.sides.select_related("force").order_by("index")
    )


@login_required
@require_POST
def battle_end(request: HttpRequest, pk: int) -> HttpResponse:
    """Finish the battle: the result is committed and the post-battle rolls are queued."""
    battle, access = _playable(request, pk)
    try:
        battle_finish(battle=battle, user=signed_in(request.user), key=_key(request))
    except ValidationError as exc:
        return _refused(request, battle, access, _messages(exc))
    except BattleConflict as exc:
        return _refused(request, battle, access, [str(exc)])
    messages.success(request, "The battle is finished; the post-battle rolls are on their way.")
    return redirect("battle-after", pk=battle.pk)


@login_required
@require_POST
def battle_remove(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete an abandoned battle (its creator, before it is finished); back to the campaign."""
    battle, access = _battle(request, pk)
    campaign_id, name = battle.campaign_id, str(battle)
    try:
        battle_delete(battle=battle, user=signed_in(request.user))
    except BattleConflict as exc:
        return _refused(request, battle, access, [str(exc)])
    messages.success(request, f"{name} was abandoned: the battle and its log are deleted.")
    if campaign_id:
        return redirect("campaign-page", pk=campaign_id)
    return redirect("home")


# --- after the battle ---------------------------------------------------------------------


def _after_context(battle: Battle, user: Visitor) -> dict[str, object]:
    processed = battle.status == BattleStatus.PROCESSED
    audit = battle_audit(battle=battle) if processed else None
    ledger = battle_ledger(battle) if processed else ()
    checks = {row["id"]: row["matches"] for row in audit["ledger"]} if audit else {}
    system = rules_for_battle(battle)
    return {
        "battle": battle,
        "processed": processed,
        "audit": audit,
        "ledger": [
            (row, narrate.roll_sentence(system.key, roll_json(row), row.character.name))
            for row in ledger
        ],
        "ledger_checks": checks,
        "report": battle_report(battle, system, ledger),
        "events": [event_view(system, e) for e in battle_events(battle)],
        "system": system,
        **consent_context(battle, user),
    }


def after_refused(request: HttpRequest, battle: Battle, problems: list[str]) -> HttpResponse:
    """Show the after page again with why an answer to the result was refused (400)."""
    context = {**_after_context(battle, request.user), "problems": problems}
    return render(request, "pages/battle/after.html", context, status=400)


@login_required
def battle_after(request: HttpRequest, pk: int) -> HttpResponse:
    """Show the post-battle rolls and their effects, and the audit once the seed is revealed."""
    battle, _ = _battle(request, pk)
    if battle.status in PLAYABLE:
        return redirect("battle-page", pk=battle.pk)
    return render(request, "pages/battle/after.html", _after_context(battle, request.user))


@login_required
def battle_progress(request: HttpRequest, pk: int) -> HttpResponse:
    """Answer the progress poll; once the rolls are in, tell htmx to reload the page."""
    battle, _ = _battle(request, pk)
    if battle.status == BattleStatus.PROCESSED and from_htmx(request):
        return HttpResponseClientRefresh()
    return render(request, "pages/battle/_progress.html", {"battle": battle})


# --- setting up ---------------------------------------------------------------------------


def _setup_campaign(request: HttpRequest) -> Campaign | None:
    raw = request.GET.get("campaign") or request.POST.get("campaign")
    if not raw or not str(raw).isdigit():
        return None
    return get_object_or_404(campaigns_visible_to(request.user), pk=int(raw))


def _scoped(forces: QuerySet[Force], campaign: Campaign | None) -> QuerySet[Force]:
    return forces.filter(campaign=campaign) if campaign else forces


def _chosen(forces: tuple[Force, ...], raw: str | None) -> Force | None:
    return next((f for f in forces if str(f.pk) == str(raw)), None)


def _system_of(campaign: Campaign | None, *forces: Force | None) -> RuleSystem | None:
    if campaign is not None:
        return rules_for_campaign(campaign)  # what the battle will be played under
    key = next((f.system for f in forces if f), None)
    return get_system(key) if key else None


def _scenarios(system: RuleSystem | None) -> list[tuple[str, str]]:
    if system is None:
        return []
    table = system.tables(system.options.validate({})).get("scenarios") or []
    return [
        (s["name"], f"{s.get('roll', '')}. {s['name']}".lstrip(". "))
        for s in table
        if isinstance(s, dict) and "name" in s
    ]


def _battle_date(data: QueryDict) -> date | None:
    """Return the date typed on the form (None when blank or not a date)."""
    try:
        return _date(data.get("campaign_date", "").strip())
    except ValidationError:
        return None


def _picks(force: Force | None, on: date | None) -> tuple[Pick, ...]:
    return battle_picks(force, on) if force is not None else ()


def _picked(picks: tuple[Pick, ...], data: QueryDict, key: str) -> set[int]:
    """Return the ticked characters who may fight; everyone fit when none of them is ticked."""
    fit = {p.character.pk for p in picks if p.fit}
    ticked = {int(v) for v in data.getlist(key) if v.isdigit()} & fit
    return ticked or fit


def _opponents(forces: QuerySet[Force], first: Force | None) -> QuerySet[Force]:
    """Only forces that can fight the first: its system, its campaign (the battle's), not it."""
    if first is None:
        return forces
    return forces.filter(system=first.system, campaign=first.campaign_id).exclude(pk=first.pk)


def _setup_context(request: HttpRequest, data: QueryDict, **extra: object) -> dict[str, Any]:
    named = campaign = _setup_campaign(request)
    mine = forces_for_battle(_scoped(forces_editable_by(request.user), campaign))
    first = _chosen(mine, data.get("side1") or request.GET.get("force"))
    # Set up from a force page or Home: the first force's campaign is the battle's.
    campaign = campaign or (first.campaign if first is not None else None)
    visible = _scoped(forces_visible_to(request.user), campaign)
    theirs = forces_for_battle(_opponents(visible, first))
    second = _chosen(theirs, data.get("side2"))
    system = _system_of(campaign, first, second)
    default_date = campaign.calendar_date if campaign else None
    on = _battle_date(data) or default_date
    picks1, picks2 = _picks(first, on), _picks(second, on)
    return {
        "campaign": campaign,
        "campaign_named": named,
        "mine": mine,
        "theirs": theirs,
        "first": first,
        "second": second,
        "system": system,
        "scenarios": _scenarios(system),
        "picks1": picks1,
        "picks2": picks2,
        "picked1": _picked(picks1, data, "characters1"),
        "picked2": _picked(picks2, data, "characters2"),
        "data": data,
        "default_date": default_date,
        **extra,
    }


def _choice(force: Force | None, data: QueryDict, key: str) -> SideChoice | None:
    if force is None:
        return None
    ids = {int(v) for v in data.getlist(key) if v.isdigit()}
    # Whoever is ticked goes to the service, which refuses (by name) anyone unfit.
    chosen = force.characters.filter(pk__in=ids).select_related("unit", "force").order_by("pk")
    return SideChoice(force=force, characters=tuple(chosen))


def _date(raw: str) -> date | None:
    try:
        return date.fromisoformat(raw) if raw else None
    except ValueError:
        raise ValidationError({"campaign_date": ["enter the date as YYYY-MM-DD"]}) from None


@login_required
def battle_new(request: HttpRequest) -> HttpResponse:
    """Set up a battle: two forces, who fights, the scenario and the campaign date."""
    data = request.POST if request.method == "POST" else request.GET
    context = _setup_context(request, data)
    if request.method != "POST":
        return render(request, "pages/battle/new.html", context)
    first = _choice(context["first"], data, "characters1")
    second = _choice(context["second"], data, "characters2")
    try:
        if first is None or second is None:
            raise ValidationError({"sides": ["choose a force for each side"]})
        battle = battle_start(
            sides=[first, second],
            campaign=context["campaign"],
            scenario=data.get("scenario", "").strip()[:120],
            campaign_date=_date(data.get("campaign_date", "").strip()),
            user=signed_in(request.user),
            one_phone=data.get("phones") != "each",
        )
    except ValidationError as exc:
        context["problems"] = _messages(exc)
        return render(request, "pages/battle/new.html", context, status=400)
    return redirect("battle-page", pk=battle.pk)
