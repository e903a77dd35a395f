"""Dice sources: seeded (reproducible everywhere) or given (typed in from the table).

Every value drawn is recorded as a `DieRoll`, so a result always carries the dice that made it.

Seeded values come from HMAC-SHA256(seed, context NUL block) read as 64-bit unsigned
integers, with rejection sampling so every face is exactly equally likely. This does not depend on
Python's `random` module, so the same seed gives the same dice on any machine and any version.
"""

from __future__ import annotations

import struct
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from rules.errors import DiceError

T = TypeVar("T")


@dataclass(frozen=True)
class Die:
    """A die as a name and its faces (a face may repeat, as on the average die)."""

    name: str
    faces: tuple[int, ...]
    #: Words at or above this are rejected so every face is equally likely (see SeededDice).
    limit: int = field(init=False, repr=False, compare=False)
    #: The record of each face by label, in face order (see `records_for`): filled as labels
    #: are rolled, never part of the die's identity.
    records: dict[str, tuple[DieRoll, ...]] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        n = len(self.faces)
        object.__setattr__(self, "limit", (1 << 64) - ((1 << 64) % n) if n else 0)

    @property
    def sides(self) -> int:
        return len(self.faces)

    @property
    def top(self) -> int:
        return max(self.faces)


def d(sides: int) -> Die:
    """Return the ordinary die with faces 1..sides."""
    known = _BUILT.get(sides)
    if known is not None:
        return known
    if sides < 2:
        raise DiceError(f"a die needs at least 2 sides, not {sides}")
    # Shuffling a deck rolls a d54, a d53 ... a d2, and a target is picked with a die the size
    # of the enemy's line: each is built once, not once per roll.
    die = Die(f"d{sides}", tuple(range(1, sides + 1)))
    if sides <= _OTHER_UP_TO:
        _BUILT[sides] = die
    return die


_STANDARD = {n: Die(f"d{n}", tuple(range(1, n + 1))) for n in (2, 3, 4, 6, 8, 10, 12, 20, 100)}
D4, D6, D8, D10, D12, D20 = (_STANDARD[n] for n in (4, 6, 8, 10, 12, 20))
#: "Game the 90%"'s average die: a d6 marked 2, 3, 3, 4, 4, 5.
AVERAGE_DIE = Die("avg", (2, 3, 3, 4, 4, 5))
#: Ordinary dice by sides: the standard ones, then others as `d` builds them, up to a d1000
#: so the table stays small.
_BUILT: dict[int, Die] = dict(_STANDARD)
_OTHER_UP_TO = 1000
DICE_BY_NAME = {die.name: die for die in (*_STANDARD.values(), AVERAGE_DIE)}


class DieRoll(NamedTuple):
    """One value drawn from one die, with a short label saying what it was for.

    A NamedTuple rather than a frozen dataclass: one is made for every die rolled, and tuple
    construction is several times cheaper on this hot path.
    """

    die: str
    value: int
    label: str = ""

    def as_json(self) -> dict[str, object]:
        return {"die": self.die, "value": self.value, "label": self.label}


#: Dice with more faces than this, and labels beyond `_LABELS_PER_DIE` of one die, get a record
#: built per roll instead (a d1000's records would cost more to build than they save).
_RECORDED_UP_TO = 120
_LABELS_PER_DIE = 256


def records_for(die: Die, label: str) -> tuple[DieRoll, ...] | None:
    """Every record a roll of `die` labelled `label` can make, by face index, built once.

    A `DieRoll` is immutable, so one record per face and label is shared by every roll that
    shows that face: a seeded roll appends it instead of building a tuple per die. None for a
    die or label that is not kept (the roll builds its record then).
    """
    known = die.records.get(label)
    if known is None and len(die.faces) <= _RECORDED_UP_TO and len(die.records) < _LABELS_PER_DIE:
        known = die.records[label] = tuple(
            _new_roll(DieRoll, (die.name, face, label)) for face in die.faces
        )
    return known


class Hand(NamedTuple):
    """Dice of one kind rolled one after another, each with its label (a pool, then the dice
    that answer it), planned once (`hand`) and rolled in one call (`Dice.roll_hand`)."""

    die: Die
    labels: tuple[str, ...]
    #: Each die's records by face (`records_for`); None if a label's are not kept.
    records: tuple[tuple[DieRoll, ...], ...] | None


