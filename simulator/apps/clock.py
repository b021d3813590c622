"""Clock (``com.android.deskclock``), laid out like Android 14's DeskClock.

Pages: main (the Alarm tab: one card per alarm with its switch, a "+" button),
add and edit (a time picker with Hour and Minute fields and -/+ buttons, AM/PM
buttons unless the phone uses the 24-hour format, repeat days Mon..Sun as check
boxes, a Label field, Vibrate; edit adds Delete), clock (the time and world
cities), cities (the city picker), timer (a keypad, Start/Pause/Delete) and
stopwatch (Start/Pause, Lap, Reset). A bottom tab bar switches Alarm / Clock /
Timer / Stopwatch, the active tab in the accent colour.

State: ``alarms`` (id, hour 0-23, minute, enabled, days as indices 0=Mon..6=Sun,
label, vibrate), ``next_id``, ``cities``, ``timer`` (input digits, seconds,
running), ``stopwatch`` (running, laps). ``content://com.android.deskclock/alarms``
returns DeskClock's columns (``daysofweek`` is its bit set, Monday = bit 0), and
``dumpsys alarm`` lists an ``RTC_WAKEUP`` alarm of ``com.android.deskclock`` for
every enabled alarm, timed from the phone's clock on Mon 3 June 2024.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from screenpilot.model import BlockKind
from screenpilot.simulator.apps.base import App, Ctx, Event, Rows, handler, page, provider
from screenpilot.simulator.render import Page
from screenpilot.simulator.tasks import Task
from screenpilot.simulator.widgets import (
    Button,
    CheckBox,
    Column,
    EditText,
    Fab,
    Grid,
    Icon,
    Row,
    Spacer,
    Switch,
    Tab,
    TabBar,
    Text,
    Widget,
    card,
    list_item,
    list_view,
)

if TYPE_CHECKING:
    from screenpilot.simulator.phone import VirtualPhone

PACKAGE = "com.android.deskclock"
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
#: The day the phone's clock is on (the launcher shows "Mon, Jun 3").
TODAY = dt.date(2024, 6, 3)
#: World cities and their offset from the phone's time zone (America/Los_Angeles), hours.
CITIES: list[tuple[str, int]] = [
    ("Beijing", 15),
    ("Dubai", 11),
    ("London", 8),
    ("New York", 3),
    ("Paris", 9),
    ("São Paulo", 4),
    ("Sydney", 17),
    ("Tokyo", 16),
]

ZH: dict[str, str] = {
    "Clock": "时钟",
    "Alarm": "闹钟",
    "Timer": "计时器",
    "Stopwatch": "秒表",
    "Add alarm": "添加闹钟",
    "Edit alarm": "修改闹钟",
    "Hour": "小时",
    "Minute": "分钟",
    "Repeat": "重复",
    "Label": "标签",
    "Vibrate": "振动",
    "Save": "保存",
    "Delete": "删除",
    "Start": "开始",
    "Pause": "暂停",
    "Reset": "重置",
    "Lap": "计次",
    "Resume": "继续",
    "Not scheduled": "未设置重复",
    "Every day": "每天",
    "Weekdays": "工作日",
    "Weekends": "周末",
    "Select city": "选择城市",
    "Alarm set": "已设置闹钟",
    "Alarm deleted": "已删除闹钟",
    "Enter a valid time": "请输入有效的时间",
    "Mon": "周一",
    "Tue": "周二",
    "Wed": "周三",
    "Thu": "周四",
    "Fri": "周五",
    "Sat": "周六",
    "Sun": "周日",
    "No alarms": "没有闹钟",
}


# --- time helpers -------------------------------------------------------------------------------
def alarm_time(hour: int, minute: int, *, h24: bool = False) -> str:
    """``7:05 AM`` (or ``07:05`` in the 24-hour format)."""
    if h24:
        return f"{hour:02d}:{minute:02d}"
    return f"{(hour - 1) % 12 + 1}:{minute:02d} {'AM' if hour < 12 else 'PM'}"


def days_summary(days: list[int]) -> str:
    """How DeskClock words a repeat set: "Every day", "Weekdays", "Mon, Wed"..."""
    chosen = sorted(set(days))
    if len(chosen) == 7:
        return "Every day"
    if chosen == [0, 1, 2, 3, 4]:
        return "Weekdays"
    if chosen == [5, 6]:
        return "Weekends"
    if not chosen:
        return "Not scheduled"
    return ", ".join(DAYS[d] for d in chosen)


def days_bits(days: list[int]) -> int:
    """DeskClock's ``daysofweek`` bit set (Monday = bit 0 ... Sunday = bit 6)."""
    return sum(1 << d for d in set(days))


