"""The personal link as a QR code, drawn on the server as SVG (segno, pure Python).

A phone's camera opens the same identity without typing a 43-character key.
Made on the server so the page needs no script of its own for it and nothing
is fetched from elsewhere at run time; the SVG is sent with ``no-store`` (it
carries the key) and only to the key's own holder.
"""

from __future__ import annotations

import io


def link_svg(link: str) -> str:
    """``link`` as a QR code (error correction M, 4 px modules, a quiet zone)."""
    import segno

    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=4, xmldecl=False, svgns=True)
    return out.getvalue().decode()
