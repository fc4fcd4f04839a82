"""Dice Gambit in words: events, player tracker sheets and questions as terminal text.

Pure functions from engine data to strings (the commands print them), so
the terminal table, the game-master's tracker and the tests share one
wording.  English only: the Dice Gambit has no Italian source text.
"""

from __future__ import annotations

from typing import Any

from dragonante.dice.decisions import (
    DEMAND,
    PASS,
    PLAY,
    PURPOSES,
    ROLL,
    SACRIFICE,
    TURN,
    TYPE_ROLL,
    WITHDRAW,
    Decision,
)
from dragonante.dice.state import FLIGHTS, OUT_OF_PLAY, STAKES, DiceState
from dragonante.dice.table import EMPTY, dragon

FLIGHT_NAMES = {
    "god": "God Flight",
    "triplet": "Triplet Flight",
    "allied": "Allied Flight",
    "leader": "Leader Flight",
}
TIE_PURPOSES = {
    "first": "who goes first",
    "leader": "the Leader Flight",
    "winner": "the gambit",
    "overall": "the game",
}
TIE_CRITERIA = {
    "hoard": "largest dragon hoard",
    "gods": "most dragon gods played",
    "good_dragons": "most good dragons in the flight",
    "d20": "d20 roll-off",
}


def default_names(n: int) -> list[str]:
    return [f"Player {p + 1}" for p in range(n)]


def dragon_text(face: int, strength: int | None = None) -> str:
    """``Green dragon (evil, 1d8)`` or, with a strength, ``Green dragon (evil) strength 6``."""
    t = dragon(face)
    if face == EMPTY:
        return t.name
    kind = "dragon god" if t.god else "dragon"
    if strength is None:
        return f"{t.name} {kind} ({t.alignment}, strength {t.strength_text})"
    return f"{t.name} {kind} ({t.alignment}), strength {strength}"


def _party(to: int, names: list[str]) -> str:
    if to == STAKES:
        return "the stakes"
    if to == OUT_OF_PLAY:
        return "nobody (it leaves play)"
    return names[to]


def _gold(n: int) -> str:
    return f"{n} gold"