def next_fire(alarm: dict[str, Any], now: dt.datetime) -> dt.datetime:
    """When an alarm rings next after ``now`` (its repeat days, else the next occurrence)."""
    for ahead in range(8):
        day = now.date() + dt.timedelta(days=ahead)
        when = dt.datetime.combine(day, dt.time(int(alarm["hour"]), int(alarm["minute"])))
        if when > now and (not alarm["days"] or day.weekday() in alarm["days"]):
            return when
    return now + dt.timedelta(days=7)


def find_alarm(state: dict[str, Any], hour: int, minute: int) -> dict[str, Any] | None:
    """The first alarm at ``hour``:``minute`` (24-hour), or None."""
    return next(
        (dict(a) for a in state["alarms"] if a["hour"] == hour and a["minute"] == minute), None
    )


def _now(ctx: Ctx) -> dt.datetime:
    """The phone's clock (the status bar's time) on ``TODAY``."""
    state = getattr(ctx.host, "state", None)
    text = str(state.get("clock", "12:30")) if isinstance(state, dict) else "12:30"
    hh, _, mm = text.partition(":")
    try:
        return dt.datetime.combine(TODAY, dt.time(int(hh) % 24, int(mm) % 60))
    except ValueError:
        return dt.datetime.combine(TODAY, dt.time(12, 30))


def _alarm(
    aid: int, hour: int, minute: int, enabled: bool, days: list[int], label: str = ""
) -> dict[str, Any]:
    return {
        "id": aid,
        "hour": hour,
        "minute": minute,
        "enabled": enabled,
        "days": days,
        "label": label,
        "vibrate": True,
    }


def _parse_days(text: str) -> list[int]:
    return sorted({int(d) for d in text.split(",") if d.isdigit() and int(d) < 7})


