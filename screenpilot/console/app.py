"""The console itself: its parts wired together, and the web server that shows it.

::

    console = Console(parts)
    serve(console, port=0, ready=print)        # blocks; Ctrl-C stops it
    with served(console) as url: ...           # in a thread (tests, the benchmark)

The server is uvicorn on 127.0.0.1 only (never another address), on a socket bound
before it starts so that port 0 picks a free port and the URL is known at once.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from PIL import Image

from screenpilot.console.activity import Activity
from screenpilot.console.auth import TokenGate, new_token
from screenpilot.console.control import Control
from screenpilot.console.hub import Event, Hub
from screenpilot.console.library import Demos
from screenpilot.console.live import LiveView
from screenpilot.console.parts import Parts
from screenpilot.console.reading import Reading
from screenpilot.console.recording import RecordSession
from screenpilot.console.routes import routes
from screenpilot.console.runs import RunSession
from screenpilot.errors import ScreenpilotError
from screenpilot.model import Screen, Step

log = logging.getLogger(__name__)

HOST = "127.0.0.1"


class Console:
    """The live view, the reading, taps, runs, recordings and the store, for one phone."""

    def __init__(
        self, parts: Parts, *, token: str = "", fps: float = 4.0, width: int = 540
    ) -> None:
        self.parts = parts
        self.token = token or new_token()
        self.hub = Hub()
        self.activity = Activity()
        self.live = LiveView(parts.device, self.hub, fps=fps, width=width)
        self.reading = Reading(parts.describer, self.live, self.hub, busy=self._run_describes)
        self.control = Control(
            parts.device,
            parts.describer,
            parts.safety,
            capture=lambda: self.live.capture_now().image,
            on_screen=self._offer_tap,
        )
        self.demos = Demos(parts.store)
        self.runs = RunSession(parts, self.hub, self.activity, on_step=self._offer_step)
        self.recording = RecordSession(
            parts, self.hub, self.activity, store=self.demos.store if parts.store else None
        )
        self._started = False

    # --- life -----------------------------------------------------------------------------
    def start(self) -> Console:
        if not self._started:
            self.live.start()
            self.reading.start()
            self._started = True
        return self

    def close(self) -> None:
        """Stop a run or a recording in progress, end every page's stream, stop the threads."""
        self.runs.stop()
        self.recording.stop()
        self.runs.join(30)
        self.recording.join(30)
        self.hub.close()
        self.reading.close()
        self.live.close()
        self.demos.close()

    # --- what the page asks ------------------------------------------------------------------
    def state(self) -> Event:
        frame = self.live.latest()
        return {
            "device": self.parts.device.serial,
            "planner": self.parts.planner_name,
            "run": self.runs.snapshot(),
            "record": self.recording.snapshot(),
            "reading": self.reading.on,
            "read": self.reading.event,
            "store": self.parts.store is not None,
            "frame": {"seq": frame.seq, "width": frame.size[0], "height": frame.size[1]}
            if frame is not None
            else None,
        }

    def turn_reading(self, on: bool) -> Event:
        self.reading.turn(on)
        return {"status": "on" if on else "off"}

    def tap(self, x: int, y: int) -> Event:
        self.activity.check_taps()
        answer = self.control.tap(x, y)
        self._tell(answer)
        return answer

    def key(self, name: str) -> Event:
        self.activity.check_taps()
        answer = self.control.key(name)
        self._tell(answer)
        return answer

    def _tell(self, answer: Event) -> None:
        if answer.get("status") == "done":
            self.hub.publish({"type": "manual", "what": answer["what"]})

    # --- the reading takes screens described elsewhere ----------------------------------------
    def _run_describes(self) -> bool:
        return self.activity.current == "run" and not self.activity.waiting

    def _offer_tap(self, image: Image.Image, screen: Screen) -> None:
        self.reading.offer(image, screen, "tap")

    def _offer_step(self, step: Step) -> None:
        path = step.before.image_path
        if not self.reading.on or not path or not Path(path).is_file():
            return
        try:
            with Image.open(path) as src:
                image = src.convert("RGB")
        except OSError:
            return
        self.reading.offer(image, step.before, "run")

    def asgi(self) -> Any:
        """The web application, behind the token gate."""
        from starlette.applications import Starlette

        return TokenGate(Starlette(routes=routes(self)), self.token)


def bind(port: int = 0) -> socket.socket:
    """A socket on 127.0.0.1:``port`` (0: a free port), bound before the server starts."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((HOST, port))
    except OSError as exc:
        sock.close()
        raise ScreenpilotError(
            f"cannot listen on {HOST}:{port}: {exc.strerror}",
            hint="give another --port, or 0 for a free one",
        ) from exc
    return sock


def url_of(console: Console, sock: socket.socket) -> str:
    return f"http://{HOST}:{sock.getsockname()[1]}/?token={console.token}"


def _server(console: Console) -> Any:
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            console.hub.close()  # end the pages' event streams: nothing to wait for
            await super().shutdown(sockets)

    config = uvicorn.Config(
        console.asgi(),
        log_level="warning",
        access_log=False,
        lifespan="off",
        timeout_graceful_shutdown=5,
    )
    return Server(config)


def serve(console: Console, *, port: int = 0, ready: Callable[[str], None] | None = None) -> None:
    """Serve ``console`` until Ctrl-C (or SIGTERM); ``ready(url)`` once it listens."""
    sock = bind(port)
    server = _server(console)
    console.start()
    try:
        if ready is not None:
            ready(url_of(console, sock))
        server.run(sockets=[sock])
    finally:
        console.close()
        sock.close()


@contextlib.contextmanager
def served(console: Console, *, port: int = 0) -> Iterator[str]:
    """Serve ``console`` in a thread; yields its URL (with the token); stops after."""
    sock = bind(port)
    server = _server(console)
    console.start()
    thread = threading.Thread(
        target=server.run, kwargs={"sockets": [sock]}, daemon=True, name="console-server"
    )
    thread.start()
    try:
        while not server.started and thread.is_alive():
            threading.Event().wait(0.05)
        yield url_of(console, sock)
    finally:
        console.hub.close()
        server.should_exit = True
        thread.join(10)
        console.close()
        sock.close()
