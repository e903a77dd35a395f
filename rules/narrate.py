"""Plain words for what the rules engine did: one sentence per check, roll, effect or change.

Every function takes the stored JSON of a result (a `Resolution`, `Effect`, `PostBattleRoll` or
`Change` as `as_json()` gives it, or a battle's activation event) and the key of its system,
and returns text a player reads: in the game's words where the system supplies them
(`RuleSystem.words`, see `rules.words`), and never a raw key, since any word a system does not
supply falls back to its key with the underscores turned to spaces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date
from typing import Any

from rules.errors import UnknownSystem
from rules.system import RuleSystem, get_system
from rules.words import COMMON_STATES, NO_WORDS, StateWord, Words

#: Check names under which a battle stores its activation events.
ACTIVATION_START = "activation.start"
ACTIVATION_DRAW = "activation.draw"

_COUNTED = re.compile(r"^([a-z_]+?)_(\d+)$")


# --- words of a system ----------------------------------------------------------------------


def _system(system_key: str) -> RuleSystem | None:
    try:
        return get_system(system_key)
    except UnknownSystem:
        return None


def words_of(system_key: str) -> Words:
    """The system's vocabulary, or none (every word then falls back to its key)."""
    system = _system(system_key)
    return system.words if system is not None else NO_WORDS


def humanise(key: Any) -> str:
    """A key as words: underscores become spaces ("falls_back" -> "falls back")."""
    return str(key).replace("_", " ").strip()


#: Values any system's state or result entry may hold, in words (a system's own come first).
COMMON_VALUES: Mapping[str, str] = {
    "ko": "knocked out",
    "out": "out of action",
    "falling_back": "falling back",
}


