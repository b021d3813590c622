"""``render_page``: one frame composed the way Android's window manager and System UI do.

Layers in order: the page body in the viewport (scrolled and clipped), the app bar,
tab bar and FAB, the on-screen keyboard, the status and navigation bars, the
overflow menu, a toast, and a dialog over a dim scrim; elements mostly hidden
under an opaque overlay are dropped from the truth.
"""

from __future__ import annotations

from PIL import Image

from screenpilot.model import BlockKind, Box, ElementKind
from screenpilot.simulator import draw
from screenpilot.simulator.draw import Painter
from screenpilot.simulator.render.page import Frame, KeyboardMode, Page, RenderEnv, UiState
from screenpilot.simulator.render.spec import keyboard_height, nav_bar_height, status_bar_height
from screenpilot.simulator.theme import RGB, Theme
from screenpilot.simulator.widgets import Dialog, Fab, RenderCtx, TruthBlock, TruthElement


def _wallpaper_colors(theme: Theme) -> tuple[RGB, RGB]:
    if theme.dark:
        return ((0x1B, 0x26, 0x4A), (0x4A, 0x2B, 0x55))
    return ((0x6E, 0x9B, 0xE6), (0xE9, 0xA8, 0xC4))


class _Composer:
    """Draws the layers of one frame in order."""

    def __init__(
        self, page: Page, env: RenderEnv, ui: UiState, app: str, has_dialog: bool = False
    ) -> None:
        self.page, self.env, self.ui, self.app = page, env, ui, app
        self.has_dialog = has_dialog
        spec = env.spec
        self.W, self.H = spec.width, spec.height
        if page.wallpaper:
            top, bottom = _wallpaper_colors(env.theme)
            image = draw.gradient(self.W, self.H, top, bottom).copy()
        else:
            image = Image.new("RGB", (self.W, self.H), env.theme.color(page.background))
        self.rc = RenderCtx(
            Painter(image),
            env.theme,
            spec.scale,
            fields=ui.fields,
            focus=ui.focus,
            font_scale=env.font_scale,
        )
        self.status_h = status_bar_height(spec)
        self.nav_h = nav_bar_height(spec, env.nav_mode)
        self.toolbar_h = round(64 * spec.scale) if page.toolbar else 0
        self.kb_h = keyboard_height(spec) if ui.keyboard else 0
        self.tabs_h = round(80 * spec.scale) if page.tabs is not None and not ui.keyboard else 0
        self.top = self.status_h + self.toolbar_h
        self.bottom = self.H - self.nav_h - self.kb_h - self.tabs_h
        self.occluders: list[tuple[Box, int]] = []

    def dp(self, v: float) -> float:
        return v * self.env.spec.scale

    def compose(self) -> Frame:
        scroll, max_scroll = self.body()
        if self.page.toolbar:
            self.toolbar(scroll > 0)
        if self.page.tabs is not None and not self.ui.keyboard:
            self.page.tabs.render(self.rc, 0, self.bottom, self.W, self.tabs_h)
        if self.page.fab is not None and not self.ui.keyboard:
            self.fab(self.page.fab)
        kb_box = self.keyboard() if self.ui.keyboard and not self.has_dialog else None
        self.status_bar()
        self.nav_bar()
        menu_box = self.menu() if self.ui.menu_open and self.page.menu else None
        if self.ui.toast:
            self.toast(self.ui.toast)
        return self.finish(scroll, max_scroll, menu_box, kb_box)

    def finish(
        self,
        scroll: int,
        max_scroll: int,
        menu_box: Box | None,
        kb_box: Box | None,
        dialog_box: Box | None = None,
    ) -> Frame:
        elements, blocks = _occlude(self.rc.elements, self.rc.blocks, self.occluders)
        return Frame(
            image=self.rc.painter.image,
            elements=elements,
            blocks=blocks,
            targets=tuple(self.rc.targets),
            viewport=Box.of(0, self.top, self.W, max(self.top + 1, self.bottom)),
            scroll=scroll,
            max_scroll=max_scroll,
            secure=self.page.secure,
            app=self.app,
            dialog_box=dialog_box,
            menu_box=menu_box,
            keyboard_box=kb_box,
        )

    # --- body -------------------------------------------------------------------------
    def body(self) -> tuple[int, int]:
        rc = self.rc
        content_h = rc.measure(self.page.body, self.W)[1]
        view_h = max(1, self.bottom - self.top)
        max_scroll = max(0, round(content_h - view_h))
        scroll = min(max(0, self.ui.scroll), max_scroll)
        rc.clip = (float(self.top), float(self.bottom))
        rc.scrollable = max_scroll > 0
        self.page.body.render(rc, 0, self.top - scroll, self.W, max(content_h, view_h))
        rc.clip = (0.0, float(self.H))
        rc.scrollable = False
        return scroll, max_scroll

    # --- app bar ------------------------------------------------------------------------
    def toolbar(self, scrolled: bool) -> None:
        rc, p = self.rc, self.rc.painter
        y1, y2 = self.status_h, self.status_h + self.toolbar_h
        bg = rc.color("surface_variant" if scrolled else self.page.background)
        p.rect((0, y1, self.W, y2), bg)
        cy = (y1 + y2) / 2
        with rc.block(BlockKind.TOOLBAR, (0, y1, self.W, y2), self.page.title):
            x = self.dp(16)
            if self.page.back:
                self._icon_button("arrow_left", self.dp(28), cy, "sys:up", "primary")
                x = self.dp(72)
            right = self.W - self.dp(4)
            icons = [(a.icon, a.key) for a in self.page.actions]
            if self.page.menu:
                icons.append(("dots_vertical", "sys:menu"))
            for icon, key in reversed(icons):
                self._icon_button(icon, right - self.dp(24), cy, key, "primary")
                right -= self.dp(48)
            if self.page.title:
                size = rc.sp(22)
                title = draw.ellipsize(self.page.title, size, 400, right - x - self.dp(8))
                ink = p.text(x, cy - draw.line_height(size) / 2, title, size, rc.color("primary"))
                rc.add(ElementKind.TEXT, ink, text=title)

    def _icon_button(self, icon: str, cx: float, cy: float, key: str, color: str) -> None:
        half = self.dp(24)
        self.rc.target((cx - half, cy - half, cx + half, cy + half), key)
        box = self.rc.painter.icon(icon, cx, cy, round(self.dp(24)), self.rc.color(color))
        self.rc.add(ElementKind.ICON, box, icon=icon, clickable=True)

    def fab(self, fab: Fab) -> None:
        w, h = self.rc.measure(fab, self.W)
        x = self.W - self.dp(16) - w
        y = self.bottom - self.dp(16) - h
        fab.render(self.rc, x, y, w, h)

    # --- system UI ----------------------------------------------------------------------
    def _system_color(self) -> RGB:
        return (255, 255, 255) if self.page.wallpaper else self.rc.color("status_text")

    def status_bar(self) -> None:
        rc, p, st = self.rc, self.rc.painter, self.env.status
        h = self.status_h
        if not self.page.wallpaper:
            p.rect((0, 0, self.W, h), rc.color(self.page.background))
        fg = self._system_color()
        cy = h / 2
        with rc.block(BlockKind.STATUS_BAR, (0, 0, self.W, h)):
            rc.add(ElementKind.STATUS_BAR, (0, 0, self.W, h))
            size = rc.sp(14)
            ink = p.text(self.dp(20), cy - draw.line_height(size) / 2, st.time, size, fg, 500)
            rc.add(ElementKind.TEXT, ink, text=st.time)
            x = self.W - self.dp(18)
            if st.show_percent:
                label = f"{st.battery}%"
                tw = draw.text_width(label, size, 500)
                ink = p.text(x - tw, cy - draw.line_height(size) / 2, label, size, fg, 500)
                rc.add(ElementKind.TEXT, ink, text=label)
                x -= tw + self.dp(2)
            icons = [_battery_icon(st.battery)]
            icons.append("airplane" if st.airplane else "signal_cellular_3")
            if st.wifi:
                icons.append("wifi_strength_4")
            if st.bluetooth:
                icons.append("bluetooth")
            if st.dnd:
                icons.append("minus_circle")
            for icon in icons:
                s = round(self.dp(18))
                box = p.icon(icon, x - s / 2, cy, s, fg)
                rc.add(ElementKind.ICON, box, icon=icon)
                x -= s + self.dp(4)

    def nav_bar(self) -> None:
        rc, p = self.rc, self.rc.painter
        y1 = self.H - self.nav_h
        if not self.page.wallpaper:
            color = rc.color("keyboard" if self.ui.keyboard else "nav_bar")
            p.rect((0, y1, self.W, self.H), color)
        fg = (255, 255, 255) if self.page.wallpaper else rc.color("nav_icon")
        cy = y1 + self.nav_h / 2
        with rc.block(BlockKind.NAVIGATION_BAR, (0, y1, self.W, self.H)):
            rc.add(ElementKind.NAVIGATION_BAR, (0, y1, self.W, self.H))
            if self.env.nav_mode == "gesture":
                half = self.dp(54)
                p.rounded(
                    (self.W / 2 - half, cy - self.dp(2), self.W / 2 + half, cy + self.dp(2)),
                    self.dp(2),
                    fg,
                )
                return
            slot = min(self.W / 3, self.dp(140))
            centers = {"back": self.W / 2 - slot, "home": self.W / 2, "recents": self.W / 2 + slot}
            for name, cx in centers.items():
                self._nav_button(name, cx, cy, fg)

    def _nav_button(self, name: str, cx: float, cy: float, fg: RGB) -> None:
        p, s = self.rc.painter, self.dp(8)
        if name == "back":
            p.polygon_aa([(cx - s, cy), (cx + s * 0.8, cy - s), (cx + s * 0.8, cy + s)], fg)
        elif name == "home":
            p.circle(cx, cy, s * 1.05, fg)
        else:
            p.rounded((cx - s * 0.85, cy - s * 0.85, cx + s * 0.85, cy + s * 0.85), s * 0.2, fg)
        half = self.dp(24)
        box = (cx - half, cy - half, cx + half, cy + half)
        self.rc.target(box, f"sys:{name}")
        self.rc.add(
            ElementKind.ICON,
            (cx - s * 1.1, cy - s * 1.1, cx + s * 1.1, cy + s * 1.1),
            icon=f"nav_{name}",
            clickable=True,
        )

    # --- overlays -----------------------------------------------------------------------
    def keyboard(self) -> Box:
        rc, p = self.rc, self.rc.painter
        y1 = self.H - self.nav_h - self.kb_h
        y2 = self.H - self.nav_h
        p.rect((0, y1, self.W, y2), rc.color("keyboard"))
        with rc.block(BlockKind.KEYBOARD, (0, y1, self.W, y2)):
            strip_cy = y1 + self.dp(22)
            for i, icon in enumerate(
                (
                    "apps",
                    "emoticon_outline",
                    "clipboard_outline",
                    "cog_outline",
                    "microphone_outline",
                )
            ):
                cx = self.W * (i + 0.5) / 5
                box = p.icon(icon, cx, strip_cy, round(self.dp(22)), rc.color("secondary"))
                rc.add(ElementKind.ICON, box, icon=icon)
            unit = (self.W - self.dp(8)) / 10
            y = y1 + self.dp(44)
            for row in keyboard_rows(self.ui.kbd_mode):
                total = sum(wu for _, wu in row)
                x = self.dp(4) + (10 - total) * unit / 2
                for name, wu in row:
                    self._key(name, x, y, unit * wu, self.dp(54))
                    x += unit * wu
                y += self.dp(54)
        return Box.of(0, y1, self.W, y2)

    def _key(self, name: str, x: float, y: float, w: float, h: float) -> None:
        rc, p = self.rc, self.rc.painter
        box = (x + self.dp(3), y + self.dp(5), x + w - self.dp(3), y + h - self.dp(5))
        special = name in ("shift", "del", "mode", "enter", ",", ".")
        color = "accent" if name == "enter" else "key_special" if special else "key"
        if name == "enter":
            p.rounded(box, (box[3] - box[1]) / 2, rc.color(color))
        else:
            p.rounded(box, self.dp(6), rc.color(color))
        key = f"kbd:{name}"
        rc.target((x, y, x + w, y + h), key, "key")
        fg = rc.color("on_accent" if name == "enter" else "key_text")
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        icons = {
            "shift": "arrow_up_bold" if self.ui.kbd_mode == "ABC" else "arrow_up_bold_outline",
            "del": "backspace_outline",
            "enter": "keyboard_return",
        }
        with rc.clickable(key):
            if name in icons:
                p.icon(icons[name], cx, cy, round(self.dp(22)), fg)
                rc.add(ElementKind.BUTTON, box, icon=icons[name])
                return
            label = {"mode": "ABC" if self.ui.kbd_mode == "123" else "?123", "space": ""}.get(
                name, name
            )
            size = rc.sp(14 if name == "mode" else 22)
            if label:
                tw = draw.text_width(label, size, 400)
                p.text(cx - tw / 2, cy - draw.line_height(size) / 2, label, size, fg)
            rc.add(ElementKind.BUTTON, box, text=label)

    def menu(self) -> Box:
        rc, p = self.rc, self.rc.painter
        item_h = self.dp(48)
        size = rc.sp(16)
        w = max(
            [self.dp(200)]
            + [draw.text_width(m.label, size, 400) + self.dp(48) for m in self.page.menu]
        )
        x2 = self.W - self.dp(8)
        x1 = x2 - w
        y1 = self.status_h + self.dp(8)
        y2 = y1 + self.dp(16) + item_h * len(self.page.menu)
        # its elevation's shadow, soft: darkest at the panel's edge, fading over 8 dp,
        # and dropped a little below it (the light comes from above)
        layers = 16
        for i in range(layers):
            spread = self.dp((layers - i) / 2)
            p.rounded(
                (x1 - spread, y1 - spread + self.dp(2), x2 + spread, y2 + spread + self.dp(2)),
                self.dp(6) + spread,
                (0, 0, 0),
                alpha=0.012,
            )
        p.rounded((x1, y1, x2, y2), self.dp(6), rc.color("surface_high"))
        rc.layer = 2
        with rc.block(BlockKind.GENERIC, (x1, y1, x2, y2), "menu"):
            for i, item in enumerate(self.page.menu):
                iy = y1 + self.dp(8) + i * item_h
                rc.target((x1, iy, x2, iy + item_h), item.key)
                with rc.clickable(item.key):
                    ink = p.text(
                        x1 + self.dp(16),
                        iy + (item_h - draw.line_height(size)) / 2,
                        item.label,
                        size,
                        rc.color("primary"),
                    )
                    rc.add(ElementKind.TEXT, ink, text=item.label)
        box = Box.of(x1, y1, x2, y2)
        self.occluders.append((box, self._first_overlay_element()))
        return box

    def _first_overlay_element(self) -> int:
        """Index of the first element of the overlay just drawn (its menu/dialog block)."""
        last_block = len(self.rc.blocks) - 1
        for i, e in enumerate(self.rc.elements):
            if e.block == last_block:
                return i
        return len(self.rc.elements)

    def toast(self, text: str) -> None:
        rc, p = self.rc, self.rc.painter
        size = rc.sp(14)
        max_w = self.W - self.dp(64)
        lines = draw.wrap(text, size, 400, max_w - self.dp(32))[:2]
        tw = max(draw.text_width(line, size, 400) for line in lines)
        w = tw + self.dp(32)
        h = draw.line_height(size) * len(lines) + self.dp(20)
        x1 = (self.W - w) / 2
        y2 = self.H - self.nav_h - self.kb_h - self.dp(72)
        y1 = y2 - h
        p.rounded((x1, y1, x1 + w, y2), min(h / 2, self.dp(24)), rc.color("toast"))
        ty = y1 + self.dp(10)
        for line in lines:
            lw = draw.text_width(line, size, 400)
            ink = p.text(x1 + (w - lw) / 2, ty, line, size, rc.color("toast_text"))
            rc.add(ElementKind.TEXT, ink, text=line)
            ty += draw.line_height(size)

    def dialog(self, dialog: Dialog) -> Box:
        rc = self.rc
        dark = Image.new("RGB", rc.painter.image.size, (0, 0, 0))
        rc.painter.image.paste(Image.blend(rc.painter.image, dark, 0.32))
        w, h = rc.measure(dialog, self.W)
        area_top, area_bottom = self.status_h, self.H - self.nav_h - self.kb_h
        h = min(h, area_bottom - area_top - self.dp(32))
        x, y = (self.W - w) / 2, (area_top + area_bottom - h) / 2
        rc.layer = 1
        dialog.render(rc, x, y, w, h)
        box = Box.of(x, y, x + w, y + h)
        self.occluders.append((box, self._first_overlay_element()))
        return box


