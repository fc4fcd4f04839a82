"""The rules primer: Three-Dragon Ante explained to someone who has never played it.

The text lives in one place, the message catalogues (``primer.<section>.title``
and ``primer.<section>.text``), so every front end says the same thing in
the same words: ``dragonante rules`` prints it, the full-screen table's help
opens it, the browser fetches it (``GET /api/primer``) and ``docs/primer.md``
is generated from it (``dragonante rules --markdown > docs/primer.md``; a
test keeps the page and the catalogues equal).

Each section has a stable id (:data:`SECTIONS`): an explanation elsewhere
(a "why?" of a log line, a tutorial step) points at ``primer.trigger`` and
every front end can open that section.  A section's text is paragraphs
separated by newlines; a paragraph starting ``- `` or ``1. `` is an item of
a list (the Markdown page keeps them as lists).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dragonante.i18n import LANGS, t

#: The primer's sections in reading order; ``primer.<id>`` is a section's key.
SECTIONS: tuple[str, ...] = (
    "goal",
    "cards",
    "gambit",
    "ante",
    "rounds",
    "trigger",
    "powers",
    "flights",
    "winning",
    "buying",
    "drawing",
    "end",
    "emperors_gambit",
    "abilities",
)

#: The command that regenerates ``docs/primer.md`` (the page says it, the test checks it).
REGENERATE = "dragonante rules --markdown > docs/primer.md"

_ITEM = re.compile(r"^(- |\d+\. )")


@dataclass(frozen=True, slots=True)
class Section:
    """One section of the primer in one language."""

    id: str
    title: str
    #: The paragraphs and list items, one per line.
    lines: tuple[str, ...]

    @property
    def key(self) -> str:
        """The id other text links to (``primer.trigger``)."""
        return f"primer.{self.id}"

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "key": self.key, "title": self.title, "lines": list(self.lines)}


def section_id(name: str) -> str | None:
    """The section ``name`` names (``trigger``, ``primer.trigger``, ``emperors-gambit``).

    None when it names none."""
    bare = name.strip().lower().removeprefix("primer.").replace("-", "_")
    return bare if bare in SECTIONS else None


def section(section_key: str, lang: str) -> Section:
    """The section ``section_key`` (an id of :data:`SECTIONS`) in ``lang``."""
    return Section(
        section_key,
        t(f"primer.{section_key}.title", lang),
        tuple(t(f"primer.{section_key}.text", lang).split("\n")),
    )


def sections(lang: str) -> list[Section]:
    """Every section in reading order, in ``lang``."""
    return [section(s, lang) for s in SECTIONS]


def primer_dict(lang: str) -> dict[str, object]:
    """The whole primer as JSON-ready data (the browser's ``/api/primer``)."""
    return {
        "lang": lang,
        "title": t("primer.title", lang),
        "intro": t("primer.intro", lang),
        "sections": [s.to_dict() for s in sections(lang)],
    }


def _blocks(lines: tuple[str, ...], indent: str) -> list[str]:
    """A section's lines laid out: a blank line after each paragraph and around
    each list (items kept together, indented by ``indent``)."""
    out: list[str] = []
    previous_item = False
    for line in lines:
        item = bool(_ITEM.match(line))
        if previous_item and not item:
            out.append("")
        out.append(indent + line if item else line)
        if not item:
            out.append("")
        previous_item = item
    if out and out[-1] != "":
        out.append("")
    return out


def text_lines(lang: str, only: str | None = None) -> list[str]:
    """The primer as plain lines for a terminal: a title, then each section (or
    just ``only``) under its title."""
    chosen = [section(only, lang)] if only else sections(lang)
    out: list[str] = []
    if only is None:
        out += [t("primer.title", lang), "", t("primer.intro", lang), ""]
    for s in chosen:
        out += [s.title.upper(), "", *_blocks(s.lines, "  ")]
    while out and out[-1] == "":
        out.pop()
    return out


def markdown(langs: tuple[str, ...] = LANGS) -> str:
    """``docs/primer.md``: the primer in every language of ``langs``, generated."""
    out = [
        "<!-- Generated from the message catalogues (primer.*): do not edit by hand.",
        f"     Regenerate with: {REGENERATE} -->",
        "",
    ]
    for lang in langs:
        out += [f"# {t('primer.title', lang)}", "", t("primer.intro", lang), ""]
        for s in sections(lang):
            out += [f'<a id="{lang}-{s.id}"></a>', "", f"## {s.title}", "", *_blocks(s.lines, "")]
    return "\n".join(out).rstrip("\n") + "\n"
