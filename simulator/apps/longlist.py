"""A test app (not installed by default): one page about four screens tall, for
long screenshots and scrolling in tests and benchmarks."""

from __future__ import annotations

from screenpilot.simulator.apps.base import App, Ctx, page
from screenpilot.simulator.render import Page
from screenpilot.simulator.widgets import list_item, list_view


class LongListApp(App):
    """60 two-line rows under a toolbar."""

    package = "com.example.longlist"
    activity = "com.example.longlist.Main"
    label = "Long list"
    icon = "format_list_bulleted"
    color = "#5E35B1"

    @page("main")
    def main(self, ctx: Ctx) -> Page:
        rows = [
            list_item(f"Row number {i}", f"subtitle {i * 7 % 13}", icon="star", key=f"row:{i}")
            for i in range(60)
        ]
        return Page(title="Long list", body=list_view(rows, dividers=True))
