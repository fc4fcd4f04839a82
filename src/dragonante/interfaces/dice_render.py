"""Dice Gambit in words: events, player tracker sheets and questions as terminal text.

Pure functions from engine data to strings (the commands print them), so
the terminal table, the game-master's tracker and the tests share one
wording.  Every sentence comes from the message catalogs
(:mod:`dragonante.i18n`, keys ``dice.*``) in the language passed as
``lang``: the Dice Gambit has no Italian source text, so its Italian
follows the card game's glossary (sfida, stormo, piatto, tesoro, apertura,
"mo") and the D&D vocabulary of the Italian rulebook (vantaggio, DM).
"""

from __future__ import annotations

from typing import Any

from dragonante.dice.decisions import (
    DEMAND,
    PASS,
    PLAY,
    ROLL,
    SACRIFICE,
    TURN,
    TYPE_ROLL,
    WITHDRAW,
    Decision,
)
from dragonante.dice.state import FLIGHTS, OUT_OF_PLAY, STAKES, DiceState
from dragonante.dice.table import BAHAMUT, EMPTY, TIAMAT, dragon
from dragonante.i18n import DEFAULT_LANG, has, t

#: Catalog suffixes of the roll purposes, by the engine's purpose index
#: (``dragonante.dice.decisions.PURPOSES``: turn order, type, strength, tie-breaker).
PURPOSE_KEYS = ("order", "type", "strength", "tiebreak")

#: What a person may type at the roll-or-withdraw question, by language.  Kept
#: per language because the initials clash: English "r" rolls, Italian "r"
#: ("ritirati") withdraws.
TURN_WORDS: dict[str, dict[str, int]] = {
    "en": {"r": PLAY, "roll": PLAY, "p": PLAY, "play": PLAY, "1": PLAY}
    | {"w": WITHDRAW, "withdraw": WITHDRAW, "2": WITHDRAW},
    "it": {"t": PLAY, "tira": PLAY, "g": PLAY, "gioca": PLAY, "1": PLAY}
    | {"r": WITHDRAW, "ritirati": WITHDRAW, "ritira": WITHDRAW, "2": WITHDRAW},
}


def default_names(n: int, lang: str = DEFAULT_LANG) -> list[str]:
    """``Player 1`` ... in ``lang``: the names a table gets when nobody gives any."""
    return [t("seat.player", lang, seat=p + 1) for p in range(n)]


def shown_names(names: list[str], me: int | None, lang: str = DEFAULT_LANG) -> list[str]:
    """The names the table shows: the one person against bots is "You", as at the
    card table (``me``: that seat; None, everyone by name: hot-seat, the tracker).
    The record keeps the names the table was started with."""
    shown = list(names)
    if me is not None:
        shown[me] = t("seat.you_label", lang)
    return shown


def you_key(key: str, seat: object, me: int | None, lang: str) -> str:
    """``key.you`` when ``seat`` is the person the table says "you" to (its verb
    conjugates), else ``key``."""
    return f"{key}.you" if me is not None and seat == me and has(f"{key}.you", lang) else key


def object_names(names: list[str], me: int | None, lang: str) -> list[str]:
    """The names as the object of a verb or preposition ("pays 3 gold to you")."""
    shown = list(names)
    if me is not None:
        shown[me] = t("seat.you_object", lang)
    return shown


def purpose_text(purpose: int, lang: str = DEFAULT_LANG) -> str:
    """What a roll is for (``turn order``), from the engine's purpose index."""
    return t(f"dice.purpose.{PURPOSE_KEYS[purpose]}", lang)


def _slug(face: int) -> str:
    return "pending" if face == EMPTY else dragon(face).name.lower()


def type_name(face: int, lang: str = DEFAULT_LANG) -> str:
    """A dragon's short name as the tracker sheet writes it (``Green``, ``Verde``)."""
    return t(f"dice.type.{_slug(face)}", lang)


