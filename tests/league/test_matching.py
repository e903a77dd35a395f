"""The Swiss pairing's exact matching agrees with networkx on random graphs."""

from __future__ import annotations

import random

import networkx as nx
import pytest

from league.core.matching import UNMATCHED, augment, maximum_matching

SEEDS = range(60)


def _random_graph(seed: int) -> tuple[list[list[int]], nx.Graph]:
    chance = random.Random(seed)
    size = chance.randint(2, 40)
    density = chance.choice([0.05, 0.1, 0.2, 0.5, 0.9])
    graph = nx.Graph()
    graph.add_nodes_from(range(size))
    graph.add_edges_from(
        (a, b) for a in range(size) for b in range(a + 1, size) if chance.random() < density
    )
    adjacency = [sorted(graph.neighbors(v)) for v in range(size)]
    return adjacency, graph


def _is_matching(adjacency: list[list[int]], mate: list[int]) -> bool:
    return all(
        partner == UNMATCHED or (mate[partner] == vertex and partner in adjacency[vertex])
        for vertex, partner in enumerate(mate)
    )


def _size(mate: list[int]) -> int:
    return sum(partner != UNMATCHED for partner in mate) // 2


@pytest.mark.parametrize("seed", SEEDS)
def test_the_maximum_matching_is_as_large_as_networkx_finds(seed):
    adjacency, graph = _random_graph(seed)

    mate = maximum_matching(adjacency)

    assert _is_matching(adjacency, mate)
    assert _size(mate) == len(nx.max_weight_matching(graph, maxcardinality=True))


@pytest.mark.parametrize("seed", SEEDS)
def test_an_augmenting_search_inside_a_mask_agrees_with_networkx_on_the_subgraph(seed):
    adjacency, graph = _random_graph(seed)
    chance = random.Random(f"mask {seed}")
    alive = [chance.random() < 0.7 for _ in adjacency]
    inside = graph.subgraph([v for v, keep in enumerate(alive) if keep])
    mate = [UNMATCHED] * len(adjacency)

    for vertex in range(len(adjacency)):
        if alive[vertex] and mate[vertex] == UNMATCHED:
            augment(adjacency, mate, vertex, alive)

    assert all(mate[v] == UNMATCHED for v, keep in enumerate(alive) if not keep)
    assert _is_matching(adjacency, mate)
    assert _size(mate) == len(nx.max_weight_matching(inside, maxcardinality=True))