def describe(event: tuple[str, dict[str, Any]], names: list[str]) -> str | None:
    """One line for an event, or None for events that need no line of their own."""
    kind, d = event
    who = names[d["seat"]] if "seat" in d and isinstance(d["seat"], int) else ""
    if kind == "gambit_start":
        hoards = ", ".join(f"{names[p]} {d['hoards'][p]}" for p in d["seats"])
        return f"=== Gambit {d['gambit']} === hoards: {hoards}"
    if kind == "roll":
        purpose = PURPOSES[d["purpose"]]
        sides = d["sides"]
        faces = d["faces"]
        if len(faces) > 1:
            shown = ", ".join(map(str, faces))
            line = (
                f"{who} rolls {len(faces)}d{sides} for {purpose} (advantage): "
                f"{shown} -> {d['value']}"
            )
        else:
            line = f"{who} rolls a d{sides} for {purpose}: {d['value']}"
        if d["purpose"] == TYPE_ROLL:
            line += f" - {dragon_text(d['value'])}"
        return line
    if kind == "turn_order":
        order = ", ".join(names[p] for p in d["order"])
        first = d["first"]
        return f"{names[first]} goes first (rolled {d['rolls'][first]}). Turn order: {order}."
    if kind == "pay":
        payer = names[d["payer"]]
        reason = {"starting ante": " (starting ante)", "ante": " (ante)"}.get(d["reason"], "")
        if d["reason"] == "triplet":
            reason = " (Triplet Flight)"
        to = _party(d["to"], names)
        if d["debt"]:
            return (
                f"{payer} pays {d['paid']} of {_gold(d['amount'])} to {to}{reason} "
                f"and owes {to} {d['debt']}."
            )
        return f"{payer} pays {_gold(d['amount'])} to {to}{reason}."
    if kind == "take":
        reason = d["reason"]
        taken = _gold(d["taken"])
        if reason == "leader":
            return f"{who} has the Leader Flight and wins the stakes: {taken}."
        short = d["taken"] < d["amount"]
        if reason == "evil":
            if short:
                return f"{who} steals {taken} of {d['amount']} from the stakes (all there was)."
            return f"{who} steals {taken} from the stakes."
        if short:
            return f"{who} takes {taken} of {d['amount']} from the stakes (all there was)."
        return f"{who} takes {taken} from the stakes."
    if kind == "dragon":
        text = dragon_text(d["face"], d["strength"])
        if d["replacement"]:
            extra = "" if d["full"] else " (placed without ante or power)"
            return f"{who}'s replacement: {text}{extra}."
        return f"{who} plays a {text}."
    if kind == "demand":
        return f"{who} makes {names[d['target']]} return {_gold(d['amount'])} to the stakes."
    if kind == "demand_none":
        return f"No opponent has an evil dragon: {who}'s good dragon demands nothing."
    if kind == "demand_declined":
        return f"{who} makes nobody pay."
    if kind == "sacrifice":
        target = "their own" if d["target"] == d["seat"] else f"{names[d['target']]}'s"
        return f"{who} sacrifices Bahamut to destroy {target} Tiamat!"
    if kind == "sacrifice_declined":
        return None
    if kind == "withdraw":
        scope = "the rest of the session" if d["session"] else "this gambit"
        return f"{who} withdraws from {scope}; their gold in the stakes stays there."
    if kind == "debt_paid":
        return (
            f"{who} pays {d['paid']} of the {_gold(d['owed'])} owed, to {_party(d['to'], names)}."
        )
    if kind == "debt_cancelled":
        why = "forgiven" if d["why"] == "forgiven" else f"{who} has no gold left"
        return (
            f"{who}'s debt of {_gold(d['owed'])} to {_party(d['to'], names)} is cancelled ({why})."
        )
    if kind == "last_in_gambit":
        return f"Everyone else has withdrawn: {who} plays no more turns this gambit."
    if kind == "round_start":
        return f"--- Round {d['round']} ---"
    if kind == "turn":
        return f"> {who}'s turn."
    if kind == "special_flights":
        return f"--- Special flights (stakes: {_gold(d['stakes'])}) ---"
    if kind == "flight_earned":
        flight = d["flight"]
        if flight == "god":
            return f"{who} has a God Flight (a dragon god every turn): half the stakes."
        if flight == "triplet":
            return f"{who} has a Triplet Flight: each opponent pays {who} {_gold(d['amount'])}."
        if flight == "allied":
            return f"{who} has an Allied Flight: {_gold(d['amount'])} from the stakes."
        return None  # the Leader Flight is announced with the stakes it wins
    if kind == "leader_flight":
        rule = "weakest flight (a Tiamat is in play)" if d["weakest"] else "strongest flight"
        return f"The Leader Flight goes to the {rule}."  # a tie is announced next
    if kind == "tie":
        tied = " and ".join(names[p] for p in d["seats"])
        return f"Tie for {TIE_PURPOSES[d['purpose']]} between {tied}."
    if kind == "tie_broken":
        return f"{who} wins the tie for {TIE_PURPOSES[d['purpose']]} ({TIE_CRITERIA[d['by']]})."
    if kind == "roll_off":
        return "Still tied: " + ", ".join(names[p] for p in d["seats"]) + " roll a d20."
    if kind == "settle":
        return "--- Settling debts ---" if d["debts"] else None
    if kind == "gambit_won":
        w = d["winner"]
        return f"*** {names[w]} wins gambit {d['gambit']} with {_gold(d['hoards'][w])}. ***"
    if kind in ("gambit_end", "round_end"):
        return None  # the command prints the tracker they carry
    if kind == "too_few_players":
        return "Fewer than two players are left at the table: the game ends."
    if kind == "game_over":
        w = d["winners"][0]
        return f"*** {names[w]} wins the game! *** Final hoards: " + ", ".join(
            f"{names[p]} {h}" for p, h in enumerate(d["hoards"])
        )
    return f"{kind}: {d}"