def _battery_icon(level: int) -> str:
    step = max(1, min(10, round(level / 10)))
    return "battery" if step == 10 else f"battery_{step * 10}"


def keyboard_rows(mode: KeyboardMode) -> list[list[tuple[str, float]]]:
    """Key names and widths (in key units, 10 per row) of the on-screen keyboard."""
    if mode == "123":
        rows = [
            [(c, 1.0) for c in "1234567890"],
            [(c, 1.0) for c in "@#$_&-+()/"],
            [("=", 1.5)] + [(c, 1.0) for c in "*\"':;!?"] + [("del", 1.5)],
        ]
    else:
        letters = ["qwertyuiop", "asdfghjkl", "zxcvbnm"]
        if mode == "ABC":
            letters = [r.upper() for r in letters]
        rows = [
            [(c, 1.0) for c in letters[0]],
            [(c, 1.0) for c in letters[1]],
            [("shift", 1.5)] + [(c, 1.0) for c in letters[2]] + [("del", 1.5)],
        ]
    rows.append([("mode", 1.5), (",", 1.0), ("space", 5.0), (".", 1.0), ("enter", 1.5)])
    return rows


def _occlude(
    elements: list[TruthElement], blocks: list[TruthBlock], occluders: list[tuple[Box, int]]
) -> tuple[tuple[TruthElement, ...], tuple[TruthBlock, ...]]:
    """Drop elements mostly hidden under an opaque overlay drawn after them."""
    keep: list[int] = []
    for i, e in enumerate(elements):
        hidden = any(
            i < first and e.box.intersection(box) > 0.6 * e.box.area for box, first in occluders
        )
        if not hidden:
            keep.append(i)
    new_index = {old: new for new, old in enumerate(keep)}
    out_blocks = tuple(
        TruthBlock(
            b.kind,
            b.box,
            b.caption,
            b.scrollable,
            new_index.get(b.active) if b.active is not None else None,
        )
        for b in blocks
    )
    return tuple(elements[i] for i in keep), out_blocks


def render_page(
    page: Page,
    env: RenderEnv | None = None,
    ui: UiState | None = None,
    *,
    dialog: Dialog | None = None,
    app: str = "",
) -> Frame:
    """Draw ``page`` (with its dialog, if one is open) and collect the truth."""
    ui = ui or UiState()
    composer = _Composer(page, env or RenderEnv(), ui, app, has_dialog=dialog is not None)
    frame = composer.compose()
    if dialog is None:
        return frame
    box = composer.dialog(dialog)
    kb_box = composer.keyboard() if ui.keyboard else None
    return composer.finish(frame.scroll, frame.max_scroll, frame.menu_box, kb_box, dialog_box=box)
