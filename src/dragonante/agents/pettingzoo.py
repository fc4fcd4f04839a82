"""Three-Dragon Ante as a PettingZoo AEC environment: every seat an agent.

Each question the engine puts to a seat (the ante, the card to play, every
power's question, the D&D ability questions) is one step of the agent for
that seat (``player_0`` ... ``player_5``), in the engine's own order: so
``agent_selection`` does not go round the table, it follows the game.
Questions with a single legal answer are applied by the engine itself
(``GameConfig.auto_single``), so an agent is only asked real choices.

* Observation: ``Dict(observation=Box(0, 1, (OBS_SIZE,), float32),
  action_mask=Box(0, 1, (N_ACTIONS,), int8))``, the seat's view only
  (:mod:`dragonante.agents.encoding`); the mask is all zeros for an agent
  that is not being asked.
* Action: ``Discrete(N_ACTIONS)``; an action outside the mask raises
  ``ValueError`` and changes nothing.
* Rewards, all at the end of the game: 1/k to each of k tied winners, 0 to
  the others; with ``gold_reward=True`` each agent also gets its final hoard
  minus its starting hoard, divided by the game's total gold.
* ``render_mode="ansi"``: ``render()`` returns the narrator's sentences for
  the public events since the last render (a spectator's view) and the table.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from dragonante.agents.encoding import N_ACTIONS, OBS_SIZE, action_mask, encode, to_answer
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.config import DeckOptions, Rules
from dragonante.engine.state import GameState
from dragonante.engine.views import events_for, observe

Obs = dict[str, npt.NDArray[Any]]


def make_config(
    players: int = 4,
    ruleset: str = "legendary",
    deck: str = "legendary",
    abilities: AbilityOptions | None = None,
) -> GameConfig:
    """The table the environments play: a ruleset's rules, a deck preset, abilities."""
    return GameConfig(
        players=players,
        rules=Rules.preset(ruleset),
        deck=DeckOptions(preset=deck),
        abilities=abilities or AbilityOptions(),
    ).validate()


def final_rewards(s: GameState, gold_reward: bool) -> list[float]:
    """Each seat's reward for a finished game (see the module docstring)."""
    winners = s.winners
    out = [1.0 / len(winners) if p in winners else 0.0 for p in range(s.n)]
    if gold_reward:
        start = s.config.starting_gold
        total = max(1, s.gold_total)
        out = [r + (s.hoards[p] - start) / total for p, r in enumerate(out)]
    return out


# PettingZoo ships no type information: AECEnv is Any to mypy.
class raw_env(AECEnv[str, Obs, int]):  # type: ignore[misc]  # noqa: N801 - PettingZoo's name
    """The unwrapped AEC environment (``env()`` adds PettingZoo's order checks)."""

    metadata = {  # noqa: RUF012 - PettingZoo reads this class attribute
        "name": "dragonante_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 4,
        ruleset: str = "legendary",
        deck: str = "legendary",
        seed: int | None = None,
        render_mode: str | None = None,
        abilities: AbilityOptions | None = None,
        gold_reward: bool = False,
        config: GameConfig | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.config = (
            config.validate() if config else make_config(players, ruleset, deck, abilities)
        )
        self.render_mode = render_mode
        self.gold_reward = gold_reward
        n = self.config.players
        self.possible_agents = [f"player_{p}" for p in range(n)]
        self._seat = {a: p for p, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._seeds = random.Random(seed)
        self._cache: dict[str, Obs] = {}
        self._shown = 0
        self.state: GameState = new_game(self.config, self._seeds.getrandbits(31))

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the episode ------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; ``seed`` fixes it and the games of later seedless resets."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state = new_game(self.config, self._seeds.getrandbits(31))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._cache = {}
        self._shown = 0
        self._select()

    def _select(self) -> None:
        d = self.state.pending
        if d is not None:
            self.agent_selection = self.possible_agents[d.seat]
            return
        for p, r in enumerate(final_rewards(self.state, self.gold_reward)):
            agent = self.possible_agents[p]
            self.rewards[agent] = r
            self.terminations[agent] = True
        self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        """Answer the selected agent's question with ``action`` (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        d = self.state.pending
        assert d is not None and self.possible_agents[d.seat] == agent
        if action is None:
            raise ValueError(f"{agent} must answer {d.kind!r}: None is not an action")
        try:
            answer = to_answer(d.kind, action)
        except (KeyError, ValueError):
            answer = None
        if answer is None or answer not in d.options:
            legal = [int(a) for a in np.flatnonzero(action_mask(d))]
            raise ValueError(
                f"action {action} is not legal for {agent}'s {d.kind!r} question; "
                f"legal actions: {legal}"
            )
        self._cumulative_rewards[agent] = 0.0
        apply(self.state, answer)
        self._cache = {}
        self._select()
        self._accumulate_rewards()

    # --- what an agent sees -------------------------------------------------------------

    def observe(self, agent: str) -> Obs:
        """``agent``'s observation: its seat's view and its action mask."""
        cached = self._cache.get(agent)
        if cached is None:
            seat = self._seat[agent]
            s = self.state
            d = s.pending
            mask = action_mask(d if d is not None and d.seat == seat else None)
            cached = {"observation": encode(observe(s, seat)), "action_mask": mask}
            self._cache[agent] = cached
        return cached

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """Only the action mask of ``agent`` (cheaper than a whole observation)."""
        d = self.state.pending
        seat = self._seat[agent]
        return action_mask(d if d is not None and d.seat == seat else None)

    def render(self) -> str | None:
        """The public events since the last call, narrated, then the table (spectator)."""
        if self.render_mode is None:
            return None
        from dragonante.interfaces.narrate import Narrator
        from dragonante.interfaces.render import table_lines, table_view

        s = self.state
        narrator = Narrator(self.possible_agents, debt_model=s.config.rules.debt_model)
        log = s.log or []
        lines = narrator.events(events_for(log, None, self._shown))
        self._shown = len(log)
        lines += table_lines(table_view(s, None), narrator, show_hand=False)
        return "\n".join(lines)

    def close(self) -> None:
        pass


def env(**kwargs: Any) -> AECEnv[str, Obs, int]:
    """The AEC environment with PettingZoo's order checks (see :class:`raw_env`)."""
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


__all__ = ["env", "final_rewards", "make_config", "raw_env"]
