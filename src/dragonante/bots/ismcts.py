"""Information-set Monte Carlo tree search (single-observer ISMCTS).

The search player of Cowling, Powley and Whitehouse (2012), for one
observer - the bot's own seat - with partially observable moves:

* **Determinization.**  Each iteration starts from a fresh re-deal of
  everything the seat cannot see (``view.determinize``): opponents' hands,
  the deck order, hidden ante cards.  Averaged over many iterations the
  search plays against the seat's real uncertainty, not against one guess.
* **One tree over the seat's information.**  Nodes are histories as the
  seat sees them.  At the seat's own questions children are its answers
  (the legal ones differ between re-deals, so selection is UCB1 over the
  answers *available* in this re-deal, counting availability rather than
  parent visits: ISUCT).  At another seat's question the tree branches on
  what the seat observes of the answer: a card played or given is seen, an
  opponent's secret ante choice or Silver Seer pick is not, so those
  branches merge.
* **Model of the other seats.**  Inside the tree another seat's play or
  ante is what the heuristic player would choose in its place (its one-turn
  lookahead or ante model on that re-deal: :func:`answer_values`); its other
  questions, and every question in the rollouts, get the fast policy of
  :mod:`dragonante.bots.policy`.  The heuristic's judgement predicts how
  thoughtful players play far better than the fast policy (which agrees with
  it on about half the plays), and costs too much to use in every rollout
  step (``ismcts:model=fast`` turns it off).
* **Horizon.**  Rather than playing every game out to the end (dozens of
  gambits of noise), an iteration stops at the start of the next gambit
  (``horizon`` gambits with ``ismcts:horizon=N``) and scores the position
  with the chance of winning the game (:mod:`dragonante.bots.outcome`): a
  model fitted to self-play that weighs gold and the cards in hand - a
  strong dragon kept is worth many gold at the start of a gambit - and
  sharpens as the poorest hoard nears empty.  A game that ends inside the
  horizon scores its winners.  ``ismcts:value=margin`` scores the gold
  margin plus the worth of the cards kept
  (:func:`dragonante.bots.evaluate.evaluate`) instead.
* **Rollouts** past the tree use the fast policy for every seat
  (``policy=plan``, the default, which prices contend/fold plans at every
  play, or the quicker ``policy=simple``).
* **Heuristic prior.**  At the root the heuristic bot's own judgement of
  each answer (its one-turn lookahead, or its ante model) is a progressive
  bias: untried answers are tried best-first, and each answer's UCB score
  gets ``prior * h(a) / (visits + 1)`` where ``h(a) <= 0`` is its value
  below the heuristic's favourite in reward units.  The search so starts
  from a strong player's opinion and overrules it only where the sampled
  futures disagree.  The default weight is ``DEFAULT_PRIOR``.

Budget: ``iters`` iterations per decision (reproducible for a seed), capped
by ``seconds`` of wall clock (an iteration starts only if one of the average
length so far still ends in time).  The default is DEFAULT_ITERS iterations
within at most one second on one core; ``ismcts:iters=N`` alone searches
exactly N iterations with no clock (reproducible), ``ismcts:seconds=S``
alone spends S seconds.  Questions with one answer are not searched.

:meth:`IsmctsBot.search` returns each root answer's visits and mean value
(what :meth:`IsmctsBot.choose` picks from), and a :class:`SearchWatch`
set on ``watch`` sees every re-deal and every iteration's end: the hint
(:mod:`dragonante.bots.hint`) reads its figures from the very search that
chooses.
"""

from __future__ import annotations

import math
import random
import time
from typing import NamedTuple, Protocol

from dragonante.bots.base import SeatView
from dragonante.bots.budget import Budget
from dragonante.bots.evaluate import DEFAULT_TAIL, Tail, evaluate, strength_tail
from dragonante.bots.heuristic import answer_values, ante_expectation, best_answer, unseen_cards
from dragonante.bots.outcome import OutcomeModel, model_for, win_chance
from dragonante.bots.policy import EXPECTED_ANTE, fast_answer, simple_answer
from dragonante.bots.registry import BotEntry, Strength, choice, register
from dragonante.engine import decisions as D
from dragonante.engine.game import advance
from dragonante.engine.state import GameState

