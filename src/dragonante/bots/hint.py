"""A hint from the best bot: what the hard bot would answer, and what each answer is worth.

A person who asks for a hint gets the choice of the hard bot
(:class:`~dragonante.bots.ismcts.IsmctsBot`) for their current question and,
for its best two or three answers, the figures its search found:

* ``win``: the chance of winning the game, the search's own mean value of
  that answer (its reward is ``WIN_SCALE`` times the fitted chance of
  winning, :mod:`dragonante.bots.outcome`, scored at the search's horizon);
* ``stakes``: the share of the iterations through that answer in which the
  seat won this gambit's stakes;
* ``gold``: the mean change of the seat's hoard by the horizon (the start of
  the next gambit, or the game's end), in gold;
* ``visits``: the iterations that tried it (the bot picks the most tried).

Nothing is invented: the two extra figures are counted from the very
iterations whose visits and values choose the answer (a
:class:`~dragonante.bots.ismcts.SearchWatch` gives each re-deal an event
log and reads each iteration's end), so they describe the futures the bot
weighed.

The hint takes what a bot takes, a :class:`~dragonante.bots.base.SeatView`,
and nothing else: it re-deals what the seat cannot see exactly as the bots
do, so it cannot know more than the seat.  Its budget is a fixed number of
iterations (:data:`HINT_ITERS`, no clock), so the same question, view and
seed always give the same hint - asking again cannot fish for a different
one, and tests can pin it.  ``docs/benchmarks.md`` ("A hint from the best
bot") has its time at 4 players.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from dragonante.bots.base import SeatView
from dragonante.bots.ismcts import SETUP_KINDS, WIN_SCALE, IsmctsBot, pick
from dragonante.engine.state import GameState

#: Iterations a hint searches, with no clock so that a hint is reproducible:
#: fewer than the hard bot's 1,500 (``ismcts.DEFAULT_ITERS``, which its
#: one-second clock cuts short on a slow or busy machine anyway), so that a
#: hint takes well under 1.5 s at 4 players (``tools/hint_speed.py``,
#: ``docs/benchmarks.md``).
HINT_ITERS = 450
#: Answers a hint explains, best first.
TOP = 3

#: Why a hint has no figures: its question has one answer (``only``), or it
#: comes before the first deal, where the hard bot answers by a fixed
#: judgement without searching (``setup``); ``searched`` otherwise.
SEARCHED, ONLY, SETUP = "searched", "only", "setup"


@dataclass(frozen=True, slots=True)
class AnswerWorth:
    """What one answer is worth to the hard bot, from its search."""

    answer: int
    #: Iterations that tried this answer.
    visits: int
    #: Chance of winning the game (0-1): the search's mean value of the answer.
    win: float
    #: Share of those iterations in which the seat won this gambit's stakes (0-1).
    stakes: float
    #: Mean change of the seat's hoard by the search's horizon, in gold.
    gold: float


@dataclass(frozen=True, slots=True)
class Hint:
    """The hard bot's answer to one question of one seat, and why."""

    #: The question's id (``Decision.id``) and kind.
    decision: int
    kind: str
    #: The answer the hard bot gives (one of the question's options).
    choice: int
    #: :data:`SEARCHED`, :data:`ONLY` or :data:`SETUP`.
    how: str
    #: Iterations searched (0 without a search).
    iterations: int
    #: The best answers, best first (at most :data:`TOP`; the choice first).
    answers: tuple[AnswerWorth, ...] = ()
    #: Seconds the hint took.
    seconds: float = 0.0


class _Tally:
    """Counts, for each root answer, the iterations in which the seat won this
    gambit's stakes and the gold its hoard ended with (a ``SearchWatch``)."""

    __slots__ = ("gold", "hoard", "seat", "stakes", "tries")

    def __init__(self, seat: int, hoard: int) -> None:
        self.seat = seat
        self.hoard = hoard
        self.tries: dict[int, int] = {}
        self.stakes: dict[int, int] = {}
        self.gold: dict[int, int] = {}

    def world(self, s: GameState) -> None:
        s.log = []  # the gambit's end is read from its events

    def leaf(self, answer: int, s: GameState) -> None:
        self.tries[answer] = self.tries.get(answer, 0) + 1
        self.gold[answer] = self.gold.get(answer, 0) + s.hoards[self.seat] - self.hoard
        for _vis, kind, data in s.log or ():
            if kind == "gambit_won" or kind == "no_winner":
                if kind == "gambit_won" and data.get("winner") == self.seat:
                    self.stakes[answer] = self.stakes.get(answer, 0) + 1
                break


def hint_seed(seed: int, decision: int) -> int:
    """The seed of the hint for question ``decision`` of a game dealt from
    ``seed``: the same question gets the same hint however often it is asked.
    (It only drives the re-deals, which start from a canonical order,
    :mod:`dragonante.engine.determinize`: knowing it tells nothing hidden.)"""
    return (seed * 1_000_003 + 7_919 * (decision + 1)) & 0x7FFFFFFF


def hint(view: SeatView, seed: int = 0, iters: int = HINT_ITERS) -> Hint:
    """The hard bot's answer to ``view``'s question, with its best answers' figures.

    ``seed`` makes the hint reproducible (the same view and seed, the same
    hint); ``iters`` is the search's budget (tests pass fewer).
    """
    start = time.perf_counter()
    d = view.decision
    bot = IsmctsBot(seed, iters=iters)
    if len(d.options) == 1:
        return Hint(d.id, d.kind, d.options[0], ONLY, 0, seconds=time.perf_counter() - start)
    if d.kind in SETUP_KINDS:
        choice = bot.choose(view)
        return Hint(d.id, d.kind, choice, SETUP, 0, seconds=time.perf_counter() - start)
    seat = view.seat
    tally = _Tally(seat, view.observation().hoards[seat])
    bot.watch = tally
    stats = bot.search(view)
    choice = pick(stats, d.options)
    ranked = sorted(stats, key=lambda a: (stats[a].visits, stats[a].mean), reverse=True)
    ranked.remove(choice)
    worths = []
    for a in [choice, *ranked][:TOP]:
        tries = tally.tries.get(a, 0)
        if not tries:
            continue
        worths.append(
            AnswerWorth(
                a,
                stats[a].visits,
                win=min(1.0, max(0.0, stats[a].mean / WIN_SCALE)),
                stakes=tally.stakes.get(a, 0) / tries,
                gold=tally.gold.get(a, 0) / tries,
            )
        )
    return Hint(
        d.id,
        d.kind,
        choice,
        SEARCHED,
        bot.last.iterations,
        tuple(worths),
        time.perf_counter() - start,
    )
