""" "Game the 90%" in its own words: Hits, the average die, rallying Hits off."""

from __future__ import annotations

from rules.systems.game_the_90.tables import PHASES
from rules.words import StateWord, Words

#: Enough for any check's outcomes (shooting 12, melee 16, moves 15, rallies 3).
_MOST = 20


def _hits(count: int) -> str:
    return "no Hits" if count == 0 else f"{count} Hit" if count == 1 else f"{count} Hits"


WORDS = Words(
    outcomes={
        **{f"hits_{n}": _hits(n) for n in range(_MOST)},
        **{f"hits_{n}_out_of_missiles": f"{_hits(n)}, out of missiles" for n in range(_MOST)},
        **{f"inches_{n}": f'moves {n}"' for n in range(_MOST)},
        **{f"hits_off_{n}": f"rallies off {_hits(n)}" for n in range(_MOST)},
        "reaches": "reaches the enemy",
        "falls_short": "falls short",
    },
    check_outcomes={"battle_record": {"stood": "stood to the end", "removed": "removed"}},
    verbs={
        "shoot": ("shoots", "at"),
        "melee": ("fights", ""),
        "move": ("moves", "towards"),
        "charge": ("charges", ""),
        "rally": ("rallies", "facing"),
    },
    states={
        "hits": StateWord(
            "Hit", bad=True, off="", loss=("{n} Hit rallied off", "{n} Hits rallied off")
        ),
        "passed_ten": StateWord("past ten Hits", "flag", bad=True),
        "out_of_missiles": StateWord("out of missiles", "flag", bad=True),
    },
    values={
        "removed": "removed",
        "side's result: win": "the side won",
        "side's result: draw": "the side drew",
        "side's result: loss": "the side lost",
        **{phase: phase.capitalize() for phase in PHASES},
    },
    procedures={"battle_record": "battle record"},
    stats={"battles": "battles", "hits_taken": "Hits taken", "removed": "times removed"},
    details={"charge.inches": ' (rolled {}"', "charge.needed": ', needed {}")'},
)