def sheet_lines(sh: dict[str, Any], names: list[str], tr: dict[str, Any]) -> list[str]:
    """One player's tracker: dragons, total strength, flights earned, hoard, debts owed."""
    seat = sh["seat"]
    tags = []
    if sh["gaming_set"]:
        tags.append("gaming set")
    if not sh["in_session"]:
        tags.append("left the table")
    elif sh["withdrawn"]:
        tags.append("withdrawn")
    if seat == tr["first"]:
        tags.append("first")
    head = names[seat] + (f" ({', '.join(tags)})" if tags else "")
    first = f"{head}: hoard {sh['hoard']}, debts owed {sh['debts_owed']}"
    if tr["combined"]:
        first += f", combined {sh['combined_hoard']}"
    lines = [first]
    dragons = sh["dragons"]
    for i in range(max(tr["rounds"], len(dragons))):
        if i >= len(dragons):
            lines.append(f"  {i + 1}. -")
        elif dragons[i]["pending"]:
            lines.append(f"  {i + 1}. (replacement pending)")
        else:
            row = dragons[i]
            name = row["type"] + (" [god]" if row["god"] else "")
            lines.append(f"  {i + 1}. {name:<15} {row['alignment']:<5} {row['strength']:>3}")
    boxes = "  ".join(
        f"[{'x' if sh['flights'][f] else ' '}] {FLIGHT_NAMES[f].split()[0]}" for f in FLIGHTS
    )
    lines.append(f"  Total strength: {sh['total_strength']:>3}   {boxes}")
    for debt in sh["debts"]:
        lines.append(f"  owes {debt['amount']} to {_party(debt['to'], names)}")
    return lines


def table_lines(tr: dict[str, Any], names: list[str]) -> list[str]:
    """Every player's tracker sheet, in turn order, and the stakes (from :func:`tracker`)."""
    seats = tr["order"] or list(range(len(tr["sheets"])))
    where = f"gambit {tr['gambit']}"
    if tr["gambits"] > 1:
        where += f" of {tr['gambits']}"
    if tr["round"]:
        where += f", round {tr['round']} of {tr['rounds']}"
    lines = [f"Stakes: {_gold(tr['stakes'])}   ({where})"]
    for p in seats:
        lines.extend(sheet_lines(tr["sheets"][p], names, tr))
    return lines


def question(s: DiceState, d: Decision, names: list[str]) -> tuple[str, list[tuple[str, int]]]:
    """The prompt for a question, and its choices as (label, answer) in display order.

    Each label is what the person may type (its number, or the word shown).
    """
    who = names[d.seat]
    if d.kind == ROLL:
        sides, purpose, die, count = d.ctx
        which = f" (die {die} of {count}, advantage)" if count > 1 else ""
        return f"{who}, roll a d{sides} for {PURPOSES[purpose]}{which}: ", []
    if d.kind == TURN:
        return f"{who}: [r]oll a dragon or [w]ithdraw? ", [("roll", PLAY), ("withdraw", WITHDRAW)]
    if d.kind == DEMAND:
        opts = [(names[p], p) for p in d.options if p != PASS] + [("nobody", PASS)]
        listing = "  ".join(f"{i + 1}) {label}" for i, (label, _) in enumerate(opts))
        return (
            f"{who}'s good dragon: who returns {_gold(d.ctx[0])} to the stakes?  {listing}: ",
            opts,
        )
    if d.kind == SACRIFICE:
        opts = [(f"{names[p]}'s Tiamat", p) for p in d.options if p != PASS] + [("not now", PASS)]
        listing = "  ".join(f"{i + 1}) {label}" for i, (label, _) in enumerate(opts))
        return f"{who}: sacrifice Bahamut to destroy a Tiamat?  {listing}: ", opts
    return f"{who}: {d.kind} {list(d.options)}: ", [(str(o), o) for o in d.options]


def parse_answer(d: Decision, text: str, choices: list[tuple[str, int]]) -> int | str:
    """The answer ``text`` means, or a one-line message saying why it is not one."""
    raw = text.strip().lower()
    if d.kind == ROLL:
        sides = d.ctx[0]
        try:
            value = int(raw)
        except ValueError:
            return f"type the number the d{sides} shows (1 to {sides})"
        if value not in d.options:
            return f"a d{sides} shows 1 to {sides}; {value} is impossible - roll again"
        return value
    if not raw:
        return "please choose: " + ", ".join(label for label, _ in choices)
    if d.kind == TURN:
        if raw in ("r", "roll", "p", "play", "1"):
            return PLAY
        if raw in ("w", "withdraw", "2"):
            return WITHDRAW
        return "type r to roll a dragon or w to withdraw"
    if raw.isdigit():
        i = int(raw) - 1
        if 0 <= i < len(choices):
            return choices[i][1]
        return f"choose a number from 1 to {len(choices)}"
    matches = [answer for label, answer in choices if label.lower().startswith(raw)]
    if len(matches) == 1:
        return matches[0]
    return "choose one of: " + ", ".join(
        f"{i + 1}) {label}" for i, (label, _) in enumerate(choices)
    )
