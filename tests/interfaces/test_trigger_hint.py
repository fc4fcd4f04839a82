"""The trigger hint explains itself (issue 31 §2): why each card would trigger or not."""

from __future__ import annotations

import random

from dragonante.cards import ALL_CARDS
from dragonante.engine import GameConfig, apply, new_game
from dragonante.engine.config import DeckOptions, Rules
from dragonante.engine.decisions import PLAY
from dragonante.engine.views import observe
from dragonante.interfaces.narrate import Narrator, default_names
from dragonante.interfaces.trigger_hint import right_of, trigger_reason


def _plays(config: GameConfig, seeds: range) -> int:
    """Every card offered at every play question of random games: the reason's
    verdict is the engine's hint, and the strengths it names are the cards'."""
    checked = 0
    for seed in seeds:
        s = new_game(config, seed)
        pick = random.Random(seed)
        names = default_names(config.players, "en", me=0)
        while s.pending is not None:
            d = s.pending
            if d.kind == PLAY:
                obs = observe(s, d.seat)
                narrator = Narrator(names, "en", me=d.seat)
                played = obs.round_card
                prev = played[right_of(obs, d.seat)]
                for c in d.options:
                    if c < 0:
                        continue
                    reason = trigger_reason(obs, c, narrator.obj, "en")
                    assert reason.startswith("triggers: ") == (c in obs.hints), reason
                    strength = ALL_CARDS[c].strength
                    if prev >= 0 and strength <= ALL_CARDS[prev].strength:
                        want = f"triggers: {strength} is not stronger than the "
                        assert reason.startswith(want + f"{ALL_CARDS[prev].strength} ")
                    elif prev >= 0 and c not in obs.hints:
                        assert reason.startswith(f"does not trigger: {strength} is stronger")
                    elif max(played) < 0:
                        assert reason == "triggers: the first card of a round always triggers"
                    checked += 1
                # nobody else is told why: the reason is the asked seat's own
                other = observe(s, (d.seat + 1) % config.players)
                assert trigger_reason(other, d.options[0], narrator.obj, "en") == ""
            apply(s, d.options[pick.randrange(len(d.options))])
    return checked


def test_every_reason_agrees_with_the_engines_hint_legendary() -> None:
    assert _plays(GameConfig(players=4), range(12)) > 500


def test_every_reason_agrees_with_the_engines_hint_emperors_gambit() -> None:
    """Emperor's Gambit: the Exarch's ante effect makes strong cards trigger."""
    config = GameConfig(
        players=3, rules=Rules.preset("emperors_gambit"), deck=DeckOptions(preset="eg_full")
    )
    assert _plays(config, range(12)) > 300


def test_the_play_prompt_carries_the_reason_in_both_languages() -> None:
    s = new_game(GameConfig(players=2), 3)
    while s.pending is not None and not (s.pending.kind == PLAY and max(s.round_card) >= 0):
        apply(s, s.pending.options[0])
    d = s.pending
    assert d is not None
    names = ["Anna", "Bruno"]
    for lang, word in (("en", "the player on your right"), ("it", "il giocatore alla tua destra")):
        prompt = Narrator(names, lang, me=d.seat).prompt(s)
        assert prompt is not None
        cards = [o for o in prompt.options if o.card >= 0]
        assert cards and all(o.why and word in o.why for o in cards)
        assert all(names[1 - d.seat] in o.why for o in cards)