def hand(die: Die, labels: Iterable[str]) -> Hand:
    """The hand of `die`s labelled `labels`, in order, with their records looked up once."""
    named = tuple(labels)
    records = tuple(records_for(die, label) for label in named)
    kept = None if any(r is None for r in records) else records
    return Hand(die, named, kept)  # type: ignore[arg-type]  # None when any die's is None


class Dice(ABC):
    """A source of die values that records everything it hands out."""

    def __init__(self) -> None:
        self.rolls: list[DieRoll] = []

    @abstractmethod
    def _face(self, die: Die, label: str) -> int:
        """Return one face of `die`."""

    def roll(self, die: Die | int, label: str = "") -> int:
        """Roll one die (a `Die` or a number of sides) and record it."""
        die = d(die) if isinstance(die, int) else die
        value = self._face(die, label)
        self.rolls.append(DieRoll(die.name, value, label))
        return value

    def roll_many(self, count: int, die: Die | int, label: str = "") -> tuple[int, ...]:
        """Roll `count` dice of one kind, in order."""
        return tuple(self.roll(die, label) for _ in range(count))

    def roll_down(self, top: int, label: str = "") -> list[int]:
        """Roll a d`top`, then a d`top-1` ... down to a d2, in order (a shuffle's dice)."""
        return [self.roll(sides, label) for sides in range(top, 1, -1)]

    def roll_hand(self, dice: Hand) -> list[int]:
        """Roll a hand's dice in order, each with its label: the same values and records as
        one `roll` each."""
        return [self.roll(dice.die, label) for label in dice.labels]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """Fisher-Yates: a d`n` down to a d2 (`roll_down`, unlabelled), the d`k` swapping the
        item it names into the `k`th place (`rules.activation.shuffle`)."""
        deck = list(items)
        for i, rolled in zip(range(len(deck) - 1, 0, -1), self.roll_down(len(deck)), strict=True):
            j = rolled - 1
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    def roll_exploding(self, die: Die | int, label: str = "", limit: int = 100) -> int:
        """Roll a die that is rolled again and added while it shows its top face (an ace).

        `limit` bounds the chain so a given-dice list of all aces cannot loop forever.
        """
        die = d(die) if isinstance(die, int) else die
        total = 0
        for _ in range(limit):
            value = self.roll(die, label)
            total += value
            if value != die.top:
                return total
        return total

    def since(self, start: int) -> tuple[DieRoll, ...]:
        """Return the rolls recorded from position `start` on."""
        return tuple(self.rolls[start:])


#: The ways seeded dice are derived. A battle records the scheme it was rolled with, so its
#: audit re-derives the same dice whatever the current scheme is; each is pinned by a test.
#: 1: HMAC-SHA256(seed, context NUL block), four 64-bit words a block (battles before 2026-11-22).
HMAC_SHA256 = 1
#: 2: SHAKE-256(len(seed) as 4 bytes, seed, context NUL block) squeezed to 256 bytes, 32 words a
#: block: about a quarter of the hashing cost per die, which was half of what a die cost.
SHAKE_256 = 2
SCHEMES = (HMAC_SHA256, SHAKE_256)
CURRENT_SCHEME = SHAKE_256