class ClockApp(App):
    """DeskClock: alarms, world clock, timer and stopwatch."""

    package = PACKAGE
    activity = "com.android.deskclock.DeskClock"
    label = "Clock"
    icon = "clock_outline"
    color = "#1A73E8"
    authority = "com.android.deskclock"
    strings: ClassVar[dict[str, dict[str, str]]] = {"zh": ZH}
    activities: ClassVar[dict[str, str]] = {
        "com.android.deskclock.timer.TimerActivity": "timer",
        "com.android.deskclock.stopwatch.StopwatchActivity": "stopwatch",
    }

    def initial_state(self) -> dict[str, Any]:
        return {
            "alarms": [
                _alarm(1, 6, 30, True, [0, 1, 2, 3, 4], "Work"),
                _alarm(2, 9, 0, False, [5, 6]),
                _alarm(3, 22, 15, True, [], "Take medicine"),
            ],
            "next_id": 4,
            "cities": ["London"],
            "timer": {"input": "", "seconds": 0, "running": False},
            "stopwatch": {"running": False, "laps": 0},
        }

    def _h24(self, ctx: Ctx) -> bool:
        return ctx.setting("system", "time_12_24", "12") == "24"

    # --- tabs -------------------------------------------------------------------------------
    def _tabs(self, ctx: Ctx, active: int) -> TabBar:
        return TabBar(
            tabs=[
                Tab(ctx.t("Alarm"), "alarm", "tab:main"),
                Tab(ctx.t("Clock"), "clock_outline", "tab:clock"),
                Tab(ctx.t("Timer"), "timer_sand", "tab:timer"),
                Tab(ctx.t("Stopwatch"), "timer_outline", "tab:stopwatch"),
            ],
            active=active,
        )

    @handler("tab")
    def tab(self, ctx: Ctx, ev: Event) -> None:
        ctx.stack[:] = ctx.stack[:1]
        if ev.arg != "main":
            ctx.open(ev.arg)

    # --- alarms -----------------------------------------------------------------------------
    def _alarm_card(self, ctx: Ctx, alarm: dict[str, Any]) -> Widget:
        h24 = self._h24(ctx)
        full = alarm_time(alarm["hour"], alarm["minute"], h24=h24)
        clock, _, ampm = full.partition(" ")
        on = bool(alarm["enabled"])
        color = "primary" if on else "secondary"
        time_row: list[Widget] = [Text(text=clock, size=48, color=color)]
        if ampm:
            time_row.append(Text(text=ampm, size=20, color=color))
        summary = ctx.t(days_summary(alarm["days"]))
        if alarm["label"]:
            summary = f"{alarm['label']} · {summary}"
        return card(
            [
                Row(
                    children=[
                        Row(children=time_row, spacing=6, align="end", weight=1),
                        Switch(checked=on, key=f"toggle_alarm:{alarm['id']}", caption=full),
                    ]
                ),
                Text(text=summary, size=14, color="secondary"),
            ],
            key=f"open_alarm:{alarm['id']}",
            padding=(20, 16, 20, 16),
            caption=full,
        )

    @page("main")
    def main(self, ctx: Ctx) -> Page:
        alarms = sorted(ctx.state["alarms"], key=lambda a: (a["hour"], a["minute"], a["id"]))
        cards: list[Widget] = [self._alarm_card(ctx, a) for a in alarms]
        if not cards:
            cards = [
                Column(
                    children=[
                        Icon(name="alarm_off", size=64, color="secondary"),
                        Text(text=ctx.t("No alarms"), size=16, color="secondary"),
                    ],
                    align="center",
                    spacing=12,
                    padding=(16, 120, 16, 16),
                )
            ]
        body = Column(
            children=[*cards, Spacer(height=88)],
            spacing=12,
            padding=(16, 8, 16, 8),
            block=BlockKind.LIST,
            caption=ctx.t("Alarm"),
        )
        return Page(
            title=ctx.t("Alarm"),
            back=False,
            body=body,
            tabs=self._tabs(ctx, 0),
            fab=Fab(icon="plus", key="open_add"),
        )

    def _find(self, ctx: Ctx, aid: Any) -> dict[str, Any] | None:
        return next((a for a in ctx.state["alarms"] if str(a["id"]) == str(aid)), None)

    @handler("toggle_alarm")
    def toggle_alarm(self, ctx: Ctx, ev: Event) -> None:
        alarm = self._find(ctx, ev.arg)
        if alarm is not None:
            alarm["enabled"] = not alarm["enabled"]

    @handler("open_add")
    def open_add(self, ctx: Ctx, ev: Event) -> None:
        ctx.open("add")
        ctx.set_field("ampm", "AM")

    @handler("open_alarm")
    def open_alarm(self, ctx: Ctx, ev: Event) -> None:
        alarm = self._find(ctx, ev.arg)
        if alarm is None:
            return
        ctx.open("edit", id=alarm["id"])
        hour = int(alarm["hour"])
        shown = hour if self._h24(ctx) else (hour - 1) % 12 + 1
        ctx.set_field("hour", str(shown))
        ctx.set_field("minute", f"{alarm['minute']:02d}")
        ctx.set_field("ampm", "AM" if hour < 12 else "PM")
        ctx.set_field("days", ",".join(str(d) for d in alarm["days"]))
        ctx.set_field("label", str(alarm["label"]))
        ctx.set_field("vibrate", "1" if alarm["vibrate"] else "0")

    # --- the alarm form ---------------------------------------------------------------------
    def _picked(self, ctx: Ctx) -> tuple[int, int] | None:
        """The form's time as (hour 0-23, minute); None while a field is empty or invalid."""
        h_text, m_text = ctx.field("hour").strip(), ctx.field("minute").strip()
        if not (h_text.isdigit() and m_text.isdigit()):
            return None
        hour, minute = int(h_text), int(m_text)
        if minute > 59:
            return None
        if self._h24(ctx):
            return (hour, minute) if hour <= 23 else None
        if not 1 <= hour <= 12:
            return None
        return (hour % 12 + (12 if ctx.field("ampm", "AM") == "PM" else 0), minute)

    def _spin_row(self, ctx: Ctx, name: str, label: str, hint: str) -> Row:
        return Row(
            children=[
                Text(text=ctx.t(label), size=16, width=88),
                Icon(name="minus", size=24, box=48, color="primary", key=f"spin:{name}:-1"),
                EditText(field=name, hint=hint, caption=label, weight=1),
                Icon(name="plus", size=24, box=48, color="primary", key=f"spin:{name}:1"),
            ],
            spacing=8,
            padding=(24, 4, 16, 4),
        )

    def _ampm(self, ctx: Ctx) -> Row:
        chosen = ctx.field("ampm", "AM")
        return Row(
            children=[
                Button(
                    text=v, style="tonal" if v == chosen else "outlined", key=f"ampm:{v}", width=96
                )
                for v in ("AM", "PM")
            ],
            spacing=12,
            justify="center",
            padding=(16, 8, 16, 8),
        )

    def _form(self, ctx: Ctx, title: str, edit: bool) -> Page:
        picked = self._picked(ctx)
        preview = alarm_time(*picked, h24=self._h24(ctx)) if picked else "--:--"
        days = _parse_days(ctx.field("days"))
        header = Row(
            children=[
                Icon(name="close", size=24, box=48, color="primary", key="back"),
                Text(text=ctx.t(title), size=22, weight=1),
                Button(text=ctx.t("Save"), key="save"),
            ],
            padding=(4, 8, 16, 8),
            spacing=8,
            block=BlockKind.TOOLBAR,
            caption=ctx.t(title),
        )
        parts: list[Widget] = [
            header,
            Text(text=preview, size=44, align="center", height=88),
            self._spin_row(ctx, "hour", "Hour", "Hour"),
            self._spin_row(ctx, "minute", "Minute", "Minute"),
        ]
        if not self._h24(ctx):
            parts.append(self._ampm(ctx))
        parts += [
            Row(
                children=[Text(text=ctx.t("Repeat"), size=14, color="accent", font_weight=500)],
                padding=(24, 12, 16, 0),
            ),
            Grid(
                children=[
                    CheckBox(checked=i in days, label=ctx.t(d), key=f"day:{i}", caption=d)
                    for i, d in enumerate(DAYS)
                ],
                columns=4,
                padding=(16, 0, 16, 0),
            ),
            Row(
                children=[
                    Icon(name="label_outline", size=24, box=40),
                    EditText(field="label", hint=ctx.t("Label"), caption="Label", weight=1),
                ],
                spacing=12,
                padding=(16, 8, 16, 8),
            ),
            list_item(
                ctx.t("Vibrate"),
                icon="vibrate",
                key="vibrate",
                trailing=Switch(checked=ctx.field("vibrate", "1") == "1", key="vibrate"),
            ),
        ]
        if edit:
            parts.append(
                Row(
                    children=[
                        Button(
                            text=ctx.t("Delete"),
                            style="outlined",
                            icon="delete_outline",
                            key="delete",
                        )
                    ],
                    padding=(24, 8, 16, 24),
                )
            )
        return Page(title="", body=Column(children=parts), toolbar=False)

    @page("add")
    def add(self, ctx: Ctx) -> Page:
        return self._form(ctx, "Add alarm", edit=False)

    @page("edit")
    def edit(self, ctx: Ctx) -> Page:
        return self._form(ctx, "Edit alarm", edit=True)

    @handler("spin")
    def spin(self, ctx: Ctx, ev: Event) -> None:
        name, _, step = ev.arg.partition(":")
        top = 60 if name == "minute" else 24 if self._h24(ctx) else 12
        text = ctx.field(name).strip()
        value = int(text) if text.isdigit() else (7 if name == "hour" else 0)
        value = (value + int(step)) % top
        if name == "hour" and not self._h24(ctx):
            value = value or 12
        ctx.set_field(name, f"{value:02d}" if name == "minute" else str(value))

    @handler("ampm")
    def ampm(self, ctx: Ctx, ev: Event) -> None:
        ctx.set_field("ampm", ev.arg)

    @handler("day")
    def day(self, ctx: Ctx, ev: Event) -> None:
        days = set(_parse_days(ctx.field("days")))
        days ^= {int(ev.arg)}
        ctx.set_field("days", ",".join(str(d) for d in sorted(days)))

    @handler("vibrate")
    def vibrate(self, ctx: Ctx, ev: Event) -> None:
        ctx.set_field("vibrate", "0" if ctx.field("vibrate", "1") == "1" else "1")

    @handler("save")
    def save(self, ctx: Ctx, ev: Event) -> None:
        picked = self._picked(ctx)
        if picked is None:
            ctx.toast(ctx.t("Enter a valid time"))
            return
        values = {
            "hour": picked[0],
            "minute": picked[1],
            "days": _parse_days(ctx.field("days")),
            "label": ctx.field("label").strip(),
            "vibrate": ctx.field("vibrate", "1") == "1",
            "enabled": True,
        }
        alarm = self._find(ctx, ctx.args.get("id")) if ctx.page == "edit" else None
        if alarm is not None:
            alarm.update(values)
        else:
            aid = int(ctx.state["next_id"])
            ctx.state["next_id"] = aid + 1
            ctx.state["alarms"].append({"id": aid, **values})
        ctx.back()
        ctx.toast(ctx.t("Alarm set"))

    @handler("delete")
    def delete(self, ctx: Ctx, ev: Event) -> None:
        aid = str(ctx.args.get("id"))
        ctx.state["alarms"] = [a for a in ctx.state["alarms"] if str(a["id"]) != aid]
        ctx.back()
        ctx.toast(ctx.t("Alarm deleted"))

    # --- world clock ---------------------------------------------------------------------------
    @page("clock")
    def clock(self, ctx: Ctx) -> Page:
        now = _now(ctx)
        h24 = self._h24(ctx)
        rows: list[Widget] = [
            Column(
                children=[
                    Text(text=alarm_time(now.hour, now.minute, h24=h24), size=64, align="center"),
                    Text(
                        text=f"{now:%a, %b} {now.day}", size=16, color="secondary", align="center"
                    ),
                ],
                padding=(16, 32, 16, 24),
                spacing=4,
            )
        ]
        offsets = dict(CITIES)
        for city in ctx.state["cities"]:
            there = now + dt.timedelta(hours=offsets.get(city, 0))
            day = "Tomorrow" if there.date() > now.date() else "Today"
            rows.append(
                card(
                    [
                        Row(
                            children=[
                                Column(
                                    children=[
                                        Text(text=city, size=18),
                                        Text(
                                            text=f"{day}, +{offsets.get(city, 0)} hr",
                                            size=14,
                                            color="secondary",
                                        ),
                                    ],
                                    weight=1,
                                    spacing=2,
                                ),
                                Text(text=alarm_time(there.hour, there.minute, h24=h24), size=32),
                            ]
                        )
                    ],
                    caption=city,
                )
            )
        body = Column(children=[*rows, Spacer(height=88)], spacing=12, padding=(16, 0, 16, 0))
        return Page(
            title=ctx.t("Clock"),
            back=False,
            body=body,
            tabs=self._tabs(ctx, 1),
            fab=Fab(icon="earth", key="open:cities"),
        )

    @page("cities")
    def cities(self, ctx: Ctx) -> Page:
        rows: list[Widget] = [
            list_item(
                city,
                f"GMT{offset - 7:+d}",
                key=f"city:{city}",
                trailing=CheckBox(checked=city in ctx.state["cities"], key=f"city:{city}"),
            )
            for city, offset in CITIES
        ]
        return Page(title=ctx.t("Select city"), body=list_view(rows, dividers=True))

    @handler("city")
    def city(self, ctx: Ctx, ev: Event) -> None:
        cities: list[str] = ctx.state["cities"]
        if ev.arg in cities:
            cities.remove(ev.arg)
        else:
            cities.append(ev.arg)

    # --- timer --------------------------------------------------------------------------------
    @page("timer")
    def timer(self, ctx: Ctx) -> Page:
        timer = ctx.state["timer"]
        if timer["running"] or timer["seconds"]:
            return self._timer_running(ctx, timer)
        digits = str(timer["input"]).rjust(6, "0")
        shown = f"{digits[:2]}h {digits[2:4]}m {digits[4:]}s"
        keys = [*"123456789", "00", "0", "del"]
        pad = Grid(
            children=[self._key(k) for k in keys],
            columns=3,
            spacing=16,
            row_spacing=12,
            padding=(40, 8, 40, 8),
        )
        parts: list[Widget] = [
            Text(
                text=shown,
                size=48,
                align="center",
                height=120,
                color="primary" if timer["input"] else "secondary",
            ),
            pad,
        ]
        if timer["input"]:
            parts.append(
                Row(
                    children=[
                        Button(text=ctx.t("Start"), icon="play", key="timer_start", width=160)
                    ],
                    justify="center",
                    padding=16,
                )
            )
        return Page(
            title=ctx.t("Timer"), back=False, body=Column(children=parts), tabs=self._tabs(ctx, 2)
        )

    def _key(self, key: str) -> Widget:
        if key == "del":
            return Column(
                children=[Icon(name="backspace_outline", size=28, box=64, color="primary")],
                key="timer_key:del",
                align="center",
            )
        return Column(
            children=[Text(text=key, size=32, align="center")],
            key=f"timer_key:{key}",
            align="center",
            padding=(0, 12, 0, 12),
            background="surface_variant",
            radius=32,
        )

    def _timer_running(self, ctx: Ctx, timer: dict[str, Any]) -> Page:
        seconds = int(timer["seconds"])
        shown = f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
        running = bool(timer["running"])
        body = Column(
            children=[
                Text(text=shown, size=56, align="center", height=200),
                Row(
                    children=[
                        Button(
                            text=ctx.t("Delete"),
                            style="outlined",
                            icon="delete_outline",
                            key="timer_delete",
                        ),
                        Button(
                            text=ctx.t("Pause" if running else "Resume"),
                            icon="pause" if running else "play",
                            key="timer_pause",
                        ),
                    ],
                    justify="center",
                    spacing=16,
                    padding=16,
                ),
            ]
        )
        return Page(title=ctx.t("Timer"), back=False, body=body, tabs=self._tabs(ctx, 2))

    @handler("timer_key")
    def timer_key(self, ctx: Ctx, ev: Event) -> None:
        timer = ctx.state["timer"]
        text = str(timer["input"])
        text = text[:-1] if ev.arg == "del" else (text + ev.arg).lstrip("0")[:6]
        timer["input"] = text

    @handler("timer_start")
    def timer_start(self, ctx: Ctx, ev: Event) -> None:
        timer = ctx.state["timer"]
        digits = str(timer["input"]).rjust(6, "0")
        seconds = int(digits[:2]) * 3600 + int(digits[2:4]) * 60 + int(digits[4:])
        if seconds:
            timer.update(seconds=seconds, running=True, input="")

    @handler("timer_pause")
    def timer_pause(self, ctx: Ctx, ev: Event) -> None:
        ctx.state["timer"]["running"] = not ctx.state["timer"]["running"]

    @handler("timer_delete")
    def timer_delete(self, ctx: Ctx, ev: Event) -> None:
        ctx.state["timer"].update(seconds=0, running=False, input="")

    # --- stopwatch ------------------------------------------------------------------------------
    @page("stopwatch")
    def stopwatch(self, ctx: Ctx) -> Page:
        sw = ctx.state["stopwatch"]
        running = bool(sw["running"])
        laps: list[Widget] = [list_item(f"# {i}", "00:00.00") for i in range(sw["laps"], 0, -1)]
        body = Column(
            children=[
                Text(text="00:00.00", size=56, align="center", height=240),
                Row(
                    children=[
                        Button(
                            text=ctx.t("Lap" if running else "Reset"),
                            style="tonal",
                            key="sw_lap" if running else "sw_reset",
                            width=120,
                        ),
                        Button(
                            text=ctx.t("Pause" if running else "Start"),
                            icon="pause" if running else "play",
                            key="sw_start",
                            width=140,
                        ),
                    ],
                    justify="center",
                    spacing=24,
                    padding=16,
                ),
                list_view(laps),
            ]
        )
        return Page(title=ctx.t("Stopwatch"), back=False, body=body, tabs=self._tabs(ctx, 3))

    @handler("sw_start")
    def sw_start(self, ctx: Ctx, ev: Event) -> None:
        ctx.state["stopwatch"]["running"] = not ctx.state["stopwatch"]["running"]

    @handler("sw_lap")
    def sw_lap(self, ctx: Ctx, ev: Event) -> None:
        ctx.state["stopwatch"]["laps"] += 1

    @handler("sw_reset")
    def sw_reset(self, ctx: Ctx, ev: Event) -> None:
        ctx.state["stopwatch"].update(running=False, laps=0)

    # --- provider and dumpsys ------------------------------------------------------------------
    @provider("alarms")
    def alarms_rows(self, state: dict[str, Any]) -> Rows:
        return [
            {
                "_id": str(a["id"]),
                "hour": str(a["hour"]),
                "minutes": str(a["minute"]),
                "daysofweek": str(days_bits(a["days"])),
                "enabled": "1" if a["enabled"] else "0",
                "vibrate": "1" if a["vibrate"] else "0",
                "label": str(a["label"]),
                "ringtone": "content://settings/system/alarm_alert",
                "delete_after_use": "0",
            }
            for a in state.get("alarms", [])
        ]

    def dump(self, service: str, state: dict[str, Any]) -> str:
        if service != "alarm":
            return ""
        now = dt.datetime.combine(TODAY, dt.time(12, 30))
        enabled = sorted(
            ((next_fire(a, now), a) for a in state.get("alarms", []) if a["enabled"]),
            key=lambda pair: (pair[0], pair[1]["id"]),
        )
        lines = [f"  Pending alarms ({PACKAGE}): {len(enabled)}"]
        for i, (when, alarm) in enumerate(enabled):
            millis = int(
                when.replace(tzinfo=dt.timezone(dt.timedelta(hours=-7))).timestamp() * 1000
            )
            token = f"{(alarm['id'] * 2654435761) % (1 << 28):07x}"
            lines += [
                f"    RTC_WAKEUP #{i}: Alarm{{{token} type 0 origWhen {millis} {PACKAGE}}}",
                f"      tag=*walarm*:{PACKAGE}.ALARM_ALERT id={alarm['id']} "
                f"label={alarm['label']!r}",
                f"      type=RTC_WAKEUP origWhen={when:%Y-%m-%d %H:%M:%S}.000 window=0 "
                "exactAllowReason=policy_permission repeatInterval=0 count=0 flags=0x3",
                f"      operation=PendingIntent{{{token[::-1]}: PendingIntentRecord{{{token} "
                f"{PACKAGE} broadcastIntent}}}}",
            ]
        if enabled:
            first = enabled[0][0]
            lines += [
                "  Next alarm clock information:",
                f"    user:0 pendingSend:false time={first:%Y-%m-%d %H:%M:%S} "
                f"showIntent={PACKAGE}/.DeskClock",
            ]
        return "\n".join(lines)


