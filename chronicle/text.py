"""The chronicle's building blocks: a sentence with the rows it came from, sections, documents.

A citation is `(kind, id)`; `chronicle.citations` resolves each kind to its model, so a test
(or a sceptical reader of the API) can check that every sentence stands on real rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from common.json_types import JSONObject

Cite = tuple[str, int]


@dataclass(frozen=True)
class Sentence:
    """One generated sentence and the rows it was written from; `battle` links a report."""

    text: str
    cites: tuple[Cite, ...]
    battle: int | None = None

    def as_json(self) -> JSONObject:
        data: JSONObject = {
            "text": self.text,
            "cites": [{"kind": kind, "id": pk} for kind, pk in self.cites],
        }
        if self.battle is not None:
            data["battle"] = self.battle
        return data


@dataclass(frozen=True)
class Section:
    title: str
    sentences: tuple[Sentence, ...]

    def as_json(self) -> JSONObject:
        return {"title": self.title, "sentences": [s.as_json() for s in self.sentences]}


@dataclass(frozen=True)
class Story:
    """A battle report, a career or a campaign chronicle: a title and its sections."""

    title: str
    subtitle: str
    sections: tuple[Section, ...] = field(default=())

    def sentences(self) -> Iterator[Sentence]:
        for section in self.sections:
            yield from section.sentences

    def as_json(self) -> JSONObject:
        return {
            "title": self.title,
            "subtitle": self.subtitle,
            "sections": [s.as_json() for s in self.sections],
        }


def sections(*pairs: tuple[str, Sequence[Sentence]]) -> tuple[Section, ...]:
    """The non-empty sections, in order."""
    return tuple(Section(title, tuple(found)) for title, found in pairs if found)


def listed(names: Iterable[str], most: int = 8) -> str:
    """Names as a phrase: "A", "A and B", "A, B and C", "A, B … and 4 more"."""
    items = list(names)
    if len(items) > most:
        rest = len(items) - (most - 1)
        items = [*items[: most - 1], f"{rest} more"]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" and {items[-1]}"


def plural(count: int, noun: str, many: str = "") -> str:
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def number(count: int) -> str:
    """A small count in words ("one", "two"), a larger one in figures."""
    return _NUMBERS[count] if 0 <= count < len(_NUMBERS) else str(count)


def ordinal(number: int) -> str:
    suffix = (
        "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    )
    return f"{number}{suffix}"


def day_text(day: date | None) -> str:
    """A date as a chronicle writes it: "14 June 1863"."""
    return f"{day.day} {day:%B %Y}" if day else ""


def chance_text(chance: Fraction | float) -> str:
    """A small probability as a player says it: "1 in 144", "about 1 in 310 (7/2170)"."""
    if isinstance(chance, Fraction) and chance.numerator == 1:
        return f"1 in {chance.denominator}"
    one_in = round(1 / float(chance))
    exact = f" ({chance.numerator}/{chance.denominator})" if isinstance(chance, Fraction) else ""
    return f"about 1 in {one_in}{exact}"
