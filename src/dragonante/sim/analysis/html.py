"""``report.html``: one self-contained page with the numbers and the plots.

Inline CSS, no scripts, images referenced by relative file names (the PNGs
sit beside the page in ``--out``), so the directory can be zipped, mailed
or served as it is.  Every heading and column comes from the message
catalog, in the report's language.
"""

from __future__ import annotations

from html import escape
from typing import Any

from dragonante.i18n import t

CSS = """
body { font-family: sans-serif; margin: 2em; color: #222; max-width: 75em; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #eee; } td:first-child, th:first-child { text-align: left; }
img { max-width: 100%; border: 1px solid #ddd; margin: 0.5em 0; }
.pos { color: #070; } .neg { color: #a00; }
"""

#: Cards listed at each end of the per-card table (all cards are in report.json).
TOP = 15


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(r: dict[str, Any]) -> str:
    return f"{100 * r['ci_low']:.1f}-{100 * r['ci_high']:.1f}%"


def _lift(x: float) -> str:
    cls = "pos" if x >= 0 else "neg"
    return f'<span class="{cls}">{100 * x:+.1f}</span>'


def _table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{th}</tr>{body}</table>"


def _card_rows(rows: list[dict[str, Any]]) -> list[list[str]]:
    return [
        [
            escape(str(c.get("name", c.get("key")))),
            str(c["plays"]),
            _pct(c["play_gambit"]["rate"]),
            _ci(c["play_gambit"]),
            _lift(c["play_gambit"]["lift"]),
            _lift(c["play_game"]["lift"]),
            str(c["antes"]),
            _pct(c["ante_gambit"]["rate"]),
            _lift(c["ante_gambit"]["lift"]),
        ]
        for c in rows
    ]


def render(report: dict[str, Any], plots: list[str], lang: str = "en") -> str:
    """The whole page as a string."""

    def h(key: str) -> str:
        return escape(t(key, lang))

    card_head = [
        t(k, lang)
        for k in (
            "analyze.col.card",
            "analyze.col.plays",
            "analyze.col.gambit_win",
            "analyze.col.ci",
            "analyze.col.lift_gambit",
            "analyze.col.lift_game",
            "analyze.col.antes",
            "analyze.col.ante_win",
            "analyze.col.lift_ante",
        )
    ]
    cards = sorted(report["cards"], key=lambda c: -c["play_gambit"]["lift"])
    run = report["run"]
    parts = [
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">',
        f"<title>{h('analyze.h.title')}</title><style>{CSS}</style></head><body>",
        f"<h1>{h('analyze.h.title')}</h1>",
        "<p>"
        + escape(
            t(
                "analyze.summary",
                lang,
                games=report["games"],
                players=report["players"],
                first=run.get("seeds", [0, 0])[0],
                last=run.get("seeds", [0, 0])[1],
                gambits=report["gambits"],
            )
        )
        + "</p>",
        "<p>"
        + escape(
            t("analyze.table", lang, ruleset=run.get("ruleset", "?"), deck=run.get("deck", "?"))
        )
        + " &middot; "
        + escape(", ".join(run.get("bots", [])))
        + "</p>",
        f"<p>{h('analyze.plots')}: "
        + " &middot; ".join(f'<a href="{escape(p)}">{escape(p)}</a>' for p in plots)
        + "</p>",
        f"<h2>{h('analyze.h.seats')}</h2>",
        _table(
            [
                t(k, lang)
                for k in (
                    "analyze.col.seat",
                    "analyze.col.game_win",
                    "analyze.col.ci",
                    "analyze.col.gambit_win",
                    "analyze.col.ci",
                )
            ],
            [
                [
                    str(s["seat"]),
                    _pct(s["game"]["rate"]),
                    _ci(s["game"]),
                    _pct(s["gambit"]["rate"]),
                    _ci(s["gambit"]),
                ]
                for s in report["seats"]
            ],
        ),
        '<img src="seats.png" alt="seats">' if "seats.png" in plots else "",
        f"<h2>{h('analyze.h.cards')}</h2><p>{h('analyze.lift_note')}</p>",
        '<img src="card_lift.png" alt="card lift">' if "card_lift.png" in plots else "",
        f"<h3>{h('analyze.h.top')}</h3>",
        _table(card_head, _card_rows(cards[:TOP])),
        f"<h3>{h('analyze.h.bottom')}</h3>",
        _table(card_head, _card_rows(cards[-TOP:][::-1])),
        f"<h2>{h('analyze.h.types')}</h2>",
        _table(card_head, _card_rows(report["types"])),
        f"<h2>{h('analyze.h.powers')}</h2>",
        _table(card_head, _card_rows(report["powers"])),
        f"<h2>{h('analyze.h.ante')}</h2>",
        '<img src="ante.png" alt="ante">' if "ante.png" in plots else "",
        _table(
            [
                t(k, lang)
                for k in (
                    "analyze.col.strength",
                    "analyze.col.antes",
                    "analyze.col.gambit_win",
                    "analyze.col.ci",
                )
            ],
            [
                [str(r["strength"]), str(r["n"]), _pct(r["rate"]), _ci(r)]
                for r in report["ante"]["by_strength"]
            ],
        ),
        _table(
            [
                t(k, lang)
                for k in (
                    "analyze.col.rank",
                    "analyze.col.antes",
                    "analyze.col.gambit_win",
                    "analyze.col.ci",
                )
            ],
            [
                [str(r["rank"]), str(r["n"]), _pct(r["rate"]), _ci(r)]
                for r in report["ante"]["by_rank"]
            ],
        ),
        f"<h2>{h('analyze.h.lengths')}</h2>",
        '<img src="lengths.png" alt="lengths">' if "lengths.png" in plots else "",
        _table(
            ["", t("analyze.col.mean", lang), "min", "max"],
            [
                [h(f"analyze.len.{k}"), f"{v['mean']:.2f}", str(v["min"]), str(v["max"])]
                for k, v in report["lengths"].items()
            ],
        ),
        f"<h2>{h('analyze.h.flights')}</h2>",
        '<img src="flights.png" alt="flights">' if "flights.png" in plots else "",
        _table(
            [
                "",
                t("analyze.col.count", lang),
                t("analyze.col.per_game", lang),
                t("analyze.col.gold", lang),
            ],
            [
                [
                    h(f"analyze.flight.{k}") + (f" {escape(key)}" if key else ""),
                    str(v["count"]),
                    f"{v['per_game']:.3f}",
                    f"{v['gold_per_flight']:.2f}",
                ]
                for k in ("color", "strength")
                for key, v in [("", report["flights"][k]), *report["flights"][k]["by"].items()]
            ],
        ),
        "</body></html>",
    ]
    return "\n".join(p for p in parts if p)


__all__ = ["render"]