def dragon_text(face: int, strength: int | None = None, lang: str = DEFAULT_LANG) -> str:
    """``Green dragon (evil, strength 1d8)``, or once rolled ``Green dragon (evil), strength 6``."""
    ty = dragon(face)
    if face == EMPTY:
        return type_name(face, lang)
    name = t(f"dice.dragon.{_slug(face)}", lang)
    alignment = t(f"dice.alignment.{ty.alignment}", lang)
    if strength is None:
        return t(
            "dice.dragon_text", lang, dragon=name, alignment=alignment, strength=ty.strength_text
        )
    return t("dice.dragon_text.rolled", lang, dragon=name, alignment=alignment, strength=strength)


def _party(to: int, names: list[str], lang: str) -> str:
    """Who receives a payment, as the object of a sentence (``the stakes``)."""
    if to == STAKES:
        return t("dice.party.stakes", lang)
    if to == OUT_OF_PLAY:
        return t("dice.party.out", lang)
    return names[to]


def _to(to: int, names: list[str], lang: str) -> str:
    """``to the stakes`` / ``nel piatto``: the preposition is part of the message
    because Italian fuses it with the article."""
    if to == STAKES:
        return t("dice.to.stakes", lang)
    if to == OUT_OF_PLAY:
        return t("dice.to.out", lang)
    return t("dice.to.seat", lang, name=names[to])


def _gold(n: int, lang: str) -> str:
    return t("unit.gold", lang, n=n)


def _seats(seats: list[int], names: list[str], lang: str) -> str:
    return f" {t('dice.and', lang)} ".join(names[p] for p in seats)


