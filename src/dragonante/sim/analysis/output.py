"""Writing an analysis to a directory: report.json, the PNG plots, report.html.

Kept apart from the numbers so that a caller who wants only the report dict
(tests, notebooks, a cluster driver) never imports matplotlib.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dragonante.sim.analysis.report import build_report
from dragonante.sim.analysis.summary import Summary


def write_report(
    summary: Summary, run: dict[str, Any], out: Path, lang: str = "en"
) -> tuple[dict[str, Any], list[str]]:
    """Write the three kinds of file into ``out``; returns the report and the plot names."""
    from dragonante.sim.analysis import html, plots

    report = build_report(summary, run, lang)
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(
        json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    names = plots.write_plots(report, out, lang)
    (out / "report.html").write_text(html.render(report, names, lang), encoding="utf-8")
    return report, names


__all__ = ["write_report"]
