"""Regenerate ``src/dragonante/cards/cards.json`` from the reference card list.

Run ``python tools/gen_cards.py PATH/TO/reference/cards.json``.  The package
keeps its own copy of the card table (the engine may not read files outside
the package at run time); ``tests/cards/test_reference.py`` checks that copy
against the reference so the two can never drift apart silently.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src" / "dragonante" / "cards" / "cards.json"

#: Power family ids for card types whose power is not simply named after the key.
POWER_OVERRIDES = {
    "L-leg-tiamat": "",  # dragon god ability only, no power
    "EG-wyrmpriest": "eg_wyrmpriest",  # differs from the Legendary Wyrmpriest (rules-notes §2)
}


def power_id(key: str) -> str:
    if key in POWER_OVERRIDES:
        return POWER_OVERRIDES[key]
    stem = key.split("-", 2)[-1] if key.startswith("L-") else key.split("-", 1)[1]
    return stem.replace("-", "_")


def main(src: str) -> None:
    ref = json.loads(Path(src).read_text(encoding="utf-8"))
    rows = []
    for c in ref["cards"]:
        rows.append(
            {
                "key": c["id"],
                "set": c["set"],
                "kind": c["kind"],
                "alignment": c["alignment"],
                "colors": c["colors"],
                "strengths": c["strengths"],
                "legendary_banner": c["legendary_banner"],
                "power": power_id(c["id"]),
                "name": {"en": c["name_en"], "it": c["name_it"]},
                "type_line": {"en": c["type_line_en"], "it": c["type_line_it"]},
                "text": {"en": c["power_en"], "it": c["power_it"]},
                "dragon_god": {"en": c["dragon_god_en"], "it": c["dragon_god_it"]},
                "ante_effect": {"en": c["ante_effect_en"], "it": c.get("ante_effect_it")},
                "explanation": {
                    "en": c["explanation_en"] or [],
                    "it": c["explanation_it"] or [],
                },
            }
        )
    OUT.write_text(
        json.dumps({"cards": rows}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    print(f"wrote {len(rows)} card types to {OUT}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared/reference/cards.json")