class SeededDice(Dice):
    """Deterministic dice derived from a secret seed and a context string.

    Two sources with the same seed, context and scheme produce the same sequence; a different
    context (another battle event, another character) gives an independent sequence. Each
    block of the scheme's keyed hash (see `SCHEMES`) is read as big-endian 64-bit words used
    in order; a word in the top sliver of the range is rejected so every face is exactly
    equally likely.
    """

    def __init__(self, seed: str | bytes, context: str = "", scheme: int = CURRENT_SCHEME) -> None:
        super().__init__()
        if scheme not in SCHEMES:
            raise DiceError(f"unknown dice scheme {scheme!r}; known: {SCHEMES}")
        self.scheme = scheme
        key = seed.encode() if isinstance(seed, str) else seed
        message = context.encode() + b"\x00"
        if scheme == HMAC_SHA256:
            # HMAC by its definition, H((K^opad) || H((K^ipad) || message)), with both keyed
            # SHA-256 states computed once and copied per block: the same bytes as `hmac.new`
            # (a test compares them) at about 60% of its per-block cost.
            self._inner, self._outer = _keyed_states(key)
            self._inner.update(message)
        else:
            # The seed's length first, so no seed and context can pass for another pair.
            self._prefix = len(key).to_bytes(4, "big") + key + message
        self._block = 0
        self._words: list[int] = []

    def _refill(self) -> None:
        # Several blocks at a time: the same words, in the same order, as one block at a time.
        if self.scheme == SHAKE_256:
            import hashlib  # here, not at the top: `odds` never rolls, and OpenSSL costs 2 ms

            data = hashlib.shake_256(self._prefix + str(self._block).encode()).digest(256)
            self._block += 1
            words = list(_SHAKE_WORDS.unpack(data))
        else:
            words = self._hmac_words()
        words.reverse()
        self._words = words

    def _hmac_words(self) -> list[int]:
        words: list[int] = []
        inner, outer = self._inner, self._outer
        for _ in range(_BLOCKS_PER_REFILL):
            message = inner.copy()
            message.update(str(self._block).encode())
            mac = outer.copy()
            mac.update(message.digest())
            self._block += 1
            words.extend(_WORDS.unpack(mac.digest()))
        return words

    def _face(self, die: Die, label: str) -> int:
        n, limit = len(die.faces), die.limit
        while True:
            if not self._words:
                self._refill()
            value = self._words.pop()
            if value < limit:
                return die.faces[value % n]

    def roll(self, die: Die | int, label: str = "") -> int:
        """Roll one die and record it (the hot path of every check, so kept flat).

        `_face`'s loop is written out here: a die rolled on its own (a trait die, a deck's
        shuffle, a target picked) paid a second Python call for it. The record is the die's
        kept record for that face and label (`records_for`), not a tuple built per roll.
        """
        face = (_BUILT.get(die) or d(die)) if isinstance(die, int) else die
        records = face.records.get(label) or records_for(face, label)
        limit, words = face.limit, self._words
        while True:
            if not words:
                self._refill()
                words = self._words
            word = words.pop()
            if word < limit:
                break
        faces = face.faces
        index = word % len(faces)
        if records is None:
            self.rolls.append(_new_roll(DieRoll, (face.name, faces[index], label)))
        else:
            self.rolls.append(records[index])
        return faces[index]

    def roll_many(self, count: int, die: Die | int, label: str = "") -> tuple[int, ...]:
        """Roll `count` dice of one kind: the same values as `count` single rolls, in one loop.

        Pools of up to a dozen dice are what Escarmouche and volley fire roll on every check,
        so the per-die call overhead is worth saving here; each record is the die's kept one
        (`records_for`).
        """
        face = (_BUILT.get(die) or d(die)) if die.__class__ is int else die
        assert isinstance(face, Die)
        records = face.records.get(label) or records_for(face, label)
        if records is None:
            return tuple(self.roll(face, label) for _ in range(count))
        return tuple(self._roll_kept(face, (records,) * count))

    def roll_hand(self, dice: Hand) -> list[int]:
        """A hand's dice in one loop: the values and records of single rolls, in order.

        An Escarmouche shot or fight rolls its pool and the defence as one hand: one call
        for the dice of a check, with each die's records found when the hand was planned.
        """
        die, _, by_die = dice
        if by_die is None:
            return super().roll_hand(dice)
        return self._roll_kept(die, by_die)

    def _roll_kept(self, die: Die, by_die: Iterable[tuple[DieRoll, ...]]) -> list[int]:
        """Roll one `die` per entry of `by_die` (each die's kept records by face, in order):
        the values and records of single rolls, in one loop (`roll_many`, `roll_hand`)."""
        faces, limit = die.faces, die.limit
        sides = len(faces)
        record = self.rolls.append
        values = []
        words = self._words
        for records in by_die:
            while True:
                if not words:
                    self._refill()
                    words = self._words
                word = words.pop()
                if word < limit:
                    break
            index = word % sides
            values.append(faces[index])
            record(records[index])
        return values

    def roll_down(self, top: int, label: str = "") -> list[int]:
        """A d`top` down to a d2: the values and records of single rolls, in one loop.

        A 54-card deck's shuffle rolls 53 dice, the most dice any one step rolls. Each
        ordinary die's face is its index plus one, so the face is worked out, not looked up.
        """
        record = self.rolls.append
        values = []
        words = self._words
        down = _down_from(top, label)
        if down is None:  # a deck too big to keep its records: each built per roll
            return [self.roll(sides, label) for sides in range(top, 1, -1)]
        for sides, limit, records in down:
            while True:
                if not words:
                    self._refill()
                    words = self._words
                word = words.pop()
                if word < limit:
                    break
            index = word % sides
            values.append(index + 1)
            record(records[index])
        return values