# --- the task suite ---------------------------------------------------------------------------
def _alarm_is(
    hour: int, minute: int, *, enabled: bool = True, days: tuple[int, ...] = (), label: str = ""
) -> Callable[[VirtualPhone], bool]:
    """A check that an alarm at ``hour``:``minute`` exists, on or off, with those repeat days
    (empty: any) and that label (empty: any)."""

    def check(phone: VirtualPhone) -> bool:
        alarm = find_alarm(phone.app_state(PACKAGE), hour, minute)
        return (
            alarm is not None
            and bool(alarm["enabled"]) == enabled
            and (not days or sorted(alarm["days"]) == sorted(days))
            and (not label or str(alarm["label"]).lower() == label.lower())
        )

    return check


def _no_alarm(hour: int, minute: int) -> Callable[[VirtualPhone], bool]:
    def check(phone: VirtualPhone) -> bool:
        state = phone.app_state(PACKAGE)
        return find_alarm(state, hour, minute) is None and len(state["alarms"]) == 2

    return check


def _timer_running(seconds: int) -> Callable[[VirtualPhone], bool]:
    def check(phone: VirtualPhone) -> bool:
        timer = phone.app_state(PACKAGE)["timer"]
        return bool(timer["running"]) and int(timer["seconds"]) == seconds

    return check


