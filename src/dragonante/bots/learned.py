"""The learned bot: a value function fitted to self-play, and a short lookahead.

The player judges positions by a chance of winning the game that it learned
from games of the project's own bots (:mod:`dragonante.sim.value_fit`,
``tools/train_learned.py``), not by hand-set gold weights:

    P(win) = sigmoid(w . features(position, seat))

with the features of :mod:`dragonante.bots.features` (gold margins, the
stakes of the contend and fold plans, the hand counted by strength bands)
and one weight vector per player count, shipped in ``learned.json``.

At each question it re-deals what the seat cannot see a few times
(``samples``), and for every legal answer plays on to the seat's next play
or ante - the other seats, and the seat's own follow-up questions, answered
by the fast policy of :mod:`dragonante.bots.policy` - and averages the
learned chance of winning there.  Stopping at the seat's *own* next turn
is where the value function was fitted (positions at a seat's own play and
ante questions), and it lets the model see the other seats' replies: a
strong card played lets the next player trigger a weaker one, an ante
decides who leads.  A game that ends inside the lookahead scores its
winners.

Pure Python (no numpy: the player's install has none), a few milliseconds
a decision.  The model file records the feature layout it was trained on;
one of another layout is refused (:class:`~dragonante.bots.features.StaleModelError`).
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from dragonante.bots.base import SeatView
from dragonante.bots.evaluate import Tail, strength_tail
from dragonante.bots.features import FEATURE_NAMES, LAYOUT_VERSION, StaleModelError, features
from dragonante.bots.heuristic import best_answer, unseen_cards
from dragonante.bots.policy import fast_answer
from dragonante.bots.registry import BotEntry, SettingError, Strength, register
from dragonante.engine import decisions as D
from dragonante.engine.game import advance
from dragonante.engine.state import GameState

#: The ``format`` field of a learned model file.
MODEL_FORMAT = "dragonante-learned-value"
#: The shipped model (in this package).
SHIPPED_MODEL = "learned.json"
#: Player counts a model file must cover.
PLAYER_COUNTS = (2, 3, 4, 5, 6)
#: Questions answered by the fast policy inside one lookahead before judging.
_LOOKAHEAD_LIMIT = 60
#: Questions before the first deal: a fixed judgement (nothing to look ahead at).
_SETUP_KINDS = frozenset({D.PICK_SPECIAL, D.DRAFT_ABILITY, D.ANCESTRY_COLOR})
_TURNS = frozenset({D.PLAY, D.ANTE})


@dataclass(frozen=True, slots=True)
class ValueModel:
    """Fitted weights of the chance of winning, one vector per player count."""

    weights: dict[int, tuple[float, ...]]
    #: How the model was made (the file's ``training``), for ``docs/bots.md``.
    training: dict[str, Any]

    def win_chance(self, s: GameState, seat: int, q: Tail) -> float:
        """The learned chance that ``seat`` wins the game from ``s``."""
        if s.over:
            return 1.0 / len(s.winners) if seat in s.winners else 0.0
        w = self.weights[s.n]
        x = sum(a * b for a, b in zip(w, features(s, seat, q), strict=True))
        if x < -30.0:
            return 0.0
        if x > 30.0:
            return 1.0
        return 1.0 / (1.0 + math.exp(-x))


def parse_model(data: object, where: str) -> ValueModel:
    """A model from a decoded model file; :class:`StaleModelError` naming
    ``where`` and the reason if it is not one for this feature layout."""
    if not isinstance(data, dict) or data.get("format") != MODEL_FORMAT:
        raise StaleModelError(f"{where} is not a learned model file (format {MODEL_FORMAT!r})")
    version = data.get("layout_version")
    if version != LAYOUT_VERSION or data.get("features") != list(FEATURE_NAMES):
        raise StaleModelError(
            f"{where} was trained on feature layout {version!r}; this dragonante uses layout "
            f"{LAYOUT_VERSION}: retrain it (tools/train_learned.py)"
        )
    models = data.get("models")
    weights: dict[int, tuple[float, ...]] = {}
    for n in PLAYER_COUNTS:
        row = models.get(str(n)) if isinstance(models, dict) else None
        if (
            not isinstance(row, list)
            or len(row) != len(FEATURE_NAMES)
            or not all(isinstance(v, int | float) and math.isfinite(v) for v in row)
        ):
            raise StaleModelError(f"{where} has no valid weights for {n} players")
        weights[n] = tuple(float(v) for v in row)
    training = data.get("training")
    return ValueModel(weights, training if isinstance(training, dict) else {})


def load_model(path: str | None = None) -> ValueModel:
    """The model at ``path``, or the shipped one (cached)."""
    return _load(path)


@cache
def _load(path: str | None) -> ValueModel:
    if path is None:
        text = resources.files("dragonante.bots").joinpath(SHIPPED_MODEL).read_text("utf-8")
        where = SHIPPED_MODEL
    else:
        try:
            text = Path(path).read_text("utf-8")
        except OSError as exc:
            raise StaleModelError(f"cannot read the model {path}: {exc.strerror}") from None
        where = path
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StaleModelError(f"{where} is not JSON: {exc}") from None
    return parse_model(data, where)


def model_setting(raw: str) -> str:
    """The ``model`` setting (``learned:model=PATH``): checked when the spec is
    read, so a missing or stale file is a one-line error before the first game."""
    try:
        load_model(raw)
    except StaleModelError as exc:
        raise SettingError(str(exc)) from None
    return raw


def play_on(s: GameState, seat: int) -> None:
    """Answer every question with the fast policy until ``seat``'s next play or
    ante (or the game's end)."""
    for _ in range(_LOOKAHEAD_LIMIT):
        d = s.pending
        if d is None or (d.seat == seat and d.kind in _TURNS):
            return
        advance(s, fast_answer(s, d))


class LearnedBot:
    """A lookahead to the seat's next turn, judged by a value function learned in self-play."""

    name = "learned"

    def __init__(self, seed: int = 0, samples: int = 3, model: str | None = None) -> None:
        self._rng = random.Random(seed)
        self.samples = max(1, samples)
        self.model = load_model(model)

    def answer_values(self, view: SeatView) -> dict[int, float]:
        """Each answer's learned chance of winning, averaged over the re-deals."""
        d = view.decision
        seat = view.seat
        worlds = [view.determinize(self._rng.getrandbits(62)) for _ in range(self.samples)]
        q = strength_tail(unseen_cards(worlds[0], seat))
        model = self.model
        values: dict[int, float] = {}
        for answer in d.options:
            total = 0.0
            for world in worlds:
                x = world.clone()
                advance(x, answer)
                play_on(x, seat)
                total += model.win_chance(x, seat, q)
            values[answer] = total / len(worlds)
        return values

    def choose(self, view: SeatView) -> int:
        d = view.decision
        if len(d.options) == 1:
            return d.options[0]
        if d.kind in _SETUP_KINDS:
            return fast_answer(view.determinize(self._rng.getrandbits(62)), d)
        return best_answer(d, self.answer_values(view))


register(
    BotEntry(
        "learned",
        LearnedBot,
        "learned",
        settings={"samples": int, "model": model_setting},
        about="value function learned in self-play, lookahead to its next turn",
        strength=Strength(
            0.2537,
            0.214,
            0.299,
            400,
            "3 x heuristic",
            4,
            "dragonante tournament --seats learned,heuristic,heuristic,heuristic"
            " --games 400 --seed 21 --workers 2 --json",
        ),
    )
)