def describe(
    event: tuple[str, dict[str, Any]],
    names: list[str],
    lang: str = DEFAULT_LANG,
    me: int | None = None,
) -> str | None:
    """One line for an event, or None for events that need no line of their own.

    ``names`` as the table shows them (:func:`shown_names`); ``me``: the seat
    told "you" (its own verbs, "to you"), None to name everyone."""
    kind, d = event
    seat = d.get("seat")
    who = names[seat] if isinstance(seat, int) else ""
    obj = object_names(names, me, lang)

    def you(key: str, subject: object = seat) -> str:
        return you_key(key, subject, me, lang)

    if kind == "gambit_start":
        hoards = ", ".join(f"{names[p]} {d['hoards'][p]}" for p in d["seats"])
        return t("dice.event.gambit_start", lang, gambit=d["gambit"], hoards=hoards)
    if kind == "roll":
        purpose = purpose_text(d["purpose"], lang)
        faces = d["faces"]
        if len(faces) > 1:
            line = t(
                you("dice.event.roll_advantage"),
                lang,
                who=who,
                count=len(faces),
                sides=d["sides"],
                purpose=purpose,
                faces=", ".join(map(str, faces)),
                value=d["value"],
            )
        else:
            line = t(
                you("dice.event.roll"),
                lang,
                who=who,
                sides=d["sides"],
                purpose=purpose,
                value=d["value"],
            )
        if d["purpose"] == TYPE_ROLL:
            line += f" - {dragon_text(d['value'], lang=lang)}"
        return line
    if kind == "turn_order":
        first = d["first"]
        order = ", ".join(names[p] for p in d["order"])
        key = you("dice.event.turn_order", first)
        return t(key, lang, first=names[first], roll=d["rolls"][first], order=order)
    if kind == "pay":
        reason_key = {"starting ante": "starting_ante", "ante": "ante", "triplet": "triplet"}.get(
            d["reason"]
        )
        reason = f" ({t(f'dice.pay_reason.{reason_key}', lang)})" if reason_key else ""
        params = {
            "payer": names[d["payer"]],
            "amount": _gold(d["amount"], lang),
            "to": _to(d["to"], obj, lang),
            "reason": reason,
        }
        payer = d["payer"]
        if d["debt"]:
            party = _party(d["to"], obj, lang)
            key = you("dice.event.pay_debt", payer)
            return t(key, lang, paid=d["paid"], party=party, debt=d["debt"], **params)
        return t(you("dice.event.pay", payer), lang, **params)
    if kind == "take":
        reason = d["reason"]
        taken = _gold(d["taken"], lang)
        if reason == "leader":
            return t(you("dice.event.leader_wins"), lang, who=who, taken=taken)
        key = "dice.event.steal" if reason == "evil" else "dice.event.take"
        if d["taken"] < d["amount"]:
            key += "_short"
        return t(you(key), lang, who=who, taken=taken, amount=d["amount"])
    if kind == "dragon":
        text = dragon_text(d["face"], d["strength"], lang)
        if d["replacement"]:
            key = "dice.event.replacement" if d["full"] else "dice.event.replacement_bare"
            return t(you(key), lang, who=who, dragon=text)
        return t(you("dice.event.dragon"), lang, who=who, dragon=text)
    if kind == "demand":
        amount = _gold(d["amount"], lang)
        target = obj[d["target"]]
        return t(you("dice.event.demand"), lang, who=who, target=target, amount=amount)
    if kind == "demand_none":
        return t(you("dice.event.demand_none"), lang, who=who)
    if kind == "demand_declined":
        return t(you("dice.event.demand_declined"), lang, who=who)
    if kind == "sacrifice":
        if d["target"] == d["seat"]:
            return t(you("dice.event.sacrifice_own"), lang, who=who)
        key = "dice.event.sacrifice.yours" if d["target"] == me else you("dice.event.sacrifice")
        return t(key, lang, who=who, target=names[d["target"]])
    if kind == "sacrifice_declined":
        return None
    if kind == "withdraw":
        key = "dice.event.withdraw_session" if d["session"] else "dice.event.withdraw_gambit"
        return t(you(key), lang, who=who)
    if kind == "debt_paid":
        owed = _gold(d["owed"], lang)
        to = _to(d["to"], obj, lang)
        return t(you("dice.event.debt_paid"), lang, who=who, paid=d["paid"], owed=owed, to=to)
    if kind == "debt_cancelled":
        why = (
            t("dice.why.forgiven", lang)
            if d["why"] == "forgiven"
            else t(you("dice.why.broke"), lang, who=who)
        )
        owed = _gold(d["owed"], lang)
        party = _party(d["to"], obj, lang)
        return t(you("dice.event.debt_cancelled"), lang, who=who, owed=owed, party=party, why=why)
    if kind == "last_in_gambit":
        return t(you("dice.event.last_in_gambit"), lang, who=who)
    if kind == "round_start":
        return t("dice.event.round_start", lang, round=d["round"])
    if kind == "turn":
        return t(you("dice.event.turn"), lang, who=who)
    if kind == "special_flights":
        return t("dice.event.special_flights", lang, stakes=_gold(d["stakes"], lang))
    if kind == "flight_earned":
        flight = d["flight"]
        if flight in ("god", "triplet", "allied"):
            amount = _gold(d["amount"], lang)
            return t(you(f"dice.event.flight_{flight}"), lang, who=who, amount=amount)
        return None  # the Leader Flight is announced with the stakes it wins
    if kind == "leader_flight":
        # a tie, if any, is announced next
        key = "dice.event.leader_weakest" if d["weakest"] else "dice.event.leader_strongest"
        return t(key, lang)
    if kind == "tie":
        purpose = t(f"dice.tie.{d['purpose']}", lang)
        return t("dice.event.tie", lang, purpose=purpose, seats=_seats(d["seats"], obj, lang))
    if kind == "tie_broken":
        purpose = t(f"dice.tie.{d['purpose']}", lang)
        by = t(f"dice.tie_by.{d['by']}", lang)
        return t(you("dice.event.tie_broken"), lang, who=who, purpose=purpose, by=by)
    if kind == "roll_off":
        seats = ", ".join(names[p] for p in d["seats"])
        return t("dice.event.roll_off", lang, seats=seats)
    if kind == "settle":
        return t("dice.event.settle", lang) if d["debts"] else None
    if kind == "gambit_won":
        w = d["winner"]
        gold = _gold(d["hoards"][w], lang)
        key = you("dice.event.gambit_won", w)
        return t(key, lang, name=names[w], gambit=d["gambit"], gold=gold)
    if kind in ("gambit_end", "round_end"):
        return None  # the command prints the tracker they carry
    if kind == "too_few_players":
        return t("dice.event.too_few_players", lang)
    if kind == "game_over":
        hoards = ", ".join(f"{names[p]} {h}" for p, h in enumerate(d["hoards"]))
        first = d["winners"][0]
        return t(you("dice.event.game_over", first), lang, name=names[first], hoards=hoards)
    return f"{kind}: {d}"  # an event this module does not know yet: shown raw, never hidden


