"""Three-Dragon Ante as a single-agent Gymnasium environment: one seat against bots.

The id ``dragonante/ThreeDragonAnte-v1`` resolves in any Python process of an
environment where dragonante is installed, with no import (see
:mod:`dragonante._gym_plugin`)::

    import gymnasium as gym

    env = gym.make("dragonante/ThreeDragonAnte-v1", players=4, opponents=["random"])

You play ``seat`` (0 by default); every other seat is one of our bots
(``opponents``: bot specs for :func:`dragonante.bots.make_bot`, one per
other seat, or one spec repeated; ``baseline`` by default, about 2,000 steps
a second here, where ``heuristic`` gives about 75: choose it, or any spec,
for stronger play; :meth:`ThreeDragonAnteEnv.set_opponents`
or ``reset(options={"opponents": [...]})`` change them between episodes, a
curriculum).  Each ``step`` answers your pending question, then lets the bots
answer theirs until you are asked again or the game ends.  The observation
is the same Dict as the PettingZoo environment's (``observation``: your
seat's view, ``action_mask``: your legal actions;
:mod:`dragonante.agents.encoding`); ``info["action_mask"]`` repeats the mask
and :meth:`ThreeDragonAnteEnv.action_masks` gives it as booleans, the method
sb3-contrib's ``MaskablePPO`` looks for.  The reward is given when the game
ends: your win share (1/k of k tied winners), plus with ``gold_reward`` your
final hoard minus your starting hoard over the game's total gold.

An action outside the mask follows PettingZoo's classic convention by
default (``illegal_action="lose"``): the episode ends at once, the reward is
``illegal_reward`` (-1), and ``info["illegal_action"]`` is True, so
Gymnasium's ``check_env``, which steps an action sampled before a reset,
passes on the defaults.  ``illegal_action="raise"`` raises ``ValueError``
and changes nothing; ``"random"`` replaces the action with a legal one drawn
from the environment's seeded generator (also flagged in ``info``).
``env.action_space.sample()`` with no mask samples a legal action
(:class:`LegalDiscrete`).

``-v1`` because the observation's layout, the illegal-action rule and the
default opponents changed since ``-v0``; that id is still registered and
answers with an error saying so (:func:`retired_v0`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from dragonante.agents.encoding import (
    N_ACTIONS,
    OBS_SIZE,
    action_mask,
    to_answer,
)
from dragonante.agents.pettingzoo import Obs, final_rewards, make_config
from dragonante.agents.state_encoding import StateEncoder
from dragonante.bots import make_bot
from dragonante.bots.base import Bot, SeatView
from dragonante.cards import ALL_CARDS
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.state import GameState
from dragonante.engine.views import Observation, events_for, observe

ENV_ID = "dragonante/ThreeDragonAnte-v1"
#: The first version's id: retired, it answers with a clear error (:func:`retired_v0`).
OLD_ENV_ID = "dragonante/ThreeDragonAnte-v0"
#: The default opponents: fast (``heuristic`` costs some 25 times more per step).
DEFAULT_OPPONENTS: tuple[str, ...] = ("baseline",)

#: Opponents from weakest to strongest, the order in which to train against
#: them (``random`` first: against ``heuristic`` a random seat almost never
#: wins, so a first policy would see almost no reward).
CURRICULUM: tuple[str, ...] = ("random", "baseline", "heuristic")

ILLEGAL_ACTIONS = ("lose", "raise", "random")


class LegalDiscrete(spaces.Discrete):
    """``Discrete(N_ACTIONS)`` whose unmasked ``sample()`` draws a *legal* action.

    Most actions are illegal at any moment, so a plain
    ``env.action_space.sample()`` (what many quick scripts call) would
    mostly lose the game at once; here it samples the current action mask
    instead.  An explicit ``mask`` or ``probability`` is used as given.
    """

    def __init__(self, n: int, legal: Callable[[], npt.NDArray[np.int8]]) -> None:
        super().__init__(n)
        self._legal = legal

    def sample(
        self,
        mask: npt.NDArray[np.int8] | None = None,
        probability: npt.NDArray[np.int8] | None = None,
    ) -> np.int64:
        """A legal action when no mask is given (see the class docstring)."""
        if mask is None and probability is None:
            legal = self._legal()
            if legal.any():
                mask = legal
        return super().sample(mask, probability)


def masked_sample(masks: npt.NDArray[np.int8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One uniformly random legal action per row of ``masks`` (a vector env's masks).

    A row with no legal action is an environment whose game has just ended:
    under Gymnasium 1.x's default autoreset (next-step mode) the next step
    only resets that environment and ignores its action, so any action will
    do and this returns 0 for it instead of failing on an empty choice.
    """
    masks = np.atleast_2d(masks)
    out = np.zeros(len(masks), dtype=np.int64)
    for i, row in enumerate(masks):
        legal = np.flatnonzero(row)
        if len(legal):
            out[i] = legal[rng.integers(len(legal))]
    return out


