"""The console's HTTP side: the page, its static files, the event stream and the API.

Every route sits behind ``auth.TokenGate``. Requests that change something take a
JSON body (a cross-site form cannot send one without the browser asking first) and
answer JSON: ``{"status": ...}``, or ``{"error": ..., "hint": ...}`` with 409 when
the phone is busy and 400 for any other refusal. Work that blocks (a capture, a
description, a tap, the store) runs in the server's thread pool.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from screenpilot.console.activity import Busy
from screenpilot.console.library import past_runs, report_file
from screenpilot.errors import ScreenpilotError

if TYPE_CHECKING:
    from screenpilot.console.app import Console

STATIC = {"console.js": "text/javascript", "console.css": "text/css"}
NO_STORE = {"Cache-Control": "no-store"}


def static_text(name: str) -> str:
    return resources.files("screenpilot.console").joinpath("static", name).read_text("utf-8")


def _refusal(exc: ScreenpilotError) -> JSONResponse:
    return JSONResponse(
        {"error": exc.message, "hint": exc.hint}, status_code=409 if isinstance(exc, Busy) else 400
    )


async def _call(fn: Callable[..., Any], *args: Any) -> Response:
    """Run ``fn`` in the thread pool; its dict as JSON, or a refusal."""
    try:
        return JSONResponse(await run_in_threadpool(fn, *args), headers=NO_STORE)
    except ScreenpilotError as exc:
        return _refusal(exc)
    except (TypeError, ValueError) as exc:  # a field of the wrong type
        return _refusal(ScreenpilotError(f"bad request: {exc}"))


async def _body(request: Request) -> dict[str, Any]:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise ScreenpilotError("send JSON", hint="Content-Type: application/json")
    try:
        data = await request.json()
    except ValueError as exc:
        raise ScreenpilotError("the body is not JSON") from exc
    if not isinstance(data, dict):
        raise ScreenpilotError("the body must be a JSON object")
    return data


def routes(console: Console) -> list[Route]:
    """Every route of ``console``'s page."""

    async def page(request: Request) -> Response:
        return HTMLResponse(static_text("index.html"), headers=NO_STORE)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not found\n", status_code=404, media_type="text/plain")
        return Response(static_text(name), media_type=STATIC[name], headers=NO_STORE)

    async def state(request: Request) -> Response:
        return JSONResponse(console.state(), headers=NO_STORE)

    async def events(request: Request) -> Response:
        sub = console.hub.subscribe(first={"type": "state", **console.state()})
        return StreamingResponse(
            sub.lines(),
            media_type="text/event-stream",
            headers={**NO_STORE, "X-Accel-Buffering": "no"},
        )

    async def frame(request: Request) -> Response:
        latest = console.live.latest()
        if latest is None or not console.live.running:  # nobody watches: capture now
            try:
                latest = await run_in_threadpool(console.live.capture_now)
            except ScreenpilotError as exc:
                return Response(
                    f"no frame: {exc.message}\n", status_code=503, media_type="text/plain"
                )
        return Response(
            latest.jpeg,
            media_type="image/jpeg",
            headers={**NO_STORE, "X-Frame-Seq": str(latest.seq)},
        )

    async def reading_image(request: Request) -> Response:
        read = console.reading.latest()
        if read is None:
            return Response("nothing read yet\n", status_code=404, media_type="text/plain")
        return Response(read.jpeg, media_type="image/jpeg", headers=NO_STORE)

    async def with_body(request: Request, act: Callable[[dict[str, Any]], Any]) -> Response:
        try:
            data = await _body(request)
        except ScreenpilotError as exc:
            return _refusal(exc)
        return await _call(act, data)

    async def reading(request: Request) -> Response:
        return await with_body(request, lambda d: console.turn_reading(bool(d.get("on"))))

    async def tap(request: Request) -> Response:
        return await with_body(
            request, lambda d: console.tap(int(d.get("x", -1)), int(d.get("y", -1)))
        )

    async def tap_answer(request: Request) -> Response:
        return await with_body(
            request, lambda d: console.control.answer(str(d.get("id", "")), bool(d.get("go")))
        )

    async def key(request: Request) -> Response:
        return await with_body(request, lambda d: console.key(str(d.get("name", ""))))

    async def run(request: Request) -> Response:
        return await with_body(request, lambda d: console.runs.start(str(d.get("task", ""))))

    async def run_stop(request: Request) -> Response:
        return await with_body(request, lambda d: console.runs.stop())

    async def handover(request: Request) -> Response:
        return await with_body(request, lambda d: console.runs.answer(bool(d.get("go_on"))))

    async def record(request: Request) -> Response:
        return await with_body(
            request,
            lambda d: console.recording.start(
                str(d.get("task", "")), store=bool(d.get("store", True))
            ),
        )

    async def record_stop(request: Request) -> Response:
        return await with_body(request, lambda d: console.recording.stop())

    async def runs_list(request: Request) -> Response:
        return await _call(lambda: {"runs": past_runs(console.parts.runs)})

    async def report(request: Request) -> Response:
        path = report_file(console.parts.runs, request.path_params["name"])
        if path is None:
            return Response("no such report\n", status_code=404, media_type="text/plain")
        return HTMLResponse(path.read_text(encoding="utf-8"), headers=NO_STORE)

    async def demos(request: Request) -> Response:
        return await _call(console.demos.list)

    async def demo(request: Request) -> Response:
        demo_id = request.path_params["demo_id"]
        if request.method == "DELETE":
            return await _call(console.demos.delete, demo_id)
        return await _call(console.demos.show, demo_id)

    async def export(request: Request) -> Response:
        try:
            text = await run_in_threadpool(console.demos.export)
        except ScreenpilotError as exc:
            return _refusal(exc)
        return Response(
            text,
            media_type="application/x-ndjson",
            headers={
                **NO_STORE,
                "Content-Disposition": 'attachment; filename="demonstrations.jsonl"',
            },
        )

    return [
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/state", state),
        Route("/api/events", events),
        Route("/api/frame.jpg", frame),
        Route("/api/reading.jpg", reading_image),
        Route("/api/reading", reading, methods=["POST"]),
        Route("/api/tap", tap, methods=["POST"]),
        Route("/api/tap/answer", tap_answer, methods=["POST"]),
        Route("/api/key", key, methods=["POST"]),
        Route("/api/run", run, methods=["POST"]),
        Route("/api/run/stop", run_stop, methods=["POST"]),
        Route("/api/run/handover", handover, methods=["POST"]),
        Route("/api/record", record, methods=["POST"]),
        Route("/api/record/stop", record_stop, methods=["POST"]),
        Route("/api/runs", runs_list),
        Route("/runs/{name}/report.html", report),
        Route("/api/demos", demos),
        Route("/api/demos.jsonl", export),
        Route("/api/demos/{demo_id}", demo, methods=["GET", "DELETE"]),
    ]