def sheet_lines(
    sh: dict[str, Any],
    names: list[str],
    tr: dict[str, Any],
    lang: str = DEFAULT_LANG,
    me: int | None = None,
) -> list[str]:
    """One player's tracker: dragons, total strength, flights earned, hoard, debts owed
    (``me``: the seat a debt owed "to you" names so)."""
    seat = sh["seat"]
    tags = []
    if sh["gaming_set"]:
        tags.append(t("dice.sheet.tag.gaming_set", lang))
    if not sh["in_session"]:
        tags.append(t("dice.sheet.tag.left", lang))
    elif sh["withdrawn"]:
        tags.append(t("dice.sheet.tag.withdrawn", lang))
    if seat == tr["first"]:
        tags.append(t("dice.sheet.tag.first", lang))
    head = names[seat] + (f" ({', '.join(tags)})" if tags else "")
    params = {"name": head, "hoard": sh["hoard"], "debts": sh["debts_owed"]}
    if tr["combined"]:
        lines = [t("dice.sheet.head_combined", lang, combined=sh["combined_hoard"], **params)]
    else:
        lines = [t("dice.sheet.head", lang, **params)]
    dragons = sh["dragons"]
    # the columns are as wide as the language's longest words ("Bahamut [divino]", "malvagio")
    god = t("dice.sheet.god", lang)
    name_width = max(15, *(len(f"{type_name(f, lang)} {god}") for f in (TIAMAT, BAHAMUT)))
    width = max(len(t(f"dice.alignment.{a}", lang)) for a in ("good", "evil"))
    for i in range(max(tr["rounds"], len(dragons))):
        if i >= len(dragons):
            lines.append(f"  {i + 1}. -")
        elif dragons[i]["pending"]:
            lines.append(f"  {i + 1}. {type_name(EMPTY, lang)}")
        else:
            row = dragons[i]
            name = type_name(row["face"], lang) + (f" {god}" if row["god"] else "")
            alignment = t(f"dice.alignment.{row['alignment']}", lang)
            lines.append(
                f"  {i + 1}. {name:<{name_width}} {alignment:<{width}} {row['strength']:>3}"
            )
    boxes = "  ".join(
        f"[{'x' if sh['flights'][f] else ' '}] {t(f'dice.flight_box.{f}', lang)}" for f in FLIGHTS
    )
    total = f"{sh['total_strength']:>3}"
    lines.append("  " + t("dice.sheet.total", lang, total=total, boxes=boxes))
    for debt in sh["debts"]:
        party = _party(debt["to"], object_names(names, me, lang), lang)
        lines.append("  " + t("dice.sheet.owes", lang, amount=debt["amount"], party=party))
    return lines


def table_lines(
    tr: dict[str, Any], names: list[str], lang: str = DEFAULT_LANG, me: int | None = None
) -> list[str]:
    """Every player's tracker sheet, in turn order, and the stakes (from :func:`tracker`)."""
    seats = tr["order"] or list(range(len(tr["sheets"])))
    if tr["gambits"] > 1:
        where = t("dice.sheet.where_of", lang, gambit=tr["gambit"], gambits=tr["gambits"])
    else:
        where = t("dice.sheet.where", lang, gambit=tr["gambit"])
    if tr["round"]:
        where += ", " + t("dice.sheet.where_round", lang, round=tr["round"], rounds=tr["rounds"])
    lines = [t("dice.sheet.stakes", lang, stakes=_gold(tr["stakes"], lang), where=where)]
    for p in seats:
        lines.extend(sheet_lines(tr["sheets"][p], names, tr, lang, me))
    return lines