def _value_text(words: Words, value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        if value in words.values:
            return words.values[value]
        return COMMON_VALUES.get(value) or humanise(value)
    if isinstance(value, list | tuple):
        return ", ".join(_value_text(words, item) for item in value)
    if isinstance(value, Mapping):
        return ", ".join(f"{humanise(k)} {_value_text(words, v)}" for k, v in value.items())
    return str(value)


# --- outcomes, dice and effects -------------------------------------------------------------


def outcome_label(system_key: str, check: str, outcome: str) -> str:
    """The words for one outcome of one check: "crippling wound", "hit", "Shaken"."""
    words = words_of(system_key)
    label = words.check_outcomes.get(check, {}).get(outcome) or words.outcomes.get(outcome)
    if label:
        return label
    counted = _COUNTED.match(outcome)
    if counted:  # "hits_3" -> "3 hits", "hits_1" -> "1 hit", "hits_0" -> "no hits"
        count, word = int(counted.group(2)), _fallback_word(counted.group(1))
        return word.amount(count) if count else f"no {humanise(counted.group(1))}"
    return humanise(outcome)


def dice_text(dice: Sequence[Mapping[str, Any]]) -> str:
    """Each die with what it was for: "to hit d12: 3 · damage d12: 4"."""
    return " · ".join(_die_text(roll) for roll in dice)


def _die_text(roll: Mapping[str, Any]) -> str:
    die = _die_name(roll.get("die"))
    label = humanise(roll.get("label") or "")  # "improvement: pike_trailer" names a stat key
    head = f"{label} {die}" if label else die
    return f"{head}: {roll.get('value')}"


def _die_name(die: Any) -> str:
    if die == "avg":
        return "average die"
    return str(die or "die")


def _state_word(words: Words, key: str) -> StateWord:
    return words.states.get(key) or COMMON_STATES.get(key) or _fallback_word(key)


def _fallback_word(key: str) -> StateWord:
    # A key named as a plural ("wounds", "hits") counts that thing: "1 wound", "2 wounds".
    label = humanise(key)
    if label.endswith("s") and not label.endswith(("ss", "us")):
        return StateWord(label[:-1], plural=label)
    return StateWord(label, "level")


def effect_text(system_key: str, effect: Mapping[str, Any]) -> str:
    """One effect on a figure's state: "knocked down", "2 wound points", "no longer Shaken"."""
    return _effect_text(words_of(system_key), effect)


def _effect_text(words: Words, effect: Mapping[str, Any], said: str = "") -> str:
    key, value = str(effect.get("key", "")), effect.get("value")
    word = _state_word(words, key)
    note = _note(words, effect)
    if note and said and note.lower() in said.lower():
        note = ""  # the outcome already says it: "crippling wound — 3 wound points"
    if effect.get("op") == "add" and isinstance(value, int | float) and value is not True:
        return _added(word, int(value), note)
    return _with_note(_set(words, word, key, value), note)


def _note(words: Words, effect: Mapping[str, Any]) -> str:
    note = str(effect.get("note") or "")
    return words.values[note] if note in words.values else humanise(note)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _added(word: StateWord, count: int, note: str) -> str:
    if word.kind == "flag":
        return _with_note(_flag(word, count > 0), note)
    if word.kind == "level":
        text = f"{word.label} {count:+d}" if count else f"{word.label} unchanged"
    elif count == 0:
        return ""  # nothing added: the outcome ("no Hits") says so
    elif count < 0:
        text = word.lost(-count)
    else:
        text = word.amount(count)
    # A note that restates the number ("4 hit(s)") adds nothing to the amount; one that names
    # the harm leads: "minor wound (1 wound point)".
    if not note or any(ch.isdigit() for ch in note) or note.lower() in text.lower():
        return text
    return f"{note} ({text})"


def _with_note(text: str, note: str) -> str:
    """Join an effect and its note without saying the same thing twice."""
    if not text or not note or note.lower() in text.lower():
        return text  # an effect worded as nothing stays silent, note and all
    first = text.split(" ")[0].lower()
    if len(first) > 3 and first in note.lower():  # "knocked down" + "knocked down by the wound"
        return note
    return f"{text} ({note})"


def _flag(word: StateWord, on: bool) -> str:
    if on:
        return word.on or word.label
    return f"no longer {word.label}" if word.off is None else word.off


def _set(words: Words, word: StateWord, key: str, value: Any) -> str:
    if value is True or value is False or value is None:
        return _flag(word, bool(value))
    if _is_number(value):
        if word.kind == "flag":
            return _flag(word, value > 0)
        if word.kind == "count":
            # Back to nought is bookkeeping ("reloading done") unless the system words it.
            return word.amount(int(value)) if value else word.off or ""
        return f"{word.label} {value}"
    return _text_value(words, word, key, value)


def _text_value(words: Words, word: StateWord, key: str, value: Any) -> str:
    text = _value_text(words, value)
    # A status names itself ("routed"); another key's word needs its name ("morale: panic").
    if key == "status" or str(value) in words.values:
        return text
    return f"{word.label}: {text}"


# --- the sentence for an event --------------------------------------------------------------


def event_sentence(
    system_key: str,
    event: Mapping[str, Any],
    actor: str | None = None,
    target: str | None = None,
) -> str:
    """What happened in one battle event, as one sentence.

    `event` is a resolved check's JSON ({"check", "params", "outcome", "dice", "details",
    "effects"}) or a battle's activation event (check "activation.start" / "activation.draw",
    or "kind": "activation"). `actor` and `target` are the figures' names, when there are any.
    """
    check = str(event.get("check") or event.get("check_name") or "")
    if event.get("kind") == "activation" or check.startswith("activation."):
        return activation_sentence(system_key, event)
    words = words_of(system_key)
    outcome = str(event.get("outcome") or "")
    head = _who_did_what(system_key, words, check, actor, target)
    said = outcome_label(system_key, check, outcome) if outcome else ""
    said += _details_text(words, check, event.get("details") or {})
    effects = _effects_text(words, event.get("effects") or (), said, actor, target)
    sentence = f"{head}: {said}" if said else head
    if effects:
        sentence += f" — {effects}"
    return _finish(sentence)


def _who_did_what(
    system_key: str, words: Words, check: str, actor: str | None, target: str | None
) -> str:
    verb = words.verbs.get(check)
    if verb and actor:
        doing, towards = verb
        if target:
            return " ".join(part for part in (actor, doing, towards, target) if part)
        return f"{actor} {doing}"
    title = check_title(system_key, check)
    if actor and target:
        return f"{actor}, {_lower_first(title)} against {target}"
    if actor:
        return f"{actor}, {_lower_first(title)}"
    if target:
        return f"{title} against {target}"
    return title


def check_title(system_key: str, check: str) -> str:
    """A check's short name: its title up to any colon ("Fire", "Wound aftermath")."""
    system = _system(system_key)
    if system is not None and check in system.words.titles:
        return system.words.titles[check]
    found = system.checks.get(check) if system is not None else None
    title = found.title if found is not None else humanise(check).capitalize()
    return title.split(":", 1)[0].strip()


def _lower_first(text: str) -> str:
    # "Melee attack" -> "melee attack", but a name in capitals ("d12 ...", "Vigor") stays.
    first_word = text.split(" ", 1)[0]
    if len(first_word) > 1 and first_word[1:].islower():
        return text[:1].lower() + text[1:]
    return text


def _details_text(words: Words, check: str, details: Mapping[str, Any]) -> str:
    text = ""
    for name, template in words.details.items():
        owner, dot, key = name.rpartition(".")
        if dot and owner != check:
            continue
        value = details.get(key)
        if value is None or isinstance(value, bool | list | dict) or value == "":
            continue  # only a plain value fits a template
        text += template.format(_value_text(words, value))
    return text


def _effects_text(
    words: Words,
    effects: Iterable[Mapping[str, Any]],
    said: str,
    actor: str | None,
    target: str | None,
) -> str:
    on: dict[str, list[str]] = {"target": [], "actor": []}
    for effect in effects:
        word = _state_word(words, str(effect.get("key", "")))
        texts = on.setdefault(str(effect.get("who")), [])
        text = "" if word.hidden else _effect_text(words, effect, said)
        if text and text.lower() not in said.lower() and text not in texts:
            texts.append(text)
    groups = {who: ", ".join(texts) for who, texts in on.items() if texts}
    if len(groups) == 1 and ("target" in groups or not target):
        return next(iter(groups.values()))  # one figure's effects: no name needed
    names = {"actor": actor or "the actor", "target": target or "the target"}
    return "; ".join(f"{names.get(who, humanise(who))}: {text}" for who, text in groups.items())


def _finish(sentence: str) -> str:
    # No capitalising: a sentence may begin with a name as its owner spells it ("de Villiers").
    sentence = sentence.strip()
    return sentence if sentence.endswith((".", "!", "?")) else f"{sentence}."


# --- activation -----------------------------------------------------------------------------


def unit_name(ref: Any) -> str:
    """A unit reference "side:name" as "name (side N)"; other text unchanged."""
    text = str(ref)
    side, sep, name = text.partition(":")
    return f"{name} (side {side})" if sep and name else text


def _names(refs: Iterable[Any]) -> str:
    names = [unit_name(ref) for ref in refs]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" and {names[-1]}"


def activation_sentence(system_key: str, event: Mapping[str, Any]) -> str:
    """A battle's activation event as a sentence: "Turn 1: Sharpe (side 1) activates"."""
    check = str(event.get("check") or event.get("check_name") or "")
    params = event.get("params") or {}
    details = event.get("details") or {}
    words = words_of(system_key)
    if check == ACTIVATION_START:
        method = _method_title(system_key, str(params.get("method", "")))
        turn = details.get("turn")
        return _finish(
            f"Activation by {method}" + (f" — turn {turn} begins" if turn else " starts")
        )
    return _finish(_draw_text(system_key, words, details))


def _method_title(system_key: str, method: str) -> str:
    system = _system(system_key)
    found = system.activation.get(method) if system is not None else None
    title = found.title.split(" (")[0] if found is not None else humanise(method)
    return _lower_first(title)


def _draw_text(system_key: str, words: Words, details: Mapping[str, Any]) -> str:
    turn = details.get("turn")
    when = f"Turn {turn}: " if turn else ""
    if details.get("turn_ends"):
        return f"Reshuffle card: turn {turn} ends, the deck is shuffled"
    if "card" in details:
        return when + _card_text(system_key, words, details)
    if "phase" in details:
        phase = _value_text(words, details["phase"])
        return f"{when}player {details.get('player')}, {phase} phase"
    if "may_act" in details:
        return when + _initiative_text(details)
    if "unit" in details:
        text = f"{unit_name(details['unit'])} activates"
        if "may_hold" in details:  # a unit card turned
            when = f"Turn {turn}, card drawn: " if turn else "Card drawn: "
        if details.get("initiative_side"):
            text += f" (side {details['initiative_side']} won the initiative)"
        if details.get("discarded_held"):
            text += ", discarding the card it held"
        return when + text
    if "units" in details:
        units = list(details["units"])
        verb = "act" if len(units) > 1 else "activates"
        return f"{when}{_names(units)} {verb}"
    return f"{when}activation drawn" if when else "Activation drawn"


def _card_text(system_key: str, words: Words, details: Mapping[str, Any]) -> str:
    unit = unit_name(details.get("unit"))
    card = _value_text(words, str(details.get("card")))
    if not details.get("joker"):
        return f"{card} — {unit} acts"
    text = f"{card} — {unit} acts at +{details.get('bonus', 0)}"
    event = details.get("event") or {}
    if event.get("fortune"):
        text += f"; fortune: {outcome_label(system_key, 'fortune', event['fortune'])}"
    if event.get("freak_event"):
        text += f" ({outcome_label(system_key, 'freak_event', event['freak_event'])})"
    return text


def _initiative_text(details: Mapping[str, Any]) -> str:
    side = details.get("side")
    if details.get("current"):
        return f"side {side} has the initiative; {unit_name(details['current'])} is acting"
    may_act = list(details.get("may_act") or [])
    if not may_act:
        return f"side {side} has the initiative, with no figure left to act"
    return f"side {side} has the initiative; may act: {_names(may_act)}"


# --- figures' state -------------------------------------------------------------------------


def state_chips(system_key: str, state: Mapping[str, Any]) -> tuple[tuple[str, bool], ...]:
    """A figure's battle state as (text, is_bad) chips; empty and neutral values are left out."""
    words = words_of(system_key)
    chips: list[tuple[str, bool]] = []
    for key, value in state.items():
        chip = _chip(words, key, value)
        if chip is not None:
            chips.append(chip)
    if state.get("status") in OUT_OF_THE_FIGHT:
        # A man out of the fight shows what put him there, not whether his gun is loaded.
        chips = [chip for chip in chips if chip[1]]
    return tuple(chips)


#: Battle statuses of a figure (or unit) no longer in the fight.
OUT_OF_THE_FIGHT = frozenset({"dead", "out", "removed", "routed", "captured", "ko"})


def _chip(words: Words, key: str, value: Any) -> tuple[str, bool] | None:
    word = _state_word(words, key)
    if word.hidden or value is None or value in ([], {}, "") or str(value) in word.neutral:
        return None
    if isinstance(value, bool) or word.kind == "flag":
        if not value:
            return (word.off, True) if word.chip_off and word.off else None
        return (word.on or word.label, word.bad)
    if _is_number(value):
        if value == 0 and word.kind == "count":
            return None
        text = word.amount(int(value)) if word.kind == "count" else f"{word.label} {value}"
        return (text, word.bad)
    if isinstance(value, str):
        text = _text_value(words, word, key, value)
        return (text, word.bad) if text else None
    return None


# --- post-battle rolls and changes ----------------------------------------------------------


def procedure_name(system_key: str, procedure: str) -> str:
    """A post-battle procedure's name: "aftermath", "improvement"."""
    return words_of(system_key).procedures.get(procedure) or humanise(procedure)


def stat_name(system_key: str, stat: str) -> str:
    """A stat's name in the game: "Fire skill", "Vigor"; the system's stat label otherwise."""
    words = words_of(system_key)
    if stat in words.stats:
        return words.stats[stat]
    system = _system(system_key)
    if system is not None and stat in system.stats:
        return system.stats[stat].title
    return humanise(stat)


def roll_sentence(system_key: str, roll: Mapping[str, Any], name: str) -> str:
    """One post-battle ledger roll, e.g. "Gridley improves Fire skill: 7 → 8" or "Gridley's
    wound aftermath: one wound point heals, one leaves a permanent wound — left arm"."""
    details = roll.get("details") or {}
    if "healed" in details and "permanent" in details:
        sentence = _aftermath_sentence(system_key, roll, name)
    elif roll.get("procedure") == "improvement":
        sentence = _improvement_sentence(system_key, roll, name)
    else:
        sentence = _procedure_sentence(system_key, roll, name)
    if roll.get("house_rule"):
        sentence += " (house rule)"
    return _finish(sentence)


def _procedure_sentence(system_key: str, roll: Mapping[str, Any], name: str) -> str:
    procedure = procedure_name(system_key, str(roll.get("procedure", "")))
    subject = humanise(roll.get("subject") or "")
    head = f"{_possessive(name)} {procedure}"
    if subject and subject.lower() not in procedure.lower():
        head += f" ({subject})"
    said = outcome_label(system_key, str(roll.get("procedure", "")), str(roll.get("outcome")))
    changes = []
    for change in roll.get("changes") or ():
        text = change_sentence(system_key, change)
        if not text or text.lower() in said.lower():
            continue
        if said.lower() in text.lower():
            said = ""  # the change says it all, and more
        changes.append(text)
    if changes:
        said = f"{said} — {'; '.join(changes)}" if said else "; ".join(changes)
    return f"{head}: {said}" if said else head


def _improvement_sentence(system_key: str, roll: Mapping[str, Any], name: str) -> str:
    steps = [
        f"{stat_name(system_key, str(c.get('field')))}: {_change_values(system_key, c)}"
        for c in roll.get("changes") or ()
        if c.get("kind") == "stat"
    ]
    if steps:
        return f"{name} improves {', '.join(steps)}"
    subject = str(roll.get("subject") or "").removeprefix("improvement: ").split(" (")[0]
    return f"{_possessive(name)} {stat_name(system_key, subject)} does not improve"


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _number(count: int) -> str:
    return _NUMBERS[count] if 0 <= count < len(_NUMBERS) else str(count)


def _aftermath_sentence(system_key: str, roll: Mapping[str, Any], name: str) -> str:
    words = words_of(system_key)
    details = roll.get("details") or {}
    procedure = procedure_name(system_key, str(roll.get("procedure")))
    if roll.get("outcome") == "dies":
        return f"{name} dies of wounds in the {procedure}"
    head = f"{_possessive(name)} {procedure}"
    healed, permanent = int(details.get("healed", 0)), int(details.get("permanent", 0))
    noun = words.wound
    parts = []
    if healed and not permanent:
        parts.append(f"every {noun} heals" if healed > 1 else f"the {noun} heals")
    elif healed:
        parts.append(f"{_number(healed)} {noun}{'s heal' if healed > 1 else ' heals'}")
    if permanent:
        leaves = "leave permanent wounds" if permanent > 1 else "leaves a permanent wound"
        parts.append(f"{_number(permanent)}{'' if healed else ' ' + noun} {leaves}")
    if details.get("sepsis"):
        parts.append("after sepsis")
    said = ", ".join(parts) or "nothing to roll"
    places = [
        str(c.get("after"))
        for c in roll.get("changes") or ()
        if c.get("kind") == "permanent_wound" and _is_place(str(c.get("after")))
    ]
    if places:
        said += " — " + ", ".join(places)
    later = [
        change_sentence(system_key, c)
        for c in roll.get("changes") or ()
        if c.get("kind") not in ("permanent_wound", "status")
    ]
    return f"{head}: {'; '.join([said, *later])}"


def _is_place(description: str) -> bool:
    """A permanent wound's description says where (not just "wound" or "permanent wound")."""
    return bool(description) and not description.lower().startswith(("wound", "permanent wound"))


def _possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


_CHARACTER_STATUSES = {
    "ACTIVE": "fit for duty",
    "RECOVERING": "recovering",
    "DEAD": "dead",
    "RETIRED": "retired",
    "CAPTURED": "captured",
}


def change_sentence(system_key: str, change: Mapping[str, Any]) -> str:
    """One change to a character: "Fire skill: 7 → 8", "permanent wound: left arm"."""
    kind = str(change.get("kind", ""))
    field, after = str(change.get("field") or ""), change.get("after")
    if kind == "stat":
        return f"{stat_name(system_key, field)}: {_change_values(system_key, change)}"
    if kind == "permanent_wound":
        return f"permanent wound: {after}" if _is_place(str(after)) else "a permanent wound"
    if kind == "status":
        status = _CHARACTER_STATUSES.get(str(after), humanise(str(after).lower()))
        return _with_reason(f"now {status}", change)
    if kind == "recovers_on":
        return f"recovering until {_date_text(after)}"
    if kind == "career":
        if change.get("before") == after:
            return ""  # unchanged by this battle
        label = stat_name(system_key, field) if field else "career"
        return f"{label}: {_change_values(system_key, change)}"
    return _value_text(words_of(system_key), str(change.get("reason") or ""))


def _change_values(system_key: str, change: Mapping[str, Any]) -> str:
    words = words_of(system_key)
    before, after = change.get("before"), change.get("after")
    if before is None:
        return _value_text(words, after)
    return f"{_value_text(words, before)} → {_value_text(words, after)}"


def _with_reason(text: str, change: Mapping[str, Any]) -> str:
    reason = humanise(change.get("reason") or "")
    return f"{text} ({reason})" if reason and reason.lower() not in text.lower() else text


_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip


def _date_text(value: Any) -> str:
    """An ISO date as a campaign date: "1 December 1863"."""
    try:
        day = date.fromisoformat(str(value))
    except ValueError:
        return str(value)
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"
