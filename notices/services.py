"""Notification writes: record an event once, open its deliveries, notify the players.

Everything here runs inside the caller's transaction and only queues work for after the
commit: the request that caused an event never talks to a webhook or a mail server.
"""

from __future__ import annotations

import copy
import hashlib
import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Membership, Role, display_name
from common.json_types import JSONObject
from common.queueing import send_now
from common.users import User
from league.models import Pairing, Round, Winner
from notices.models import Delivery, Event, EventKind, Notice, NoticeSettings, Webhook

if TYPE_CHECKING:
    from battles.models import Battle  # imported where used: battles sends to notices

logger = logging.getLogger("muster.notify")

# --- events and their deliveries ---------------------------------------------------------------


@transaction.atomic
def event_record(
    *, campaign: Campaign, kind: str, key: str, title: str, text: str, data: JSONObject
) -> Event | None:
    """Write the event once (a second call with the same `key` does nothing) and queue one
    delivery per active hook that listens for it, sent after the commit."""
    event, created = Event.objects.get_or_create(
        key=key,
        defaults={"campaign": campaign, "kind": kind, "title": title, "text": text, "data": data},
    )
    if not created:
        return None
    hooks = [h for h in Webhook.objects.filter(campaign=campaign, active=True) if kind in h.events]
    for delivery in Delivery.objects.bulk_create(Delivery(event=event, webhook=h) for h in hooks):
        queue_delivery(delivery.pk)
    return event


def queue_delivery(delivery_id: int) -> None:
    transaction.on_commit(lambda: dispatch(delivery_id))


def dispatch(delivery_id: int) -> None:
    """Send the delivery task; with eager tasks (the embedded defaults) on a background thread,
    so the response never waits for the receiver."""
    from notices.tasks import deliver_to_hook

    if settings.CELERY_TASK_ALWAYS_EAGER and getattr(settings, "NOTIFY_EAGER_IN_BACKGROUND", True):
        threading.Thread(
            target=_deliver_in_background, args=(delivery_id,), daemon=True, name="muster-notify"
        ).start()
        return
    send_now(deliver_to_hook, failure_event="notify.queue_failed", delivery_id=delivery_id)


def _deliver_in_background(delivery_id: int) -> None:
    """Without a worker: deliver, waiting out the same backoff a worker's retries would."""
    from notices.delivery import deliver

    try:
        outcome = deliver(delivery_id=delivery_id)
        while outcome.retry_in is not None:
            time.sleep(outcome.retry_in)
            outcome = deliver(delivery_id=delivery_id)
    finally:
        connection.close()


# --- what the club hears --------------------------------------------------------------------


def result_line(pairing: Pairing) -> str:
    """The game's result in one sentence: "Round 2, table 1: alice beat bob, 12 to 8."."""
    where = f"Round {pairing.round.number}, table {pairing.table}"
    home = display_name(pairing.home.user)
    away = display_name(pairing.away.user) if pairing.away else ""
    if pairing.away is None:
        return f"{where}: {home} has the bye."
    if pairing.home_no_show and pairing.away_no_show:
        return f"{where}: neither {home} nor {away} turned up."
    if pairing.home_no_show or pairing.away_no_show:
        gone, stayed = (home, away) if pairing.home_no_show else (away, home)
        return f"{where}: {gone} did not turn up; {stayed} takes the win."
    score = f"{pairing.home_vp} to {pairing.away_vp} victory points"
    if pairing.winner == Winner.DRAW:
        return f"{where}: {home} and {away} drew, {score}."
    winner, loser = (home, away) if pairing.winner == Winner.HOME else (away, home)
    how = "a major victory over" if pairing.major_victory else "beat"
    if how == "beat":
        return f"{where}: {winner} beat {loser}, {score}."
    return f"{where}: {winner} won {how} {loser}, {score}."


def _pairing_data(pairing: Pairing) -> JSONObject:
    return {
        "pairing": pairing.pk,
        "round": pairing.round.number,
        "table": pairing.table,
        "home": display_name(pairing.home.user),
        "away": display_name(pairing.away.user) if pairing.away else None,
        "winner": pairing.winner,
        "home_vp": pairing.home_vp,
        "away_vp": pairing.away_vp,
        "version": pairing.version,
    }


