"""Live events to every open page: threads publish, server-sent event streams read.

A run, a recording or the live view publishes from its own thread
(``Hub.publish``); each page holds one ``Subscription`` read by its event stream
on the server's event loop. A page that falls far behind loses the oldest frames,
never a step: frame events are dropped first.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from typing import Any

Event = dict[str, Any]

#: Events a subscription holds before it starts dropping frames.
QUEUE_LIMIT = 512
#: Seconds between keep-alive comments on an idle stream.
KEEPALIVE_S = 15.0
#: Event types a slow page may lose (a newer one replaces them).
DROPPABLE = frozenset({"frame", "reading"})


class Subscription:
    """One page's stream of events (JSON text), read on the event loop."""

    def __init__(self, hub: Hub, loop: asyncio.AbstractEventLoop) -> None:
        self.hub = hub
        self.loop = loop
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()

    def put(self, kind: str, data: str | None) -> None:
        """Called on the loop: queue ``data`` (None ends the stream)."""
        if data is not None and kind in DROPPABLE and self.queue.qsize() >= QUEUE_LIMIT:
            return
        self.queue.put_nowait(data)

    async def lines(self) -> AsyncIterator[str]:
        """Server-sent event lines until the hub closes; keep-alives while idle."""
        try:
            while True:
                try:
                    data = await asyncio.wait_for(self.queue.get(), KEEPALIVE_S)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                if data is None:
                    return
                yield f"data: {data}\n\n"
        finally:
            self.hub.unsubscribe(self)


class Hub:
    """Fans events out to every subscribed page."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subs: set[Subscription] = set()
        self.closed = False

    @property
    def watchers(self) -> int:
        """How many pages are subscribed now."""
        with self._lock:
            return len(self._subs)

    def subscribe(self, first: Event | None = None) -> Subscription:
        """A subscription for the calling event loop, starting with ``first``."""
        sub = Subscription(self, asyncio.get_running_loop())
        if first is not None:
            sub.put(str(first.get("type", "")), json.dumps(first, ensure_ascii=False))
        with self._lock:
            if self.closed:
                sub.put("", None)
            else:
                self._subs.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            self._subs.discard(sub)

    def publish(self, event: Event) -> None:
        """Send ``event`` to every page (from any thread)."""
        data = json.dumps(event, ensure_ascii=False)
        self._send(str(event.get("type", "")), data)

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        self._send("", None)
        with self._lock:
            self.closed = True
            self._subs.clear()

    def _send(self, kind: str, data: str | None) -> None:
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            try:
                sub.loop.call_soon_threadsafe(sub.put, kind, data)
            except RuntimeError:  # its loop is closed: the page is gone
                self.unsubscribe(sub)