class ThreeDragonAnteEnv(gym.Env[Obs, int]):
    """One seat of a Three-Dragon Ante table; the other seats are bots."""

    # Gymnasium reads this class attribute; render_fps is what video
    # recorders use for ``rgb_array`` frames (one frame per step is plenty).
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        players: int = 4,
        seat: int = 0,
        opponents: Sequence[str] = DEFAULT_OPPONENTS,
        ruleset: str = "legendary",
        deck: str = "legendary",
        abilities: AbilityOptions | None = None,
        gold_reward: bool = False,
        render_mode: str | None = None,
        config: GameConfig | None = None,
        illegal_action: str = "lose",
        illegal_reward: float = -1.0,
    ) -> None:
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(
                f"illegal_action must be one of {ILLEGAL_ACTIONS}, got {illegal_action!r}"
            )
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(
                f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}"
            )
        if config is None:
            config = make_config(players, ruleset, deck, abilities)
        self.config = config.validate()
        n = self.config.players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0-{n - 1}, got {seat}")
        self.seat = seat
        self.opponents: list[str] = self._checked(opponents)
        self.gold_reward = gold_reward
        self.render_mode = render_mode
        self.observation_space: spaces.Dict = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
            }
        )
        self.action_space: LegalDiscrete = LegalDiscrete(  # type: ignore[assignment]
            N_ACTIONS, self._mask
        )
        self._seeds = random.Random()
        self._bots: dict[int, Bot] = {}
        self._shown = 0
        #: True once an illegal action has lost the episode (the game is not over).
        self._forfeit = False
        #: The agent's seat is observed at every step: re-encode only what changed.
        self._encoder = StateEncoder()
        self.state: GameState = new_game(self.config, 0)

    def _checked(self, opponents: Sequence[str] | str) -> list[str]:
        """One spec per other seat, each a known bot (fail now, not mid-game)."""
        n = self.config.players
        specs = [opponents] if isinstance(opponents, str) else list(opponents)
        if len(specs) == 1:
            specs *= n - 1
        if len(specs) != n - 1:
            raise ValueError(f"give one opponent spec or {n - 1}, got {len(specs)}")
        for spec in specs:
            make_bot(spec, 0)
        return specs

    def set_opponents(self, opponents: Sequence[str] | str) -> None:
        """Play against ``opponents`` (one spec, or one per other seat) from the next reset.

        For a curriculum: ``vec_env.env_method("set_opponents", "baseline")``
        moves every environment of a vector env up a level between episodes.
        """
        self.opponents = self._checked(opponents)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new game (``seed`` fixes it, the bots' choices and later seedless resets).

        ``options={"opponents": ...}`` is :meth:`set_opponents` before the deal.
        """
        super().reset(seed=seed)
        if options and "opponents" in options:
            self.set_opponents(options["opponents"])
        if seed is not None:
            self._seeds = random.Random(seed)
        game_seed = self._seeds.getrandbits(31)
        self.state = new_game(self.config, game_seed)
        others = [p for p in range(self.config.players) if p != self.seat]
        self._bots = {
            p: make_bot(spec, game_seed * 101 + p)
            for p, spec in zip(others, self.opponents, strict=True)
        }
        self._shown = 0
        self._forfeit = False
        self._advance()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Answer your question with ``action``, then play the bots until you are asked."""
        s = self.state
        d = s.pending
        if d is None or self._forfeit:
            raise RuntimeError("the episode is over: call reset()")
        try:
            answer: int | None = to_answer(d.kind, action)
        except (KeyError, ValueError, TypeError):
            answer = None
        illegal = answer is None or answer not in d.options
        if illegal:
            if self.illegal_action == "raise":
                legal = [int(a) for a in np.flatnonzero(action_mask(d))]
                raise ValueError(f"action {action} is not legal for {d.kind!r}; legal: {legal}")
            if self.illegal_action == "lose":
                self._forfeit = True
                info = self._info()
                info["illegal_action"] = True
                return self._observation(), self.illegal_reward, True, False, info
            answer = d.options[int(self.np_random.integers(len(d.options)))]
        assert answer is not None
        apply(s, answer)
        self._advance()
        reward = 0.0
        if s.over:
            reward = final_rewards(s, self.gold_reward)[self.seat]
        info = self._info()
        if illegal:
            info["illegal_action"] = True
        return self._observation(), reward, s.over, False, info

    def _advance(self) -> None:
        s = self.state
        while (d := s.pending) is not None and d.seat != self.seat:
            apply(s, self._bots[d.seat].choose(SeatView(s, d.seat)))

    def _observation(self) -> Obs:
        return {
            "observation": self._encoder.encode(self.state, self.seat),
            "action_mask": self._mask(),
        }

    def _mask(self) -> npt.NDArray[np.int8]:
        d = self.state.pending
        asked = d is not None and d.seat == self.seat and not self._forfeit
        return action_mask(d if asked else None)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Your legal actions as booleans: what sb3-contrib's ``MaskablePPO`` asks for."""
        return self._mask().astype(bool)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask()}

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """Your seat's view: ``ansi``, the events you saw since the last call
        and then the table; ``rgb_array``, the table drawn as an image."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return draw_table(observe(self.state, self.seat, hints=False))
        from dragonante.interfaces.narrate import Narrator
        from dragonante.interfaces.render import table_lines, table_view

        s = self.state
        names = [f"player_{p}" for p in range(s.n)]
        narrator = Narrator(names, me=self.seat, debt_model=s.config.rules.debt_model)
        log = s.log or []
        lines = narrator.events(events_for(log, self.seat, self._shown))
        self._shown = len(log)
        lines += table_lines(table_view(s, self.seat), narrator)
        return "\n".join(lines)


# --- the table as an image ---------------------------------------------------------

#: RGB of each card color (the dragons' own colors; mortals grey-brown).
_RGB: dict[str, tuple[int, int, int]] = {
    "black": (40, 40, 40), "blue": (40, 90, 220), "brass": (200, 160, 60),
    "bronze": (160, 100, 40), "copper": (190, 110, 70), "gold": (240, 200, 30),
    "green": (40, 160, 60), "red": (210, 40, 40), "silver": (190, 190, 200),
    "white": (245, 245, 245), "adamantine": (90, 110, 120), "brown": (120, 80, 40),
    "earthquake": (150, 120, 90), "gray": (128, 128, 128), "iron": (100, 100, 110),
    "mercury": (170, 180, 190), "mithral": (210, 220, 235), "purple": (130, 50, 160),
    "shadow": (70, 60, 90), "steel": (140, 150, 160), "mortal": (150, 130, 110),
}  # fmt: skip
_HEIGHT, _WIDTH = 360, 480
_CARD_W = 18
_FELT = (20, 90, 50)


def _card(img: npt.NDArray[np.uint8], top: int, left: int, height: int, card: int) -> None:
    """Draw ``card`` as a column of its colors whose height shows its strength."""
    c = ALL_CARDS[card]
    h = max(4, height * c.strength // 13)
    colors = c.type.colors or ("mortal",)
    w = (_CARD_W - 2) // len(colors)
    for i, color in enumerate(colors):
        x = left + 1 + i * w
        img[top + height - h : top + height, x : x + w] = _RGB.get(color, (150, 130, 110))


def draw_table(view: Observation) -> npt.NDArray[np.uint8]:
    """The table as one seat sees it (``observe``), as an ``(H, W, 3)`` uint8 image.

    One band per seat, top to bottom: a marker (white: you, its right half
    yellow: asked now, black: out), the hoard as a gold bar over the table's total gold, and
    the flight, each card a column of its colors as tall as its strength.
    Below the seats: the ante cards and the stakes bar, then your hand.  It
    draws only the view, so it shows nothing the seat may not see.
    """
    img = np.empty((_HEIGHT, _WIDTH, 3), np.uint8)
    img[:] = _FELT
    n: int = view.players
    hoards: list[int] = view.hoards
    total = max(1, sum(hoards) + view.stakes + view.hole)
    q = view.question
    asked = q.seat if q is not None else None
    band = (_HEIGHT - 120) // n
    for p in range(n):
        top = p * band + 4
        out = p in view.out
        me = (245, 245, 245) if p == view.seat else (60, 60, 60)
        img[top : top + band - 8, 4:9] = (0, 0, 0) if out else me
        img[top : top + band - 8, 9:14] = (250, 220, 0) if p == asked else (0, 0, 0) if out else me
        img[top : top + 6, 20 : 20 + 100 * hoards[p] // total] = (240, 200, 30)
        for i, card in enumerate(view.flights[p][:24]):
            _card(img, top + 8, 20 + i * _CARD_W, band - 16, card)
    top = _HEIGHT - 116
    img[top : top + 6, 20 : 20 + 100 * view.stakes // total] = (240, 200, 30)
    for i, card in enumerate(c for c in view.ante if c >= 0):
        _card(img, top + 8, 20 + i * _CARD_W, 44, card)
    for i, card in enumerate((view.hand or [])[:24]):
        _card(img, _HEIGHT - 56, 20 + i * _CARD_W, 50, card)
    return img


def retired_v0(**kwargs: Any) -> gym.Env[Any, Any]:
    """``dragonante/ThreeDragonAnte-v0``: refused, saying what changed and what to use."""
    raise gym.error.DeprecatedEnv(
        f"{OLD_ENV_ID} is retired: the observation layout changed (5,560 values now; "
        "the running effects moved to the end of the vector, derived from the effects "
        "table), an illegal action now ends the episode with illegal_reward instead "
        "of raising, and the "
        f"default opponents are now {', '.join(DEFAULT_OPPONENTS)} (fast) instead of "
        f"heuristic. Use {ENV_ID} (opponents=['heuristic'] for the old opponents); "
        "a policy trained on -v0 observations does not fit -v1."
    )


def register() -> None:
    """Register ``dragonante/ThreeDragonAnte-v1`` (and the retired ``-v0``) with
    Gymnasium (once)."""
    if ENV_ID not in gym.registry:
        gym.register(id=ENV_ID, entry_point=f"{__name__}:ThreeDragonAnteEnv")
    if OLD_ENV_ID not in gym.registry:
        gym.register(id=OLD_ENV_ID, entry_point=f"{__name__}:retired_v0")


register()

__all__ = [
    "CURRICULUM",
    "DEFAULT_OPPONENTS",
    "ENV_ID",
    "OLD_ENV_ID",
    "LegalDiscrete",
    "ThreeDragonAnteEnv",
    "draw_table",
    "masked_sample",
    "register",
    "retired_v0",
]