def result_written(*, pairing: Pairing, confirmed: bool, by: User) -> None:
    """A result was reported or confirmed: tell the hooks, and the players who must act."""
    campaign = pairing.round.campaign
    kind = EventKind.RESULT_CONFIRMED if confirmed else EventKind.RESULT_REPORTED
    line = result_line(_as_reported_by(pairing, by) if not confirmed else pairing)
    who = display_name(by)
    verb = "confirmed" if confirmed else "reported"
    # A confirmation is one deliberate act per version (a second one is refused); a report is
    # keyed by who said what, so a player sending the same report twice announces it once.
    said = f"v{pairing.version}" if confirmed else f"u{by.pk}:{_claim_digest(pairing)}"
    event_record(
        campaign=campaign,
        kind=kind,
        key=f"{kind}:{pairing.pk}:{said}",
        title=f"{campaign.name}: result {verb}",
        text=f"{who} {verb} a result. {line}",
        data=_pairing_data(pairing),
    )
    url = reverse("pairing-report", args=[pairing.pk])
    if confirmed:
        for member in (m for m in (pairing.home, pairing.away) if m is not None):
            notice_create(
                user_id=member.user_id,
                campaign=campaign,
                key=f"confirmed:{pairing.pk}:v{pairing.version}",
                text=f"{who} confirmed the result of your game. {line}",
                url=url,
            )
        return
    waiting = _players_to_confirm(pairing, by)
    for member in waiting:
        notice_create(
            user_id=member.user_id,
            campaign=campaign,
            key=f"to-confirm:{pairing.pk}:{said}",
            text=(
                f"{who} reported the result of your game: {line} Report the same result to "
                "confirm it, or your own if it differs."
            ),
            url=url,
        )


def _as_reported_by(pairing: Pairing, by: User) -> Pairing:
    """The game as `by` reported it: a disputing report is kept apart (`disputed_claim`) while
    the pairing holds the first one, and the message must say what this player said."""
    claim = dict(pairing.disputed_claim or {})
    side = str(claim.pop("side", "")).lower()
    mine = "home" if pairing.home.user_id == getattr(by, "pk", None) else "away"
    if not pairing.disputed or side != mine:
        return pairing
    told = copy.copy(pairing)
    for name, value in claim.items():
        if hasattr(told, name):
            setattr(told, name, value)
    return told


def _claim_digest(pairing: Pairing) -> str:
    """A short fingerprint of the result a pairing now holds (and of a disputed claim)."""
    fields = (
        pairing.winner,
        pairing.home_vp,
        pairing.away_vp,
        pairing.home_figures_lost,
        pairing.away_figures_lost,
        pairing.major_victory,
        pairing.home_no_show,
        pairing.away_no_show,
        sorted((pairing.disputed_claim or {}).items()),
    )
    return hashlib.sha256(repr(fields).encode()).hexdigest()[:16]


def _players_to_confirm(pairing: Pairing, by: User) -> list[Membership]:
    if pairing.is_settled or pairing.away is None:
        return []
    waiting = []
    if not pairing.reported_by_home and pairing.home.user_id != by.pk:
        waiting.append(pairing.home)
    if not pairing.reported_by_away and pairing.away.user_id != by.pk:
        waiting.append(pairing.away)
    return waiting


def round_paired(*, round_: Round) -> None:
    """A round was paired: tell the hooks and give each player their game."""
    campaign = round_.campaign
    pairings = list(
        Pairing.objects.filter(round=round_).select_related("home__user", "away__user", "round")
    )
    games = [result_line_unplayed(p) for p in pairings]
    event_record(
        campaign=campaign,
        kind=EventKind.ROUND_PAIRED,
        key=f"{EventKind.ROUND_PAIRED}:{round_.pk}",
        title=f"{campaign.name}: round {round_.number} is paired",
        text="\n".join(games),
        data={"round": round_.number, "games": [_pairing_data(p) for p in pairings]},
    )
    url = reverse("campaign-page", args=[campaign.pk])
    for pairing in pairings:
        for member, other in ((pairing.home, pairing.away), (pairing.away, pairing.home)):
            if member is None:
                continue
            game = (
                f"you play {display_name(other.user)} at table {pairing.table}"
                if other is not None
                else "you have the bye"
            )
            notice_create(
                user_id=member.user_id,
                campaign=campaign,
                key=f"paired:{round_.pk}",
                text=f"{campaign.name}, round {round_.number}: {game}.",
                url=url,
            )


