"""Three-Dragon Ante as a single-agent Gymnasium environment: one seat against bots.

Importing this module registers ``dragonante/ThreeDragonAnte-v0``::

    import gymnasium as gym
    import dragonante.agents.gymnasium  # registers the id

    env = gym.make("dragonante/ThreeDragonAnte-v0", players=4, opponents=["heuristic"])

You play ``seat`` (0 by default); every other seat is one of our bots
(``opponents``: bot specs for :func:`dragonante.bots.make_bot`, one per
other seat, or one spec repeated).  Each ``step`` answers your pending
question, then lets the bots answer theirs until you are asked again or the
game ends.  The observation is the same Dict as the PettingZoo environment's
(``observation``: your seat's view, ``action_mask``: your legal actions;
:mod:`dragonante.agents.encoding`); ``info["action_mask"]`` repeats the mask
for libraries that look for it there.  The reward is given when the game
ends: your win share (1/k of k tied winners), plus with ``gold_reward`` your
final hoard minus your starting hoard over the game's total gold.  An action
outside the mask raises ``ValueError`` and changes nothing (or, with
``illegal_action="random"``, is replaced by a legal answer drawn from the
environment's seeded generator and flagged ``info["illegal_action"]``: what
Gymnasium's ``check_env`` needs, as it steps an action sampled before a
reset);
``env.action_space.sample()`` with no mask samples a legal action
(:class:`LegalDiscrete`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from dragonante.agents.encoding import N_ACTIONS, OBS_SIZE, action_mask, encode, to_answer
from dragonante.agents.pettingzoo import Obs, final_rewards, make_config
from dragonante.bots import make_bot
from dragonante.bots.base import Bot, SeatView
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.state import GameState
from dragonante.engine.views import events_for, observe

ENV_ID = "dragonante/ThreeDragonAnte-v0"


class LegalDiscrete(spaces.Discrete):
    """``Discrete(N_ACTIONS)`` whose unmasked ``sample()`` draws a *legal* action.

    Most actions are illegal at any moment and an illegal action raises, so a
    plain ``env.action_space.sample()`` (what Gymnasium's checker and many
    quick scripts call) would fail; here it samples the current action mask
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


class ThreeDragonAnteEnv(gym.Env[Obs, int]):
    """One seat of a Three-Dragon Ante table; the other seats are bots."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium reads this class attribute

    def __init__(
        self,
        players: int = 4,
        seat: int = 0,
        opponents: Sequence[str] = ("heuristic",),
        ruleset: str = "legendary",
        deck: str = "legendary",
        abilities: AbilityOptions | None = None,
        gold_reward: bool = False,
        render_mode: str | None = None,
        config: GameConfig | None = None,
        illegal_action: str = "raise",
    ) -> None:
        if illegal_action not in ("raise", "random"):
            raise ValueError(f"illegal_action must be 'raise' or 'random', got {illegal_action!r}")
        self.illegal_action = illegal_action
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        if config is None:
            config = make_config(players, ruleset, deck, abilities)
        self.config = config.validate()
        n = self.config.players
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0-{n - 1}, got {seat}")
        specs = list(opponents)
        if len(specs) == 1:
            specs *= n - 1
        if len(specs) != n - 1:
            raise ValueError(f"give one opponent spec or {n - 1}, got {len(specs)}")
        for spec in specs:
            make_bot(spec, 0)  # fail now on an unknown bot, not mid-game
        self.seat = seat
        self.opponents = specs
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
        self.state: GameState = new_game(self.config, 0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Deal a new game (``seed`` fixes it, the bots' choices and later seedless resets)."""
        super().reset(seed=seed)
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
        self._advance()
        return self._observation(), self._info()

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Answer your question with ``action``, then play the bots until you are asked."""
        s = self.state
        d = s.pending
        if d is None:
            raise RuntimeError("the game is over: call reset()")
        try:
            answer: int | None = to_answer(d.kind, action)
        except (KeyError, ValueError):
            answer = None
        illegal = answer is None or answer not in d.options
        if illegal and self.illegal_action == "raise":
            legal = [int(a) for a in np.flatnonzero(action_mask(d))]
            raise ValueError(f"action {action} is not legal for {d.kind!r}; legal: {legal}")
        if answer is None or illegal:
            answer = d.options[int(self.np_random.integers(len(d.options)))]
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
        return {"observation": encode(observe(self.state, self.seat)), "action_mask": self._mask()}

    def _mask(self) -> npt.NDArray[np.int8]:
        d = self.state.pending
        return action_mask(d if d is not None and d.seat == self.seat else None)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask()}

    def render(self) -> str | None:
        """Your seat's view: the events you saw since the last call, then the table."""
        if self.render_mode is None:
            return None
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


def register() -> None:
    """Register ``dragonante/ThreeDragonAnte-v0`` with Gymnasium (once)."""
    if ENV_ID not in gym.registry:
        gym.register(id=ENV_ID, entry_point=f"{__name__}:ThreeDragonAnteEnv")


register()

__all__ = ["ENV_ID", "ThreeDragonAnteEnv", "register"]
