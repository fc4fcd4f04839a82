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
  that is not being asked.  The observation is encoded only when asked for
  (``observe``, ``last()``), once per agent and step, straight from the
  engine state (:class:`~dragonante.agents.state_encoding.StateEncoder`: in
  C when the compiled encoder is built, else only what changed since the
  last observation), equal byte for byte to encoding the seat's view.
* ``infos[agent]["action_mask"]`` holds the same mask (PettingZoo's
  convention for masks outside the observation), so an agent that needs no
  observation can step with ``last(observe=False)`` and skip the encoding.
* Action: ``Discrete(N_ACTIONS)``; an action outside the mask raises
  ``ValueError`` and changes nothing.
* Rewards, all at the end of the game: 1/k to each of k tied winners, 0 to
  the others; with ``gold_reward=True`` each agent also gets its final hoard
  minus its starting hoard, divided by the game's total gold.
* ``render_mode="ansi"``: ``render()`` returns the narrator's sentences for
  the public events since the last render (a spectator's view) and the table;
  ``render_mode="human"`` prints them instead (after every step too, as
  PettingZoo's classic environments do) and returns None.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from dragonante.agents.encoding import (
    N_ACTIONS,
    OBS_SIZE,
    action_mask,
    legal_answer,
)
from dragonante.agents.state_encoding import StateEncoder, legal_actions
from dragonante.engine import GameConfig, advance, new_game
from dragonante.engine.abilities import AbilityOptions
from dragonante.engine.config import DeckOptions, Rules
from dragonante.engine.state import GameState
from dragonante.engine.views import events_for

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
        "name": "dragonante_v1",
        "render_modes": ["ansi", "human"],
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
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.config = (
            config.validate() if config else make_config(players, ruleset, deck, abilities)
        )
        self.render_mode = render_mode
        #: ``human``: the table is printed after every step.
        self._human = render_mode == "human"
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
        #: The observations, kept up to date from the state: a step re-encodes
        #: only what changed.
        self._encoder = StateEncoder()
        #: The agent being asked and its mask (computed once per decision).
        self._asked: str | None = None
        self._mask: npt.NDArray[np.int8] = _no_actions()
        #: A copy of the bytes of ``_mask``: ``_legal[action]`` checks an action in O(1).
        self._legal = bytes(N_ACTIONS)
        self._shown = 0
        self.state: GameState = self._deal()

    def _deal(self) -> GameState:
        """A new game from the next seed.  The event log only feeds ``render``
        (observations read the state), and keeping it costs about a tenth of a
        step, so it is kept only when rendering."""
        return new_game(self.config, self._seeds.getrandbits(31), log=self.render_mode is not None)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the episode ------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; ``seed`` fixes it and the games of later seedless resets."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state = self._deal()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {
            a: {"action_mask": _no_actions()} for a in self.agents
        }
        self._cache = {}
        self._asked = None
        self._shown = 0
        self._select()

    def _select(self) -> None:
        """Select the agent the engine asks next and publish its mask in ``infos``
        (or, at the end, hand out the rewards and terminate every agent)."""
        d = self.state.pending
        before = self._asked
        if d is not None:
            agent = self.possible_agents[d.seat]
            self.agent_selection = agent
            self._asked = agent
            # The check reads its own copy: the caller may write into the mask.
            self._mask, self._legal = legal_actions(d)
            self.infos[agent]["action_mask"] = self._mask
            if before is not None and before != agent:
                self.infos[before]["action_mask"] = _no_actions()
            return
        self._asked = None
        self._mask = _no_actions()
        self._legal = bytes(N_ACTIONS)
        if before is not None:
            self.infos[before]["action_mask"] = _no_actions()
        for p, r in enumerate(final_rewards(self.state, self.gold_reward)):
            agent = self.possible_agents[p]
            self.rewards[agent] = r
            self.terminations[agent] = True
        self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        """Answer the selected agent's question with ``action`` (None once it is done).

        The action is checked against the mask built for this question (one
        lookup: the mask has exactly one action per legal answer), and the
        answer then goes to the engine's unchecked ``advance``: validating it
        again in ``apply`` would repeat the same check at a higher cost.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        s = self.state
        d = s.pending
        assert d is not None and agent == self._asked
        if action is None:
            raise ValueError(f"{agent} must answer {d.kind!r}: None is not an action")
        answer = legal_answer(d, self._legal, action)
        if answer is None:
            legal = [int(a) for a in np.flatnonzero(action_mask(d))]
            raise ValueError(
                f"action {action} is not legal for {agent}'s {d.kind!r} question; "
                f"legal actions: {legal}"
            )
        self._cumulative_rewards[agent] = 0.0
        advance(s, answer)
        self._cache = {}
        self._select()
        if self.state.pending is None:
            # Rewards are all 0 until the game ends, and adding 0.0 changes no
            # sum: accumulating only then saves a loop over the agents each step.
            self._accumulate_rewards()
        if self._human:
            self.render()

    # --- what an agent sees -------------------------------------------------------------

    def observe(self, agent: str) -> Obs:
        """``agent``'s observation: its seat's view and its action mask.

        Encoded on the first request after each step and kept until the next
        step, so ``last()`` and ``observe()`` together encode once.
        """
        cached = self._cache.get(agent)
        if cached is None:
            vector = self._encoder.encode(self.state, self._seat[agent])
            mask = self._mask if agent == self._asked else NO_ACTIONS
            cached = {"observation": vector, "action_mask": mask}
            self._cache[agent] = cached
        return cached

    def action_mask(self, agent: str) -> npt.NDArray[np.int8]:
        """Only the action mask of ``agent`` (no observation is encoded).

        The asked agent's mask is the array in ``infos[agent]["action_mask"]``,
        built once per decision; any other agent gets zeros.
        """
        return self._mask if agent == self._asked else _no_actions()

    def render(self) -> str | None:
        """The public events since the last call, narrated, then the table (spectator):
        returned (``ansi``) or printed (``human``)."""
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
        if self._human:
            print("\n".join(lines))
            return None
        return "\n".join(lines)

    def close(self) -> None:
        pass


def _frozen_zeros() -> npt.NDArray[np.int8]:
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    mask.flags.writeable = False
    return mask


#: The mask of an agent that is not being asked.  One shared array, read-only
#: so that no caller can change another's: a fresh one per step cost about
#: 0.3 us, a few percent of a step.
NO_ACTIONS: npt.NDArray[np.int8] = _frozen_zeros()


def _no_actions() -> npt.NDArray[np.int8]:
    """The all-zero mask of an agent that is not being asked (shared, read-only)."""
    return NO_ACTIONS


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # untyped base
    """PettingZoo's order checks, without their cost on every step.

    The stock wrapper reaches the environment's attributes through its
    ``__getattr__`` (a set lookup, a name check and a ``getattr`` each): five
    times in ``last()``, once in ``step()`` and twice per ``agent_iter`` turn,
    together about a fifth of a step.  These three methods read the wrapped
    environment directly instead and keep every check: no ``last()``,
    ``step()`` or ``agent_iter()`` before ``reset()``, a warning for a step
    after the game, and one ``step()`` per turn of ``agent_iter``.
    """

    def last(self, observe: bool = True) -> tuple[Obs | None, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        result: tuple[Obs | None, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return result

    def step(self, action: int | None) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:  # the stock wrapper's error or warning
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _OrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderEnforcingIterable(self, max_iter)


class _OrderEnforcingIterable(AECOrderEnforcingIterable):  # type: ignore[misc]  # untyped base
    def __iter__(self) -> _OrderEnforcingIterator:
        return _OrderEnforcingIterator(self.env, self.max_iter)


class _OrderEnforcingIterator(AECOrderEnforcingIterator):  # type: ignore[misc]  # untyped base
    """The stock iterator, reading the environment past the wrapper."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        agent: str = inner.agent_selection
        return agent


def env(**kwargs: Any) -> AECEnv[str, Obs, int]:
    """The AEC environment with PettingZoo's order checks (see :class:`raw_env`)."""
    return _OrderEnforcing(raw_env(**kwargs))


__all__ = ["env", "final_rewards", "make_config", "raw_env"]
