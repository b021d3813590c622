"""The home screen: wallpaper, an "At a glance" date, a grid of every installed
app, a dock and a search bar that filters apps by name.

HOME brings this app to the front with its root page. Tapping an icon sends
``launch:PACKAGE``; the search page lists matching apps as the user types.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from screenpilot.model import BlockKind
from screenpilot.simulator.apps.base import App, Ctx, Event, handler, page
from screenpilot.simulator.render import Page
from screenpilot.simulator.widgets import (
    Column,
    EditText,
    Grid,
    Icon,
    Row,
    Spacer,
    Text,
    Widget,
    list_item,
    list_view,
)


def app_cell(app: App, label: str, *, show_label: bool = True, color: str = "white") -> Column:
    """A launcher icon: a round badge with the app's glyph, and its name below."""
    parts: list[Widget] = [
        Icon(name=app.icon, size=30, box=56, color="white", background=app.color)
    ]
    if show_label:
        parts.append(Text(text=label, size=12, color=color, align="center"))
    return Column(
        children=parts, key=f"launch:{app.package}", align="center", spacing=6, padding=(0, 8, 0, 8)
    )


class LauncherApp(App):
    """The home screen (``com.android.launcher3``)."""

    package = "com.android.launcher3"
    activity = "com.android.launcher3.uioverrides.QuickstepLauncher"
    label = "Home"
    icon = "home"
    launcher_visible = False
    strings: ClassVar[dict[str, dict[str, str]]] = {
        "zh": {
            "Search": "搜索",
            "Search apps": "搜索应用",
            "No apps found": "未找到应用",
            "Mon, Jun 3": "6月3日 周一",
        }
    }

    def _visible(self, ctx: Ctx) -> Sequence[App]:
        return [a for a in ctx.apps() if a.launcher_visible]

    def _label(self, ctx: Ctx, app: App) -> str:
        return app.strings.get(ctx.locale, {}).get(app.label, app.label)

    @page("main")
    def home(self, ctx: Ctx) -> Page:
        apps = self._visible(ctx)
        dock = [a for a in apps if a.dock][:4] or list(apps[:1])
        columns = 6 if ctx.host.getprop("ro.build.characteristics") == "tablet" else 4
        body = Column(
            children=[
                Column(
                    children=[
                        Text(text=ctx.t("Mon, Jun 3"), size=22, color="white"),
                        Row(
                            children=[
                                Icon(name="weather_partly_cloudy", size=20, color="white"),
                                Text(text="22°C", size=16, color="white"),
                            ],
                            spacing=6,
                        ),
                    ],
                    padding=(24, 24, 24, 16),
                    spacing=4,
                ),
                Grid(
                    children=[app_cell(a, self._label(ctx, a)) for a in apps],
                    columns=columns,
                    padding=(8, 8, 8, 8),
                    row_spacing=8,
                    block=BlockKind.GRID,
                ),
                Spacer(weight=1),
                Row(
                    children=[app_cell(a, self._label(ctx, a), show_label=False) for a in dock],
                    justify="center",
                    spacing=28,
                    padding=(16, 8, 16, 8),
                ),
                Row(
                    children=[
                        EditText(
                            field="search",
                            hint=ctx.t("Search"),
                            icon="google",
                            style="search",
                            weight=1,
                            key="open:search",
                        )
                    ],
                    padding=(20, 8, 20, 20),
                ),
            ]
        )
        return Page(body=body, toolbar=False, back=False, wallpaper=True)

    @page("search")
    def search(self, ctx: Ctx) -> Page:
        query = ctx.field("query").strip().lower()
        matches = [
            a
            for a in self._visible(ctx)
            if query in self._label(ctx, a).lower() or query in a.package
        ]
        rows: list[Widget] = [
            list_item(
                self._label(ctx, a),
                leading=Icon(name=a.icon, size=22, box=40, color="white", background=a.color),
                key=f"launch:{a.package}",
            )
            for a in matches
        ]
        if not rows:
            rows = [Text(text=ctx.t("No apps found"), color="secondary", size=16, height=56)]
        body = Column(
            children=[
                EditText(
                    field="query",
                    hint=ctx.t("Search apps"),
                    icon="magnify",
                    style="search",
                    submit="launch_first",
                ),
                list_view(rows),
            ],
            padding=(16, 8, 16, 8),
            spacing=8,
        )
        return Page(body=body, toolbar=False)

    @handler("open")
    def open_search(self, ctx: Ctx, ev: Event) -> None:
        if ev.arg == "search":
            ctx.open("search")
            ctx.focus("query")

    @handler("launch_first")
    def launch_first(self, ctx: Ctx, ev: Event) -> None:
        query = ctx.field("query").strip().lower()
        for a in self._visible(ctx):
            if query and query in self._label(ctx, a).lower():
                ctx.launch(a.package)
                return
