"""Maximum-cardinality matching on a general graph (Edmonds' blossom algorithm).

Swiss pairing asks "can the players still to be paired all be paired with allowed opponents?"
before it commits to any pairing. Answering that exactly is a perfect-matching question; the
blossom algorithm answers it in polynomial time, so the pairing search never walks into a dead
end and never needs exponential backtracking. Vertices are 0..n-1; `adjacency[v]` lists v's
neighbours; a matching is a list where `mate[v]` is v's partner or -1.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import chain, islice

UNMATCHED = -1


class _Search:
    """One breadth-first search for an augmenting path from `root`, shrinking odd cycles.

    With `alive`, only the vertices marked True take part: the Swiss search asks "can the rest
    still be paired?" many times on one graph, and a mask is far cheaper than a trimmed copy.
    """

    def __init__(
        self,
        adjacency: Sequence[Sequence[int]],
        mate: list[int],
        root: int,
        alive: Sequence[bool] | None = None,
    ) -> None:
        size = len(adjacency)
        self.adjacency = adjacency
        self.alive = alive
        self.mate = mate
        self.root = root
        self.parent = [UNMATCHED] * size
        self.base = list(range(size))
        self.used = [False] * size
        self.used[root] = True
        self.queue = [root]

    def run(self) -> int:
        """Return the free vertex an augmenting path reaches, or -1 if there is none."""
        head = 0
        while head < len(self.queue):
            vertex = self.queue[head]
            head += 1
            for other in self.adjacency[vertex]:
                found = self._visit(vertex, other)
                if found != UNMATCHED:
                    return found
        return UNMATCHED

    def _visit(self, vertex: int, other: int) -> int:
        if self.alive is not None and not self.alive[other]:
            return UNMATCHED
        if self.base[vertex] == self.base[other] or self.mate[vertex] == other:
            return UNMATCHED
        if other == self.root or (
            self.mate[other] != UNMATCHED and self.parent[self.mate[other]] != UNMATCHED
        ):
            self._shrink(vertex, other)
        elif self.parent[other] == UNMATCHED:
            self.parent[other] = vertex
            if self.mate[other] == UNMATCHED:
                return other
            self.used[self.mate[other]] = True
            self.queue.append(self.mate[other])
        return UNMATCHED

    def _shrink(self, vertex: int, other: int) -> None:
        """Contract the odd cycle (blossom) closed by the edge vertex-other."""
        common = self._lowest_common_base(vertex, other)
        in_blossom = [False] * len(self.base)
        self._mark_path(vertex, common, other, in_blossom)
        self._mark_path(other, common, vertex, in_blossom)
        for v, b in enumerate(self.base):
            if in_blossom[b]:
                self.base[v] = common
                if not self.used[v]:
                    self.used[v] = True
                    self.queue.append(v)

    def _lowest_common_base(self, a: int, b: int) -> int:
        seen = [False] * len(self.base)
        while True:
            a = self.base[a]
            seen[a] = True
            if self.mate[a] == UNMATCHED:
                break
            a = self.parent[self.mate[a]]
        while True:
            b = self.base[b]
            if seen[b]:
                return b
            b = self.parent[self.mate[b]]

    def _mark_path(self, vertex: int, common: int, child: int, in_blossom: list[bool]) -> None:
        while self.base[vertex] != common:
            in_blossom[self.base[vertex]] = in_blossom[self.base[self.mate[vertex]]] = True
            self.parent[vertex] = child
            child = self.mate[vertex]
            vertex = self.parent[self.mate[vertex]]


def augment(
    adjacency: Sequence[Sequence[int]],
    mate: list[int],
    root: int,
    alive: Sequence[bool] | None = None,
) -> bool:
    """Grow `mate` in place by one edge along an augmenting path from free `root`, if any.

    With `alive`, the path uses only vertices marked True (the others are left as they are).
    """
    search = _Search(adjacency, mate, root, alive)
    end = search.run()
    if end == UNMATCHED:
        return False
    while end != UNMATCHED:
        previous = search.parent[end]
        next_end = mate[previous]
        mate[end], mate[previous] = previous, end
        end = next_end
    return True


def maximum_matching(
    adjacency: Sequence[Sequence[int]], start: Sequence[int] | None = None
) -> list[int]:
    """Return a maximum matching, grown from the valid partial matching `start` if given.

    Free vertices are first matched greedily to a free neighbour (cheap, and on the dense
    graphs of a Swiss round it leaves little for the augmenting-path searches to do).
    """
    mate = list(start) if start is not None else [UNMATCHED] * len(adjacency)
    for vertex, neighbours in enumerate(adjacency):
        if mate[vertex] == UNMATCHED:
            # Neighbours above the vertex first: those below were offered a partner already.
            # (Any split is correct: this only picks which free neighbour to try first.)
            split = bisect_left(neighbours, vertex)
            for other in chain(islice(neighbours, split, None), islice(neighbours, split)):
                if mate[other] == UNMATCHED and other != vertex:
                    mate[vertex], mate[other] = other, vertex
                    break
    for vertex in range(len(adjacency)):
        if mate[vertex] == UNMATCHED:
            augment(adjacency, mate, vertex)
    return mate


def is_perfect(mate: Sequence[int]) -> bool:
    return all(partner != UNMATCHED for partner in mate)