def result_line_unplayed(pairing: Pairing) -> str:
    home = display_name(pairing.home.user)
    if pairing.away is None:
        return f"{home} has the bye."
    return f"Table {pairing.table}: {home} against {display_name(pairing.away.user)}."


def battle_processed(*, battle_id: int) -> Event | None:
    """A battle's aftermath is rolled: tell the hooks, with the battle's report."""
    from battles.models import Battle

    battle = Battle.objects.select_related("campaign").get(pk=battle_id)
    if battle.campaign is None:
        return None
    title, text = battle_words(battle)
    return event_record(
        campaign=battle.campaign,
        kind=EventKind.BATTLE_PROCESSED,
        key=f"{EventKind.BATTLE_PROCESSED}:{battle.pk}",
        title=f"{battle.campaign.name}: {title}",
        text=text,
        data={"battle": battle.pk},
    )


#: Discord refuses a message longer than 2,000 characters; the report is cut at a sentence.
REPORT_LIMIT = 1800


def battle_words(battle: Battle) -> tuple[str, str]:
    """The battle's title and its short report: the chronicle's report, cut to fit a chat.

    The battle is already processed when this runs; a report that cannot be written must not
    turn that into a failed task, so the club then hears the battle's result line instead.
    """
    from chronicle.reports import battle_report

    try:
        story = battle_report(battle)
    except Exception:  # the announcement is never worth failing the post-battle step
        logger.exception("notify.report_failed", extra={"battle": battle.pk})
        return str(battle), battle_result_line(battle)
    text = ""
    for sentence in story.sentences():
        if len(text) + len(sentence.text) + 1 > REPORT_LIMIT:
            break
        text = f"{text} {sentence.text}".strip()
    return story.title, text


_RESULT_WORDS = {"WIN": "won", "LOSS": "lost", "DRAW": "drew"}


def battle_result_line(battle: Battle) -> str:
    """ "Gridley's Company won; The Black Watch lost." from the battle's sides."""
    sides = battle.sides.select_related("force").order_by("index")
    said = [f"{side.force.name} {_RESULT_WORDS.get(side.result, 'fought')}" for side in sides]
    return "; ".join(said) + "."


def battle_reported(*, battle_id: int, by: User) -> None:
    """A result waits for the other side: tell each player who must confirm it."""
    from battles.models import Battle

    battle = Battle.objects.get(pk=battle_id)
    who, line = display_name(by), battle_result_line(battle)
    url = reverse("battle-after", args=[battle.pk])
    waiting = battle.sides.filter(agreed_at__isnull=True).select_related("force__campaign")
    for side in waiting:
        campaign = battle.campaign or side.force.campaign
        if campaign is None or side.force.owner_id == by.pk:
            continue  # a notice belongs to a campaign; outside one the battle page says it
        notice_create(
            user_id=side.force.owner_id,
            campaign=campaign,
            key=f"battle-to-confirm:{battle.pk}:{battle.reported_at:%Y%m%d%H%M%S%f}",
            text=(
                f"{who} reported the result of {battle}: {line} Nothing changes for "
                f"{side.force.name} until you confirm it (or dispute it)."
            ),
            url=url,
        )


