"""Seeded auto-resolved battles are pinned: a digest of every result, per system.

The auto-resolvers and the checks' roll path are tuned for speed (issue 29); a change there must
not change a single seeded battle. Each system fights 60 battles of six starting figures against
six (what `bench/auto_resolve.py` times); Grits & Glory and Escarmouche also fight 30 battles of
mixed forces, so wild cards, jams, reloads, pikes and horse reach the digest. The digest covers
every event (check, parameters, outcome, dice, details, effects, actor, target, turn), the final
states, the winner, the turns, the casualties and the skills used.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from bench.auto_resolve import sides
from rules.dice import SeededDice
from rules.simulate import SimFigure, SimResult
from rules.system import get_system

#: Taken on the tree before the auto-resolvers were tuned (6bdd0b5).
DIGESTS = {
    "rencounter": "d018386eba28f66d4aacc5238b0f2b54fa051d0262de7fa1e8f3b699f44fda3c",
    "grits_and_glory": "b4eaadbc5eef106ce3506e7ccc623a69f75a9c2548098154bbda061e6863433f",
    "escarmouche": "16eecb8d76eee5011a1a64daa019fb9b8ec751858b86155e8a62a49e778d3a8a",
    "game_the_90": "9df70a0b09492daa0862e02eb2dbed82918efff5ba78ed4ffe4642a787e301cf",
    "d12_skirmish": "647c494f1d18361a147bb711fb714cf8c432606c10ca0ea8f1b47dbb3b9188ea",
}
MIXED_DIGESTS = {
    "grits_and_glory": "003c958a32bbdf3c43e622dde00961c113d47fa81dc7400536e327d195ac1125",
    "escarmouche": "a03fd198750c98475e55d601466c7c8c0856cc772fd87754fdb2b59955c87fd2",
}

MIXED: dict[str, list[list[SimFigure]]] = {
    "grits_and_glory": [
        [
            SimFigure(
                "hero", "Marshal", {"wild_card": True, "shooting": 10, "weapons": ["six_shooter"]}
            ),
            SimFigure("deputies", "Deputies", {"figures": 4, "weapons": ["rifle"]}),
            SimFigure("muskets", "Musketeers", {"figures": 3, "weapons": ["musket"]}),
        ],
        [
            SimFigure("outlaws", "Outlaws", {"figures": 5, "weapons": ["six_shooter"]}),
            SimFigure("braves", "Braves", {"figures": 6, "fighting": 8, "weapons": ["spear"]}),
            SimFigure("boss", "Boss", {"wild_card": True, "fighting": 10, "weapons": ["sabre"]}),
        ],
    ],
    "escarmouche": [
        [
            *(
                SimFigure(f"m{i}", "Musketeer", {"rating": 3, "weapons": ["musket"], "shooter": 1})
                for i in range(3)
            ),
            SimFigure("p", "Pikeman", {"rating": 3, "melee": "pike", "pike_trailer": 2}),
            SimFigure("q", "Pikeman", {"rating": 4, "melee": "pike", "pike_trailer": 1}),
        ],
        [
            *(
                SimFigure(f"h{i}", "Cuirassier", {"rating": 4, "mounted": True, "rider": 2})
                for i in range(3)
            ),
            SimFigure("f", "Sergeant", {"rating": 3, "fighter": 2}),
        ],
    ],
}


def _canonical(result: SimResult) -> bytes:
    document: dict[str, Any] = {
        "winner": result.winner,
        "turns": result.turns,
        "casualties": list(result.casualties),
        "states": {ref: dict(state) for ref, state in result.states.items()},
        "skills": {ref: sorted(used) for ref, used in result.skills_used.items()},
        "events": [[e.turn, e.actor, e.target, e.resolution.as_json()] for e in result.events],
    }
    return json.dumps(document, sort_keys=True, default=repr).encode()


def digest_of(system_key: str, forces: list[list[SimFigure]], battles: int, seed: str) -> str:
    system = get_system(system_key)
    assert system.simulate is not None
    options = system.options.validate({})
    digest = hashlib.sha256()
    for run in range(battles):
        digest.update(_canonical(system.simulate(forces, options, SeededDice(seed, str(run)))))
    return digest.hexdigest()


@pytest.mark.parametrize("system_key", sorted(DIGESTS))
def test_sixty_seeded_battles_of_six_against_six_are_unchanged(system_key):
    forces = sides(get_system(system_key))

    assert digest_of(system_key, forces, 60, "digest") == DIGESTS[system_key]


@pytest.mark.parametrize("system_key", sorted(MIXED_DIGESTS))
def test_thirty_seeded_battles_of_mixed_forces_are_unchanged(system_key):
    assert digest_of(system_key, MIXED[system_key], 30, "mixed") == MIXED_DIGESTS[system_key]
