"""Tips on: each rule once, the first time it comes up."""

from __future__ import annotations

from dragonante.bots import SeatView, make_bot
from dragonante.tutorial import PLAYER, Tips, normal_game


def test_a_normal_game_with_tips_tells_each_rule_once() -> None:
    game = normal_game(seed=3)
    tips = Tips(game.state.config, "it")
    me = make_bot("easy", 0)
    said: list[str] = []
    while not game.over:
        game.run_bots()
        said += tips.tips(game.new_events())
        if game.over:
            break
        game.answer(me.choose(SeatView(game.state, PLAYER)))
    assert said and len(said) == len(set(said))
    assert all(s.startswith("Suggerimento: ") for s in said)
    assert game.bot_specs == {1: "easy", 2: "easy"}
