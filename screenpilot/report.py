"""A self-contained HTML report of one run: every step's screen, the box acted on,
the action in words, the planner's reason, timings and the outcome.

Screenshots are embedded as JPEG data URIs (downscaled), so the file can be
mailed or attached to an issue as it is. Secret text never appears: actions are
described through ``Action.describe``, which shows a placeholder for secrets.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from screenpilot.model import Action, Box, Step, Trajectory

THUMB_WIDTH = 360
_OUTCOME_COLOURS = {"success": "#1b873f", "running": "#8a6d00"}

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px;color:#1d1d1f;
background:#fafafa}
h1{font-size:22px;margin:0 0 4px} .meta{color:#555;margin-bottom:18px}
.outcome{display:inline-block;padding:2px 10px;border-radius:12px;color:#fff;font-weight:600}
.step{display:flex;gap:18px;background:#fff;border:1px solid #ddd;border-radius:10px;
padding:14px;margin:0 0 14px} .step img{width:360px;border:1px solid #ccc;border-radius:6px}
.step h2{font-size:17px;margin:0 0 6px} .reason{color:#333;margin:6px 0}
.timing{color:#666;font-size:13px} .error{color:#b00020;font-weight:600}
.undone{opacity:.6} .undone h2::after{content:"  (undone)";color:#b00020;font-size:13px}
table{border-collapse:collapse;font-size:13px} td{padding:1px 8px 1px 0}
.summary{background:#eef6ee;border:1px solid #9c9;border-radius:10px;padding:14px;margin:0 0 18px}
.summary h2{font-size:18px;margin:0 0 8px} .summary .step{margin:0 0 10px}
"""

#: A completion summary: each step of the shortest path in words, with the run's step
#: that did it (its screenshot and box) or None.
SummaryRows = Sequence[tuple[str, Step | None]]


def _box_for(step: Step) -> Box | None:
    action = step.action
    if action.element is not None:
        try:
            return step.before.element(action.element).box
        except KeyError:
            return None
    if action.point is not None:
        x, y = action.point
        return Box(max(0, x - 24), max(0, y - 24), x + 24, y + 24)
    return None


def _thumbnail(step: Step) -> str:
    """The step's screenshot with the acted-on box drawn, as a JPEG data URI ('' if none)."""
    path = Path(step.before.image_path) if step.before.image_path else None
    if path is None or not path.is_file():
        return ""
    try:
        with Image.open(path) as src:
            image = src.convert("RGB")
    except OSError:
        return ""
    box = _box_for(step)
    if box is not None:
        draw = ImageDraw.Draw(image)
        width = max(4, image.width // 150)
        draw.rectangle(box.as_tuple(), outline=(230, 20, 60), width=width)
    scale = THUMB_WIDTH * 2 / image.width
    if scale < 1:
        image = image.resize((THUMB_WIDTH * 2, max(1, round(image.height * scale))))
    buf = io.BytesIO()
    image.save(buf, format="JPEG", quality=80)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def action_words(action: Action, step: Step) -> str:
    return action.describe(step.before)


def _step_html(step: Step) -> str:
    uri = _thumbnail(step)
    img = f'<img src="{uri}" alt="screen before step {step.index + 1}">' if uri else ""
    timings = " · ".join(f"{html.escape(k)} {v:.2f}s" for k, v in step.timings)
    parts = [
        f'<div class="step{" undone" if step.undone else ""}">',
        img,
        "<div>",
        f"<h2>{step.index + 1}. {html.escape(action_words(step.action, step))}</h2>",
    ]
    if step.reason:
        parts.append(f'<p class="reason">{html.escape(step.reason)}</p>')
    if step.error:
        parts.append(f'<p class="error">{html.escape(step.error)}</p>')
    if step.before.sensitivity.sensitive:
        sens = step.before.sensitivity
        parts.append(
            f'<p class="error">Sensitive screen: {html.escape(sens.category.value)} '
            f"({html.escape('; '.join(sens.evidence))})</p>"
        )
    if timings:
        parts.append(f'<p class="timing">{timings}</p>')
    parts.append("</div></div>")
    return "\n".join(p for p in parts if p)


def _summary_html(rows: SummaryRows) -> str:
    parts = ['<div class="summary"><h2>Summary: the shortest path</h2>']
    for i, (words, step) in enumerate(rows, 1):
        uri = _thumbnail(step) if step is not None else ""
        img = f'<img src="{uri}" alt="screen of summary step {i}">' if uri else ""
        parts.append(f'<div class="step">{img}<div><h2>{i}. {html.escape(words)}</h2></div></div>')
    parts.append("</div>")
    return "\n".join(parts)


def render_html(trajectory: Trajectory, *, summary: SummaryRows | None = None) -> str:
    """The whole report as one HTML string (with a completion summary first, if given)."""
    t = trajectory
    colour = _OUTCOME_COLOURS.get(t.outcome.value, "#b00020")
    meta = [
        ("device", t.device),
        ("app", t.app),
        ("planner", t.planner),
        ("started", t.started_at),
        ("finished", t.finished_at),
        ("steps", str(len(t.steps))),
    ]
    rows = "".join(f"<tr><td>{k}</td><td>{html.escape(v)}</td></tr>" for k, v in meta if v)
    note = f"<p>{html.escape(t.note)}</p>" if t.note else ""
    steps = "\n".join(_step_html(s) for s in t.steps) or "<p>No steps were taken.</p>"
    if summary:
        steps = _summary_html(summary) + "\n<h2>Every step</h2>\n" + steps
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>screenpilot: {html.escape(t.task)}</title><style>{_CSS}</style></head>"
        f"<body><h1>{html.escape(t.task)}</h1>"
        f'<div class="meta"><span class="outcome" style="background:{colour}">'
        f"{html.escape(t.outcome.value.replace('_', ' '))}</span>{note}"
        f"<table>{rows}</table></div>{steps}</body></html>"
    )


def write_report(trajectory: Trajectory, out: Path, *, summary: SummaryRows | None = None) -> Path:
    """Write the report to ``out`` (a .html file) and return its path."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".html.tmp")
    tmp.write_text(render_html(trajectory, summary=summary), encoding="utf-8")
    tmp.replace(out)
    return out


def save_run(trajectory: Trajectory, folder: Path, *, summary: SummaryRows | None = None) -> Path:
    """Write a run's ``trajectory.json`` (atomically) and its ``report.html`` into
    ``folder``; returns the trajectory's path. Runs and recordings are saved alike."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "trajectory.json"
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(trajectory.to_json(indent=1), encoding="utf-8")
    tmp.replace(path)
    write_report(trajectory, folder / "report.html", summary=summary)
    return path