def _listing(opts: list[tuple[str, int]]) -> str:
    return "  ".join(f"{i + 1}) {label}" for i, (label, _) in enumerate(opts))


def question(
    s: DiceState,
    d: Decision,
    names: list[str],
    lang: str = DEFAULT_LANG,
    me: int | None = None,
) -> tuple[str, list[tuple[str, int]]]:
    """The prompt for a question, and its choices as (label, answer) in display order.

    Each label is what the person may type (its number, or the word shown);
    ``me``: the seat asked as "you" (:func:`describe`).
    """
    who = names[d.seat]

    def you(key: str) -> str:
        return you_key(key, d.seat, me, lang)

    if d.kind == ROLL:
        sides, purpose, die, count = d.ctx
        params = {"who": who, "sides": sides, "purpose": purpose_text(purpose, lang)}
        if count > 1:
            return t(you("dice.ask.roll_advantage"), lang, die=die, count=count, **params), []
        return t(you("dice.ask.roll"), lang, **params), []
    if d.kind == TURN:
        choices = [(t("dice.ask.play", lang), PLAY), (t("dice.ask.withdraw", lang), WITHDRAW)]
        return t(you("dice.ask.turn"), lang, who=who), choices
    if d.kind == DEMAND:
        opts = [(names[p], p) for p in d.options if p != PASS]
        opts.append((t("dice.ask.nobody", lang), PASS))
        amount = _gold(d.ctx[0], lang)
        listing = _listing(opts)
        return t(you("dice.ask.demand"), lang, who=who, amount=amount, listing=listing), opts
    if d.kind == SACRIFICE:
        opts = [(tiamat_of(p, names, me, lang), p) for p in d.options if p != PASS]
        opts.append((t("dice.ask.not_now", lang), PASS))
        return t(you("dice.ask.sacrifice"), lang, who=who, listing=_listing(opts)), opts
    # a question kind this module does not know yet: raw, but still answerable
    return f"{who}: {d.kind} {list(d.options)}: ", [(str(o), o) for o in d.options]


def tiamat_of(owner: int, names: list[str], me: int | None, lang: str = DEFAULT_LANG) -> str:
    """``Bot 2's Tiamat``, or ``your Tiamat`` (an answer to a sacrifice question)."""
    return t(you_key("dice.ask.tiamat_of", owner, me, lang), lang, name=names[owner])


def parse_answer(
    d: Decision, text: str, choices: list[tuple[str, int]], lang: str = DEFAULT_LANG
) -> int | str:
    """The answer ``text`` means, or a one-line message (in ``lang``) saying why it is not one."""
    raw = text.strip().lower()
    if d.kind == ROLL:
        sides = d.ctx[0]
        try:
            value = int(raw)
        except ValueError:
            return t("dice.bad.roll_number", lang, sides=sides)
        if value not in d.options:
            return t("dice.bad.roll_impossible", lang, sides=sides, value=value)
        return value
    if not raw:
        return t("dice.bad.empty", lang, choices=", ".join(label for label, _ in choices))
    if d.kind == TURN:
        words = TURN_WORDS.get(lang, TURN_WORDS[DEFAULT_LANG])
        if raw in words:
            return words[raw]
        return t("dice.bad.turn", lang)
    if raw.isdigit():
        i = int(raw) - 1
        if 0 <= i < len(choices):
            return choices[i][1]
        return t("dice.bad.number", lang, last=len(choices))
    matches = [answer for label, answer in choices if label.lower().startswith(raw)]
    if len(matches) == 1:
        return matches[0]
    listing = ", ".join(f"{i + 1}) {label}" for i, (label, _) in enumerate(choices))
    return t("dice.bad.choose", lang, choices=listing)