#: Default iterations per decision, and the default wall-clock cap (seconds).
DEFAULT_ITERS = 1500
DEFAULT_SECONDS = 1.0
#: Weight of the heuristic prior at the root (0 switches it off).
DEFAULT_PRIOR = 1.0
#: Rewards are gold margins divided by this before UCB (keeps ``c`` near 1).
REWARD_SCALE = 20.0
#: Win chances are multiplied by this before UCB: one gold moves a 4-player
#: win chance by about 1%, so 4 x chance is on the scale of gold / 20.
WIN_SCALE = 4.0
#: Opponent answers the observer never sees (they merge into one branch); an
#: ability declined is never seen, and one used shows in what follows.
_HIDDEN_KINDS = frozenset({D.ANTE, D.SEER_KEEP, D.PICK_SPECIAL, *D.ABILITY_KINDS})
#: Questions before the first deal: a whole game away from any result the
#: search could see, so they get the heuristic's fixed judgement.
SETUP_KINDS = frozenset({D.DRAFT_ABILITY, D.ANCESTRY_COLOR})
_HIDDEN = -99
_TURNS = frozenset({D.PLAY, D.ANTE})
#: Safety net on one iteration's length (a gambit is a few dozen questions).
_MAX_STEPS = 2_000

Key = tuple[int, str, int]