def _down_from(top: int, label: str) -> tuple[tuple[int, int, tuple[DieRoll, ...]], ...] | None:
    """The dice of a shuffle of `top` items, d`top` down to d2: each one's sides, rejection
    limit and records by face (as `records_for`), made once per size of deck and label; None
    for a deck of more than `_RECORDED_UP_TO` items."""
    known = _DOWN_FROM.get((top, label))
    if known is None and top <= _RECORDED_UP_TO:
        known = tuple(
            (n, d(n).limit, tuple(_new_roll(DieRoll, (f"d{n}", v, label)) for v in range(1, n + 1)))
            for n in range(top, 1, -1)
        )
        if len(_DOWN_FROM) >= _DOWN_FROM_SIZE:
            _DOWN_FROM.clear()
        _DOWN_FROM[top, label] = known
    return known


_DOWN_FROM: dict[tuple[int, str], tuple[tuple[int, int, tuple[DieRoll, ...]], ...]] = {}
#: Decks (by size and label) whose shuffle records are kept: a game shuffles one or two.
_DOWN_FROM_SIZE = 64


def _keyed_states(key: bytes) -> tuple[Any, Any]:
    """Return SHA-256 states that have absorbed K^ipad and K^opad (RFC 2104)."""
    import hashlib  # here, not at the top: `odds` never rolls, and OpenSSL costs 2 ms

    if len(key) > _SHA256_BLOCK:
        key = hashlib.sha256(key).digest()
    key = key.ljust(_SHA256_BLOCK, b"\x00")
    inner = hashlib.sha256(key.translate(_IPAD))
    outer = hashlib.sha256(key.translate(_OPAD))
    return inner, outer


_SHA256_BLOCK = 64
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))
#: A DieRoll built as a plain tuple: NamedTuple's generated __new__ is a Python call per die.
_new_roll = tuple.__new__
_WORDS = struct.Struct(">4Q")
_SHAKE_WORDS = struct.Struct(">32Q")
_BLOCKS_PER_REFILL = 4


class GivenDice(Dice):
    """Dice rolled at the table and typed in, consumed strictly in the order given.

    The order is the order the check asks for them: each check documents it, and the CLI and the
    table assistant show it. Too few values, or a value that is not a face of the die asked for,
    raises `DiceError` naming the die and what it was for.
    """

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__()
        self._values: Sequence[int] = tuple(values)
        self._position = 0

    def _face(self, die: Die, label: str) -> int:
        purpose = f" for {label}" if label else ""
        if self._position >= len(self._values):
            raise DiceError(
                f"not enough dice given: needed die #{self._position + 1} ({die.name}{purpose}) "
                f"but only {len(self._values)} value(s) were given"
            )
        value = self._values[self._position]
        if value not in die.faces:
            faces = ", ".join(str(f) for f in sorted(set(die.faces)))
            raise DiceError(
                f"die #{self._position + 1} ({die.name}{purpose}) was given as {value}, "
                f"which is not a face of a {die.name} ({faces})"
            )
        self._position += 1
        return value

    @property
    def unused(self) -> int:
        return len(self._values) - self._position

    def ensure_all_used(self) -> None:
        """Raise `DiceError` if values were given that the check never asked for."""
        if self.unused:
            raise DiceError(
                f"too many dice given: the check used {self._position} value(s) "
                f"but {len(self._values)} were given"
            )


def parse_given(text: str) -> list[int]:
    """Parse '6,6,2,1' (commas or spaces) into integers, with a clear error."""
    parts = [p for p in text.replace(",", " ").split() if p]
    try:
        return [int(p) for p in parts]
    except ValueError:
        raise DiceError(f"dice must be whole numbers separated by commas, not {text!r}") from None