def _stopwatch_running(phone: VirtualPhone) -> bool:
    return bool(phone.app_state(PACKAGE)["stopwatch"]["running"])


def _has_city(city: str) -> Callable[[VirtualPhone], bool]:
    def check(phone: VirtualPhone) -> bool:
        return city in phone.app_state(PACKAGE)["cities"]

    return check


_OPEN = "tap 'Clock'"
_ADD = "tap 'add'"
_WEEKDAYS = ("tap 'Mon'", "tap 'Tue'", "tap 'Wed'", "tap 'Thu'", "tap 'Fri'")

TASKS: list[Task] = [
    Task(
        "clock_alarm_1030am",
        PACKAGE,
        "create alarm at 10:30 am",
        _alarm_is(10, 30),
        5,
        params={"time": "10:30"},
        paraphrases=(
            "Set an alarm for 10:30 AM.",
            "wake me up at 10:30 in the morning",
            "Could you add a 10:30am alarm?",
        ),
        solution=(_OPEN, _ADD, "type '10' into 'Hour'", "type '30' into 'Minute'", "tap 'Save'"),
    ),
    Task(
        "clock_alarm_645am",
        PACKAGE,
        "create alarm at 06:45 am",
        _alarm_is(6, 45),
        5,
        params={"time": "06:45"},
        paraphrases=("Set an alarm for 6:45AM", "alarm at quarter to seven in the morning"),
        solution=(_OPEN, _ADD, "type '6' into 'Hour'", "type '45' into 'Minute'", "tap 'Save'"),
    ),
    Task(
        "clock_alarm_3pm_meeting",
        PACKAGE,
        'Set an alarm for 3PM with the label "meeting" using Clock.',
        _alarm_is(15, 0, label="meeting"),
        7,
        params={"time": "15:00", "label": "meeting"},
        paraphrases=("Add a 3 PM alarm called meeting", "alarm at 15:00 labelled 'meeting'"),
        solution=(
            _OPEN,
            _ADD,
            "type '3' into 'Hour'",
            "type '00' into 'Minute'",
            "tap 'PM'",
            "type 'meeting' into 'Label'",
            "tap 'Save'",
        ),
    ),
    Task(
        "clock_alarm_weekdays_7am",
        PACKAGE,
        "Help me set an alarm every Monday to Friday, 7AM in morning",
        _alarm_is(7, 0, days=(0, 1, 2, 3, 4)),
        10,
        params={"time": "07:00", "days": "weekdays"},
        difficulty="medium",
        paraphrases=(
            "create alarm at 07:00 am on every weekday",
            "Set a weekday alarm for 7 in the morning",
        ),
        solution=(
            _OPEN,
            _ADD,
            "type '7' into 'Hour'",
            "type '00' into 'Minute'",
            *_WEEKDAYS,
            "tap 'Save'",
        ),
    ),
    Task(
        "clock_alarm_weekend_football",
        PACKAGE,
        'I need to set a 10:30PM clock every weekend, and label it as "Watch Football Games"'
        " to remind me",
        _alarm_is(22, 30, days=(5, 6), label="Watch Football Games"),
        9,
        params={"time": "22:30", "days": "weekends", "label": "Watch Football Games"},
        difficulty="hard",
        paraphrases=(
            "create alarm at 22:30 on every weekend named Watch Football Games",
            "Weekend alarm, 10:30 PM, label: Watch Football Games",
        ),
        solution=(
            _OPEN,
            _ADD,
            "type '10' into 'Hour'",
            "type '30' into 'Minute'",
            "tap 'PM'",
            "tap 'Sat'",
            "tap 'Sun'",
            "type 'Watch Football Games' into 'Label'",
            "tap 'Save'",
        ),
    ),
    Task(
        "clock_alarm_off_630",
        PACKAGE,
        "Turn off the alarm at 6:30AM",
        _alarm_is(6, 30, enabled=False),
        2,
        params={"time": "06:30"},
        paraphrases=("Close my 6:30AM alarm", "disable the 6:30 alarm"),
        solution=(_OPEN, "tap the '6:30 AM' switch"),
    ),
    Task(
        "clock_alarm_on_9am",
        PACKAGE,
        "turn on alarm at 9 am",
        _alarm_is(9, 0),
        2,
        params={"time": "09:00"},
        paraphrases=("Switch my 9:00 AM alarm on.", "Enable the alarm for 9 in the morning"),
        solution=(_OPEN, "tap the '9:00 AM' switch"),
    ),
    Task(
        "clock_alarm_delete_9am",
        PACKAGE,
        "delete alarm at 9 am",
        _no_alarm(9, 0),
        3,
        params={"time": "09:00"},
        paraphrases=("Remove the 9:00 AM alarm.", "get rid of my 9am alarm"),
        solution=(_OPEN, "tap '9:00'", "tap 'Delete'"),
    ),
    Task(
        "clock_timer_5min",
        PACKAGE,
        "Start a 5 minute timer.",
        _timer_running(300),
        6,
        params={"minutes": 5},
        paraphrases=("Set a timer for 5 minutes and start it", "count down five minutes"),
        solution=(_OPEN, "tap 'Timer'", "tap '5'", "tap '0'", "tap '0'", "tap 'Start'"),
    ),
    Task(
        "clock_stopwatch_start",
        PACKAGE,
        "start the stopwatch in clock",
        _stopwatch_running,
        3,
        paraphrases=("Run the stopwatch.", "Start timing with the stopwatch"),
        solution=(_OPEN, "tap 'Stopwatch'", "tap 'Start'"),
    ),
    Task(
        "clock_world_tokyo",
        PACKAGE,
        "Add Tokyo time in clock",
        _has_city("Tokyo"),
        4,
        params={"city": "Tokyo"},
        paraphrases=("Show Tokyo in the world clock", "add the city Tokyo to my clocks"),
        solution=(_OPEN, "tap 'Clock'", "tap 'earth'", "tap 'Tokyo'"),
    ),
]
