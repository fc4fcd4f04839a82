"""A bounded loopback flood of the lobby and the socket endpoint (run as a process).

``python -c "from tests.web.flood import main; main()" BASE CODE N`` sends N
table creations, N seat requests and N socket openings to BASE (loopback
only) from 8 threads, and prints a JSON count of the answers by status.
"""

from __future__ import annotations

import json
import sys
import threading
from collections import Counter
from urllib.parse import urlparse

import httpx
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect


def main() -> None:
    base, code, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    assert urlparse(base).hostname == "127.0.0.1", "the flood stays on loopback"
    counts: Counter[str] = Counter()
    lock = threading.Lock()

    def note(key: str) -> None:
        with lock:
            counts[key] += 1

    def http_worker(kind: str, todo: int) -> None:
        with httpx.Client(base_url=base, timeout=10) as http:
            for i in range(todo):
                try:
                    if kind == "create":
                        r = http.post("/api/tables", json={"config": {"players": 2}})
                    else:
                        r = http.post(f"/api/tables/{code}/seats", json={"name": f"F{i}"})
                    note(f"{kind}:{r.status_code}")
                except httpx.HTTPError:
                    note(f"{kind}:error")

    def ws_worker(todo: int) -> None:
        for _ in range(todo):
            try:
                with connect(f"{base.replace('http', 'ws')}/ws/{code}", open_timeout=10) as ws:
                    ws.send(json.dumps({"type": "hello", "token": None}))
                    ws.recv(timeout=10)
                    note("socket:welcome")
            except ConnectionClosed as e:
                note(f"socket:{e.rcvd.code if e.rcvd else 'closed'}")
            except (OSError, TimeoutError, InvalidStatus):
                note("socket:error")

    threads = []
    for kind in ("create", "seat"):
        for _ in range(3):
            threads.append(threading.Thread(target=http_worker, args=(kind, n // 3)))
    for _ in range(2):
        threads.append(threading.Thread(target=ws_worker, args=(n // 2,)))
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    print(json.dumps(dict(counts)))


if __name__ == "__main__":
    main()
