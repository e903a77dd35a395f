"""A rule system's own words, as data: what `rules.narrate` says for its keys.

Every field is optional. Where a system gives no word for a key, `rules.narrate` falls back to
the key with its underscores turned to spaces, so a new check or state key never shows raw; a
system adds words here where that fallback would read poorly or not in the game's terms.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

#: How a battle-state value reads: a number of things ("2 wound points"), a flag ("knocked
#: down"), a level shown with its number ("wound score 3") or a word ("panic").
StateKind = Literal["count", "flag", "level", "text"]


@dataclass(frozen=True)
class StateWord:
    """How one battle-state key reads on a figure's chips and in an effect.

    `label` is the thing counted ("wound point"; `plural` when not label + "s"), the flag's
    name, or the level's name. `on` / `off` phrase a flag set or cleared ("knocked down",
    "gets up"); an empty `off` says nothing of a flag cleared as bookkeeping. `loss` phrases
    a count going down, singular and plural, with `{n}` for the number ("{n} figure
    removed"). `bad` marks chips shown as trouble; `neutral` lists values that need no chip
    ("unhurt"); `hidden` keeps a bookkeeping key out of sight altogether. `phrase` words a
    count on a chip, singular and plural, with `{n}` ("reloading {n} turns"); `chip_off` shows
    a flag cleared as a chip of its own (`off`: "unloaded"), where its absence would mislead.
    """

    label: str
    kind: StateKind = "count"
    plural: str = ""
    on: str = ""
    off: str | None = None
    loss: tuple[str, str] = ("", "")
    bad: bool = False
    neutral: tuple[str, ...] = ()
    hidden: bool = False
    phrase: tuple[str, str] = ("", "")
    chip_off: bool = False

    def amount(self, count: int) -> str:
        """`count` of this value: "1 wound point", "3 wound points"."""
        if self.phrase[0]:
            return (self.phrase[0] if abs(count) == 1 else self.phrase[1]).format(n=count)
        noun = self.label if abs(count) == 1 else (self.plural or f"{self.label}s")
        return f"{count} {noun}"

    def lost(self, count: int) -> str:
        """`count` of this value taken away: "2 Hits rallied off", "1 figure removed"."""
        template = self.loss[0] if count == 1 else self.loss[1]
        return template.format(n=count) if template else f"{self.amount(count)} off"


@dataclass(frozen=True)
class Words:
    """A system's vocabulary for narration.

    - `outcomes`: outcome key -> label, for every check ("crippling" -> "crippling wound").
    - `check_outcomes`: check (or post-battle procedure) -> {outcome key -> label}, where one
      check reads differently from the rest.
    - `verbs`: check -> (verb, preposition): "fire" -> ("fires", "at") reads "Ned fires at
      Will"; an empty preposition takes the target directly ("Ned fights Will").
    - `states`: battle-state key -> StateWord.
    - `values`: a state value or an effect's note -> its words ("falling_back" -> "falling
      back"); an empty string drops a note that only repeats the effect.
    - `procedures`: post-battle procedure key -> its name ("vigor_test" -> "post-game Vigor
      test").
    - `stats`: stat or career key -> its name in the game ("fire" -> "Fire skill").
    - `details`: "check.detail" or "detail" -> a template for that detail's value, added
      after the outcome when the resolution carries it ("location" -> "in the {}").
    - `wound`: what the wound aftermath rolls for, one at a time ("wound point").
    - `titles`: check -> its name in a sentence with nobody acting, where the check's title
      reads poorly there ("fortune" -> "Fortune", not "Events").
    """

    outcomes: Mapping[str, str] = field(default_factory=dict)
    check_outcomes: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    verbs: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    states: Mapping[str, StateWord] = field(default_factory=dict)
    values: Mapping[str, str] = field(default_factory=dict)
    procedures: Mapping[str, str] = field(default_factory=dict)
    stats: Mapping[str, str] = field(default_factory=dict)
    details: Mapping[str, str] = field(default_factory=dict)
    wound: str = "wound"
    titles: Mapping[str, str] = field(default_factory=dict)


NO_WORDS = Words()

#: The state keys most systems share, in words; a system's own `states` take precedence.
COMMON_STATES: Mapping[str, StateWord] = {
    "status": StateWord("status", "text", bad=True, neutral=("unhurt",)),
    "wounds": StateWord("wound", bad=True),
    "loaded": StateWord("loaded", "flag", on="loaded", off="unloaded", chip_off=True),
    "reloading": StateWord(
        "reloading", phrase=("reloading {n} turn", "reloading {n} turns"), bad=True
    ),
    "down": StateWord("knocked down", "flag", off="gets up", bad=True),
    "shaken": StateWord("Shaken", "flag", off="no longer Shaken", bad=True),
    "pinned": StateWord("pinned", "flag", off="no longer pinned", bad=True),
}