class _Node:
    """Statistics of one history as the observer sees it."""

    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[Key, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


class SearchStats:
    """What the last search did (for benchmarks and ``docs/bots.md``)."""

    __slots__ = ("iterations", "seconds")

    def __init__(self) -> None:
        self.iterations = 0
        self.seconds = 0.0


class AnswerStats(NamedTuple):
    """One root answer after a search: iterations through it, and their mean reward."""

    visits: int
    mean: float


def pick(stats: dict[int, AnswerStats], options: tuple[int, ...]) -> int:
    """The most visited answer; ties by mean reward, then option order
    (``options[0]`` if none was tried)."""
    best = options[0]
    best_key = (-1, -math.inf)
    for a in options:
        got = stats.get(a)
        if got is None:
            continue
        key = (got.visits, got.mean)
        if key > best_key:
            best, best_key = a, key
    return best


class SearchWatch(Protocol):
    """Something told about a search as it runs (a hint's extra figures).

    ``world`` gets each re-deal before its iteration starts (it may give it
    an event log), ``leaf`` each iteration's end: the root answer it tried
    and the state where it stopped (the horizon, or the game's end).
    """

    def world(self, s: GameState) -> None: ...

    def leaf(self, answer: int, s: GameState) -> None: ...


class IsmctsBot:
    """Single-observer ISMCTS with an opponent model and a gambit horizon."""

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        iters: int | None = None,
        seconds: float | None = None,
        c: float = 0.7,
        horizon: int = 1,
        leaf: str = "gambit",
        policy: str = "plan",
        prior: float = DEFAULT_PRIOR,
        value: str = "win",
        model: str = "heuristic",
    ) -> None:
        self._rng = random.Random(seed)
        if iters is None and seconds is None:
            iters, seconds = DEFAULT_ITERS, DEFAULT_SECONDS
        self.iters = iters
        self.seconds = seconds
        #: What a tournament reports this bot searched with.
        self.budget = Budget(iters, seconds)
        self.c = c
        self.horizon = max(1, horizon)
        self.turn_leaf = leaf == "turn"
        self.policy = fast_answer if policy == "plan" else simple_answer
        self.prior = prior
        self.win_value = value == "win"
        self.model_turns = model == "heuristic"
        self._outcome: OutcomeModel | None = None
        self._bias: dict[Key, float] = {}
        self.last = SearchStats()
        #: Sees every re-deal and every iteration's end (None: nothing watches).
        self.watch: SearchWatch | None = None

    def choose(self, view: SeatView) -> int:
        d = view.decision
        if len(d.options) == 1:
            return d.options[0]
        if d.kind in SETUP_KINDS:
            return fast_answer(view.determinize(self._rng.getrandbits(62)), d)
        return pick(self.search(view), d.options)

    def search(self, view: SeatView) -> dict[int, AnswerStats]:
        """Search the seat's question; each root answer's statistics.

        What :meth:`choose` decides from (the most visited answer), kept
        apart so that a hint (:mod:`dragonante.bots.hint`) can say what the
        answers were worth.  Call it only for a question with more than one
        answer and not before the first deal (``choose`` answers those
        without searching).
        """
        d = view.decision
        seat = view.seat
        rng = self._rng
        watch = self.watch
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds is not None else math.inf
        limit = self.iters if self.iters is not None else 1 << 62
        root = _Node()
        first = view.determinize(rng.getrandbits(62))
        if watch is not None:
            watch.world(first)
        q = strength_tail(unseen_cards(first, seat)) if first.universe else DEFAULT_TAIL
        stop = first.gambit + self.horizon
        self._outcome = model_for(first.n) if self.win_value else None
        self._bias = {}
        if self.prior > 0:
            self._bias = self._heuristic_bias(view, first, q)
        done = 0
        world = first
        begun = time.perf_counter()
        while done < limit:
            if done:
                # Stop unless another iteration of the average length still ends
                # before the deadline, so that the budget is an upper bound on the
                # decision rather than a point to overshoot by one iteration.
                now = time.perf_counter()
                if now + (now - begun) / done >= deadline:
                    break
                world = view.determinize(rng.getrandbits(62))
                if watch is not None:
                    watch.world(world)
            self._iterate(root, world, seat, stop, q)
            done += 1
        self.last.iterations = done
        self.last.seconds = time.perf_counter() - start
        stats: dict[int, AnswerStats] = {}
        for a in d.options:
            node = root.children.get((seat, d.kind, a))
            if node is not None:
                mean = node.total / node.visits if node.visits else -math.inf
                stats[a] = AnswerStats(node.visits, mean)
        return stats

    def _heuristic_bias(self, view: SeatView, first: GameState, q: Tail) -> dict[Key, float]:
        """Progressive bias at the root: the heuristic's values of the answers,
        in reward units relative to its favourite (<= 0)."""
        d = first.pending
        assert d is not None
        seat = view.seat
        worlds = [first]
        if d.kind != D.ANTE:
            worlds += [view.determinize(self._rng.getrandbits(62)) for _ in range(2)]
        values = answer_values(worlds, seat, q, ante_expectation(view))
        top = max(values.values())
        return {(seat, d.kind, a): (v - top) / REWARD_SCALE for a, v in values.items()}

    def _other_seat(self, s: GameState, d: D.Decision, q: Tail) -> int:
        """Another seat's answer inside the tree: the heuristic's judgement for
        its turns (plays and antes: what real opponents weigh), the fast policy
        for everything else."""
        if not self.model_turns or d.kind not in _TURNS:
            return self.policy(s, d)
        return best_answer(d, answer_values([s], d.seat, q, EXPECTED_ANTE))

    def _iterate(self, root: _Node, s: GameState, seat: int, stop: int, q: Tail) -> None:
        rng = self._rng
        c = self.c
        policy = self.policy
        prior = self.prior
        bias = self._bias
        node = root
        path = [root]
        expanded = False
        steps = 0
        first = -1  # the root answer this iteration tries (for ``watch``)
        while not s.over and s.gambit < stop and steps < _MAX_STEPS:
            d = s.pending
            assert d is not None
            steps += 1
            if d.seat == seat:
                if expanded:
                    break
                children = node.children
                untried = []
                best_a = -1
                best_u = -math.inf
                for a in d.options:
                    child = children.get((seat, d.kind, a))
                    if child is None:
                        untried.append(a)
                        continue
                    child.avail += 1
                    u = child.total / child.visits + c * math.sqrt(
                        math.log(child.avail) / child.visits
                    )
                    if node is root and bias:
                        u += prior * bias.get((seat, d.kind, a), 0.0) / (child.visits + 1)
                    if u > best_u:
                        best_u, best_a = u, a
                if untried:
                    if node is root and bias:
                        kind = d.kind
                        a = max(untried, key=lambda x: bias.get((seat, kind, x), 0.0))
                    else:
                        a = untried[rng.randrange(len(untried))]
                    child = _Node()
                    child.avail = 1
                    children[(seat, d.kind, a)] = child
                    expanded = True
                else:
                    a = best_a
                    child = children[(seat, d.kind, a)]
                if node is root:
                    first = a
                advance(s, a)
                node = child
                path.append(child)
            else:
                if expanded:
                    break
                a = self._other_seat(s, d, q)
                key = (d.seat, d.kind, _HIDDEN if d.kind in _HIDDEN_KINDS else a)
                nxt = node.children.get(key)
                if nxt is None:
                    nxt = _Node()
                    node.children[key] = nxt
                    expanded = True
                advance(s, a)
                node = nxt
                path.append(nxt)
        # Rollout to the horizon with the fast policy for everyone.
        turn_leaf = self.turn_leaf
        while not s.over and s.gambit < stop and steps < _MAX_STEPS:
            d = s.pending
            assert d is not None
            if turn_leaf and d.seat == seat and d.kind in _TURNS:
                break
            advance(s, policy(s, d))
            steps += 1
        if self._outcome is not None:
            reward = WIN_SCALE * win_chance(s, seat, q, self._outcome)
        else:
            reward = evaluate(s, seat, q) / REWARD_SCALE
        for n in path:
            n.visits += 1
            n.total += reward
        if self.watch is not None:
            self.watch.leaf(first, s)


