"""A rule system's own words, as data: what `rules.narrate` says for its keys.

Every field is optional. Where a system gives no word for a key, `rules.narrate` falls back to
the key with its underscores turned to spaces, so a new check or state key never shows raw; a
system adds words here where that fallback would read poorly or not in the game's terms.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class StateWord:
    """How one battle-state key reads on a figure and in an effect.

    `label` names a counted value ("wound point"; `plural` when it is not label + "s"), or is
    the chip text of a flag ("knocked down"). `bad` marks chips to show as trouble. `on` and
    `off` are the effect phrases when a flag is set or cleared ("knocked down", "gets up").
    `counted` says the value is a number of `label`s rather than a flag or a level.
    """

    label: str
    plural: str = ""
    bad: bool = False
    on: str = ""
    off: str = ""
    counted: bool = False
    hidden: bool = False

    def amount(self, count: int) -> str:
        """`count` of this value: "1 wound point", "3 wound points"."""
        noun = self.label if abs(count) == 1 else (self.plural or f"{self.label}s")
        return f"{count} {noun}"


@dataclass(frozen=True)
class Words:
    """A system's vocabulary for narration.

    - `outcomes`: outcome key -> label, for every check ("crippling" -> "crippling wound").
    - `check_outcomes`: check -> {outcome key -> label}, where one check reads differently.
    - `verbs`: check -> (verb, preposition): "fire" -> ("fires", "at") reads "Ned fires at Will".
    - `states`: battle-state key -> StateWord; `values`: a state or effect value -> its words
      ("falling_back" -> "falling back").
    - `procedures`: post-battle procedure key -> its name ("aftermath" -> "aftermath").
    - `stats`: stat key -> its name in the game ("fire" -> "Fire skill").
    - `details`: detail key -> a template for one value ("location" -> "in the {}"); shown
      after the outcome when the resolution carries that detail.
    """

    outcomes: Mapping[str, str] = field(default_factory=dict)
    check_outcomes: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    verbs: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    states: Mapping[str, StateWord] = field(default_factory=dict)
    values: Mapping[str, str] = field(default_factory=dict)
    procedures: Mapping[str, str] = field(default_factory=dict)
    stats: Mapping[str, str] = field(default_factory=dict)
    details: Mapping[str, str] = field(default_factory=dict)


NO_WORDS = Words()
