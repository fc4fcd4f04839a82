"""Bot names, levels and settings as a user types them."""

from __future__ import annotations

import pytest

from dragonante.bots import BOTS, LEVELS, BotSpecError, bot_names, make_bot, parse_spec
from dragonante.bots.ismcts import DEFAULT_ITERS, DEFAULT_SECONDS, IsmctsBot


def test_every_name_and_level_makes_a_bot() -> None:
    for name in bot_names():
        bot = make_bot(name, 1)
        assert bot.name == LEVELS.get(name, name)
    assert set(LEVELS.values()) <= set(BOTS)
    assert LEVELS == {"easy": "baseline", "medium": "heuristic", "hard": "ismcts"}


def test_settings_reach_the_bot() -> None:
    bot = make_bot("ismcts:iters=50:c=1.5", 0)
    assert isinstance(bot, IsmctsBot)
    assert (bot.iters, bot.seconds, bot.c) == (50, None, 1.5)
    default = make_bot("hard")
    assert isinstance(default, IsmctsBot)
    assert (default.iters, default.seconds) == (DEFAULT_ITERS, DEFAULT_SECONDS)
    assert parse_spec("heuristic:samples=5") == ("heuristic", {"samples": 5})
    assert (default.win_value, default.model_turns) == (True, True)
    plain = make_bot("ismcts:value=margin:model=fast")
    assert isinstance(plain, IsmctsBot)
    assert (plain.win_value, plain.model_turns) == (False, False)


def test_unknown_bot_names_the_choices() -> None:
    with pytest.raises(KeyError, match="choose from random, baseline"):
        make_bot("grandmaster")


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:speed=3",
        "ismcts:iters",
        "ismcts:iters=many",
        "ismcts:iters=0",
        "ismcts:value=gold",
        "ismcts:leaf=round",
        "random:x=1",
    ],
)
def test_bad_settings_are_refused(spec: str) -> None:
    with pytest.raises(BotSpecError):
        make_bot(spec)


def test_a_bad_word_setting_names_its_choices() -> None:
    with pytest.raises(BotSpecError, match="choose from win, margin"):
        make_bot("ismcts:value=gold")
