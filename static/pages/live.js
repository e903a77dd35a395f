// The live table: follow the battle's event log over Server-Sent Events (pages/live.py).
// The log is the source of truth; each message is one event (id = its number in the log),
// rendered by the server with the chips it changed. An event the page already shows (its own
// action, swapped in by htmx) is not added twice. A dropped connection is made again from the
// last event seen (EventSource sends Last-Event-ID), and the page says it is reconnecting.
(function () {
  "use strict";
  const status = document.querySelector("[data-live]");
  if (!status || !window.EventSource) return;
  const url = status.dataset.live;
  let last = Number(status.dataset.liveAfter || 0);
  let source = null;

  function reconnecting(on) { status.hidden = !on; }

  function shown(seq) { return document.querySelector(`[data-live-log] .event[data-seq="${seq}"]`); }

  function addLine(data) {
    const log = document.querySelector("[data-live-log]");
    if (!log) return;
    log.insertAdjacentHTML("afterbegin", data.line);
    log.firstElementChild.classList.add("is-new");
    const keep = Number(log.dataset.liveKeep || 0);
    while (keep && log.children.length > keep) log.lastElementChild.remove();
    const card = document.querySelector("[data-live-log-card]");
    if (card) card.hidden = false;
  }

  function showResult(data) {
    const box = document.querySelector("#result");
    if (!box) return;
    const body = box.querySelector(".result__body");
    if (body) body.outerHTML = data.result; else box.insertAdjacentHTML("beforeend", data.result);
    box.classList.remove("result--empty");
    const now = box.querySelector(".result__body");
    if (now && data.odds) now.insertAdjacentHTML("beforeend", `<p class="small muted" data-testid="odds-applied">${data.odds}</p>`);
  }

  function markVoided(seq) {
    document.querySelectorAll(`.event[data-seq="${seq}"], .result__body[data-seq="${seq}"]`).forEach((el) => {
      if (el.classList.contains("is-voided")) return;
      el.classList.add("is-voided");
      el.insertAdjacentHTML("beforeend", ' <span class="badge badge--voided">voided</span>');
    });
  }

  function updateChips(chips) {
    for (const [id, chip] of Object.entries(chips || {})) {
      document.querySelectorAll(`[data-figure-id="${id}"]`).forEach((row) => {
        const old = row.querySelector("[data-chips]");
        // A player's own row keeps the × buttons that submit its adjust form.
        if (old) old.outerHTML = old.closest("form.adjust") ? chip.adjust : chip.html;
        row.classList.toggle("is-out", chip.out);
      });
    }
  }

  // After a start, a draw or a void, show this phone's Draw button or the wait in words:
  // the message says which sides draw next (null: either), the card which this viewer plays.
  function updateDraw(draw) {
    const box = document.querySelector("[data-draw]");
    if (!draw || !box) return;
    const now = box.querySelector("[data-activation-now]");
    if (now) now.outerHTML = draw.now;
    const plays = box.dataset.drawPlays || "";
    const mine = plays === "all" || draw.sides === null
      || draw.sides.some((side) => plays.split(",").includes(String(side)));
    const waits = box.querySelector("[data-draw-waits]");
    const form = box.querySelector("[data-draw-form]");
    if (waits) { waits.textContent = mine ? "" : draw.waits; waits.hidden = mine; }
    if (form) form.hidden = !mine;
  }

  function onEvent(message) {
    const data = JSON.parse(message.data);
    if (data.seq <= last) return;
    last = data.seq;
    if (!shown(data.seq)) {
      addLine(data);
      showResult(data);
    }
    if (data.voids) markVoided(data.voids);
    updateChips(data.chips);
    updateDraw(data.draw);
    document.dispatchEvent(new CustomEvent("muster:live", { detail: data }));
  }

  // A server without ASGI (runserver) ends each stream on purpose with a `poll` event; the
  // browser then asks again by itself, and that is no reason to say "reconnecting".
  let polled = false;

  function connect() {
    source = new EventSource(`${url}?after=${last}`);
    source.addEventListener("open", () => reconnecting(false));
    source.addEventListener("battle-event", onEvent);
    source.addEventListener("poll", () => { polled = true; });
    source.addEventListener("error", () => {
      if (polled && source.readyState === EventSource.CONNECTING) { polled = false; return; }
      reconnecting(true);
      // The browser retries by itself while the stream is CONNECTING; a CLOSED one (an error
      // answer during an outage) is opened again here, from the last event seen.
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 1000);
    });
  }

  connect();
})();