def battle_disputed(*, battle_id: int, by: User) -> None:
    """A reported result is disputed: tell the organisers who settle it."""
    from battles.models import Battle

    battle = Battle.objects.get(pk=battle_id)
    url = reverse("battle-after", args=[battle.pk])
    campaigns = {
        side.force.campaign
        for side in battle.sides.select_related("force__campaign")
        if side.force.campaign is not None
    }
    for campaign in campaigns:
        organisers = campaign.memberships.filter(role=Role.ORGANISER).values_list(
            "user_id", flat=True
        )
        for user_id in organisers:
            notice_create(
                user_id=user_id,
                campaign=campaign,
                key=f"battle-disputed:{battle.pk}:{battle.reported_at:%Y%m%d%H%M%S%f}",
                text=(
                    f"{display_name(by)} disputed the result of {battle}"
                    f"{': ' + battle.dispute_note if battle.dispute_note else ''}. Settle it, or "
                    "reopen it for the players to correct."
                ),
                url=url,
            )


# --- players' notices -----------------------------------------------------------------------


def notice_create(*, user_id: int, campaign: Campaign, key: str, text: str, url: str = "") -> None:
    """Give a player a notice once (same key, no second notice); e-mail it if they asked."""
    notice, created = Notice.objects.get_or_create(
        user_id=user_id, key=key, defaults={"campaign": campaign, "text": text, "url": url}
    )
    if created and NoticeSettings.objects.filter(user_id=user_id, email=True).exists():
        from notices.tasks import email_notice

        transaction.on_commit(
            lambda: send_now(email_notice, failure_event="notify.mail_failed", notice_id=notice.pk)
        )


def notice_email(*, notice_id: int) -> bool:
    """Mail a notice once: the conditional UPDATE claims it, so a duplicate task sends nothing."""
    from django.core.mail import send_mail

    claimed = Notice.objects.filter(pk=notice_id, emailed_at__isnull=True).update(
        emailed_at=timezone.now()
    )
    notice = Notice.objects.select_related("user").get(pk=notice_id)
    if not claimed or not notice.user.email:
        return False
    send_mail(
        subject=f"[Muster] {notice.text[:60]}",
        message=notice.text,
        from_email=None,
        recipient_list=[notice.user.email],
    )
    return True


def notices_mark_read(*, user: User, notice_ids: list[int] | None = None) -> int:
    """Mark some (or all) of a player's unread notices read; return how many changed."""
    rows = Notice.objects.filter(user=user, read_at__isnull=True)
    if notice_ids is not None:
        rows = rows.filter(pk__in=notice_ids)
    return rows.update(read_at=timezone.now())


def notice_settings_update(*, user: User, email: bool) -> NoticeSettings:
    """Save a player's choice; the default chosen again stores nothing (a form saved unchanged
    changes no row)."""
    row = NoticeSettings.objects.filter(user=user).first() or NoticeSettings(user=user)
    if row.email != email:
        row.email = email
        row.save()
    return row


# --- webhooks, as organisers manage them ---------------------------------------------------------

#: What an organiser may set on a hook; the delivery counters are the worker's.
WEBHOOK_FIELDS = ("name", "url", "format", "events", "active")


@transaction.atomic
def webhook_create(*, campaign: Campaign, **fields: Any) -> Webhook:
    """Add a webhook to a campaign; a bad address or event is a ValidationError, nothing saved."""
    hook = Webhook(campaign=campaign, **_webhook_fields(fields))
    hook.full_clean()
    hook.save()
    return hook


@transaction.atomic
def webhook_update(*, webhook: Webhook, **fields: Any) -> Webhook:
    """Change a webhook's name, address, format, events or switch; switching it back on clears
    the failures that switched it off."""
    changes = _webhook_fields(fields)
    if changes.get("active") and not webhook.active:
        webhook.failures_in_row, webhook.disabled_at = 0, None
    for name, value in changes.items():
        setattr(webhook, name, value)
    webhook.full_clean()
    webhook.save()
    return webhook


@transaction.atomic
def webhook_delete(*, webhook: Webhook) -> None:
    """Remove a webhook with its delivery ledger (the events themselves stay)."""
    webhook.delete()


def _webhook_fields(fields: dict[str, object]) -> dict[str, object]:
    unknown = sorted(set(fields) - set(WEBHOOK_FIELDS))
    if unknown:
        raise TypeError(f"a webhook has no settable field {unknown[0]!r}")
    return fields
