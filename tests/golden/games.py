"""The golden games: a few seeded games whose record digests are pinned beside the version.

Why: ``RULES_VERSION`` (and the Dice Gambit's ``DICE_RULES_VERSION``) must be
bumped whenever the engine's behaviour changes, or a stored record or web
table made before the change replays into a different game.  Nobody
remembers that by themselves, so ``tests/golden/test_golden.py`` plays these
games and compares each one's digest with the one pinned in
``card_game.json`` / ``dice.json``, which also record the version they were
made under:

* digests changed, version not bumped: the test fails and says to bump it;
* version bumped, digests regenerated (``python -m tests.golden --update``):
  the test passes again.

The update refuses to overwrite a changed digest while the version is still
the one pinned, so a behaviour change cannot be "fixed" by regenerating alone.

A game's digest covers its configuration, seed, every answer given and the
final state's full digest (``engine.records.digest``), so any change in what
is asked, what is legal or what happens is caught.  Answers are uniformly
random among the legal ones, from a generator seeded by the game's seed.
The set of games spans each ruleset, ability system and player count while
staying cheap (well under a second or two in all).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from dragonante import RULES_VERSION
from dragonante.dice import DICE_RULES_VERSION
from dragonante.dice.config import DiceConfig
from dragonante.dice.config import config_to_dict as dice_config_to_dict
from dragonante.dice.game import apply as dice_apply
from dragonante.dice.game import new_game as dice_new_game
from dragonante.engine.abilities.options import AbilityOptions
from dragonante.engine.config import DeckOptions, Ending, GameConfig, Rules, config_to_dict
from dragonante.engine.game import apply, new_game
from dragonante.engine.records import digest

HERE = Path(__file__).resolve().parent
CARD_FILE = HERE / "card_game.json"
DICE_FILE = HERE / "dice.json"
#: The one documented command that regenerates both files.
UPDATE_COMMAND = "python -m tests.golden --update"

#: Games per (ruleset, ability system, player count): random games take about
#: a millisecond each, so the whole set stays far under a second.
SEEDS_PER_TABLE = 4
#: A random game that asks more than this many questions is a bug, not a golden game.
MAX_ANSWERS = 50_000

_DECKS = {
    "legendary": DeckOptions(),
    "emperors_gambit": DeckOptions(preset="eg_full"),
    "original": DeckOptions(),
}
_SYSTEMS = ("", "disks", "skills")


def card_cases() -> dict[str, tuple[GameConfig, int]]:
    """Every golden card game by name: (config, seed).

    Each ruleset x ability system x 2-6 players, a few seeds each, plus the
    optional rules whose paths random play rarely reaches on its own
    (eliminations, the hole in the house, immediate debts, a set number of
    gambits, target gold).
    """
    out: dict[str, tuple[GameConfig, int]] = {}
    for r, (ruleset, deck) in enumerate(_DECKS.items()):
        for a, system in enumerate(_SYSTEMS):
            for players in range(2, 7):
                config = GameConfig(
                    players=players,
                    deck=deck,
                    rules=Rules.preset(ruleset),
                    abilities=AbilityOptions(system=system),
                )
                for k in range(SEEDS_PER_TABLE):
                    seed = 1000 + 100 * r + 30 * a + 5 * players + k
                    out[f"{ruleset}-{system or 'none'}-{players}p-s{seed}"] = (config, seed)
    base = GameConfig(players=5, gold_per_player=6)
    extras = {
        "players-remaining-5p": replace(base, ending=Ending(players_remaining=2)),
        "hole-in-the-house-4p": replace(
            base, players=4, rules=Rules.preset("legendary", hole_recipient="house")
        ),
        "eg-creditors-eliminations-4p": GameConfig(
            players=4,
            gold_per_player=6,
            deck=DeckOptions(preset="eg_full"),
            rules=Rules.preset("emperors_gambit"),
            ending=Ending(players_remaining=2),
        ),
        "immediate-debts-eliminations-5p": replace(
            base, rules=Rules.preset("original"), ending=Ending(players_remaining=2)
        ),
        "three-gambits-6p": GameConfig(players=6, ending=Ending(gambits=3)),
        "target-gold-3p": GameConfig(players=3, ending=Ending(target_gold=40)),
    }
    for n, (name, config) in enumerate(extras.items()):
        out[name] = (config, 2000 + n)
    return out


def dice_cases() -> dict[str, tuple[DiceConfig, int]]:
    """Every golden Dice Gambit game by name: (config, seed), 2-6 players and the options."""
    out: dict[str, tuple[DiceConfig, int]] = {}
    for players in (2, 3, 4, 5, 6):
        for k in range(2 * SEEDS_PER_TABLE):
            seed = 300 + 10 * players + k
            out[f"dice-{players}p-s{seed}"] = (DiceConfig(players=players), seed)
    out["dice-multi-gambit-4p"] = (DiceConfig(players=4, gambits=3), 400)
    out["dice-no-withdrawal-3p"] = (DiceConfig(players=3, withdrawal=False), 401)
    out["dice-gaming-set-5p"] = (DiceConfig(players=5, gaming_set_owners=(0, 3)), 402)
    return out


def _hash(data: dict[str, Any]) -> str:
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def card_digest(config: GameConfig, seed: int) -> str:
    """The digest of one seeded random card game: config, seed, answers, final state."""
    s = new_game(config, seed, log=False)
    pick = random.Random(seed ^ 0x5EED).random
    answers: list[int] = []
    while s.pending is not None:
        if len(answers) >= MAX_ANSWERS:
            raise RuntimeError(f"golden game (seed {seed}) did not end")
        options = s.pending.options
        answer = options[int(pick() * len(options))]
        apply(s, answer)
        answers.append(answer)
    return _hash(
        {"config": config_to_dict(config), "seed": seed, "answers": answers, "final": digest(s)}
    )


def dice_digest(config: DiceConfig, seed: int) -> str:
    """The digest of one seeded random Dice Gambit game (dice rolled from the seed)."""
    s = dice_new_game(config, seed, log=False)
    pick = random.Random(seed ^ 0x5EED).random
    answers: list[int] = []
    while s.pending is not None:
        if len(answers) >= MAX_ANSWERS:
            raise RuntimeError(f"golden dice game (seed {seed}) did not end")
        options = s.pending.options
        answer = options[int(pick() * len(options))]
        dice_apply(s, answer)
        answers.append(answer)
    return _hash(
        {
            "config": dice_config_to_dict(config),
            "seed": seed,
            "answers": answers,
            "final": _hash(s.to_dict()),
        }
    )


class Golden:
    """One pinned file: which version it was made under, and a digest per game."""

    def __init__(
        self,
        path: Path,
        version_key: str,
        version: int,
        version_name: str,
        compute: Callable[[], dict[str, str]],
    ) -> None:
        self.path = path
        self.version_key = version_key
        self.version = version
        self.version_name = version_name
        self.compute = compute

    def pinned(self) -> tuple[int | None, dict[str, str]]:
        """(version, digests) from the file; (None, {}) if it does not exist yet."""
        if not self.path.exists():
            return None, {}
        data = json.loads(self.path.read_text(encoding="utf-8"))
        return data.get(self.version_key), dict(data.get("digests", {}))

    def problems(self, now: dict[str, str] | None = None) -> list[str]:
        """What is wrong between the pinned file and the engine as it is (empty: all good)."""
        now = self.compute() if now is None else now
        version, pinned = self.pinned()
        name = self.path.name
        if version is None:
            return [f"{name} is missing: run `{UPDATE_COMMAND}`"]
        changed = sorted(k for k in now if k in pinned and pinned[k] != now[k])
        new = sorted(k for k in now if k not in pinned)
        gone = sorted(k for k in pinned if k not in now)
        out: list[str] = []
        if version != self.version:
            out.append(
                f"{self.version_name} is {self.version} but {name} was made under "
                f"{version}: regenerate it with `{UPDATE_COMMAND}`"
            )
        elif changed:
            listed = ", ".join(changed[:5]) + (" ..." if len(changed) > 5 else "")
            out.append(
                f"the behaviour changed ({len(changed)} golden games play differently: "
                f"{listed}) but {self.version_name} is still {version}: bump "
                f"{self.version_name} (old records and stored tables must be refused, not "
                f"replayed into a different game), then run `{UPDATE_COMMAND}`"
            )
        if new or gone:
            out.append(
                f"{name} does not list the golden games of tests/golden/games.py "
                f"(new: {new or '-'}; gone: {gone or '-'}): run `{UPDATE_COMMAND}`"
            )
        return out

    def update(self, same_version: bool = False) -> str:
        """Rewrite the file; refuses a changed digest under the pinned version.

        ``same_version`` allows it anyway: only for behaviour changes merged
        into a version that was never released (parallel branches landing on
        one bump).
        """
        now = self.compute()
        version, pinned = self.pinned()
        changed = [k for k in now if k in pinned and pinned[k] != now[k]]
        if changed and version == self.version and not same_version:
            raise SystemExit(
                f"{self.path.name}: {len(changed)} golden games play differently but "
                f"{self.version_name} is still {version}; bump it first (or, for changes "
                "merged into a version never released, pass --same-version)"
            )
        data = {
            self.version_key: self.version,
            "command": UPDATE_COMMAND,
            "digests": dict(sorted(now.items())),
        }
        self.path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        return f"{self.path.name}: {len(now)} games under {self.version_name} {self.version}" + (
            f" ({len(changed)} changed)" if changed else ""
        )


def card_golden() -> Golden:
    return Golden(
        CARD_FILE,
        "rules_version",
        RULES_VERSION,
        "RULES_VERSION",
        lambda: {name: card_digest(c, seed) for name, (c, seed) in card_cases().items()},
    )


def dice_golden() -> Golden:
    return Golden(
        DICE_FILE,
        "dice_rules_version",
        DICE_RULES_VERSION,
        "DICE_RULES_VERSION",
        lambda: {name: dice_digest(c, seed) for name, (c, seed) in dice_cases().items()},
    )