register(
    BotEntry(
        "ismcts",
        IsmctsBot,
        "search",
        level="hard",
        settings={
            "iters": int,
            "seconds": float,
            "c": float,
            "horizon": int,
            "leaf": choice("gambit", "turn"),
            "policy": choice("plan", "simple"),
            "prior": float,
            "value": choice("win", "margin"),
            "model": choice("heuristic", "fast"),
        },
        about="information-set Monte Carlo tree search",
        strength=Strength(
            0.480,
            0.431,
            0.529,
            400,
            "3 x heuristic",
            4,
            "dragonante tournament --seats ismcts,heuristic,heuristic,heuristic"
            " --games 200 --seed 11 --workers 2 --json (and --seed 12)",
        ),
    )
)


#: The swift search's fixed budget: iterations per decision (no clock: reproducible).
SWIFT_ITERS = 100


class SwiftBot(IsmctsBot):
    """The same search on a small fixed budget, the other seats answered by the fast
    policy instead of the heuristic's judgement (an iteration costs ~40% less).

    Why a bot of its own: a hundred iterations judged by the chance of winning
    fitted to self-play (``outcome.json``) already win a third of the games
    against three ``heuristic`` at 4 players, in about 30 ms a decision, where
    the one-second ``hard`` is too slow for a quick game or a crowded server and
    the learned lookahead only matches ``medium`` (``docs/bots.md``).  A fixed
    number of iterations, never a clock, so its games replay and its measured
    strength is the same on a busy machine.
    """

    name = "swift"

    def __init__(
        self, seed: int = 0, iters: int = SWIFT_ITERS, c: float = 0.7, model: str = "fast"
    ) -> None:
        super().__init__(seed, iters=iters, c=c, model=model)


register(
    BotEntry(
        "swift",
        SwiftBot,
        "search",
        settings={"iters": int, "c": float, "model": choice("heuristic", "fast")},
        about="a 100-iteration search, leaves judged by a chance of winning fitted to self-play",
        strength=Strength(
            0.329,
            0.297,
            0.362,
            800,
            "3 x heuristic",
            4,
            "dragonante tournament --seats swift,heuristic,heuristic,heuristic"
            " --games 400 --seed 21 --workers 2 --json (and --seed 22)",
        ),
    )
)
