"""``layout`` screens: pages composed here from the renderer's declarative widgets.

Lists, forms, cards, grids, carousels, product pages and chats, with random chrome
(app bar and its actions, overflow menu, tab bar, FAB), dialogs, keyboards, toasts,
scroll offsets, page colours, English and Chinese text, random Material Design
icons, pictures and clutter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from screenpilot.datasets.synth.env import hex_color, rand_env
from screenpilot.datasets.synth.labels import frame_boxes
from screenpilot.datasets.synth.pictures import Clutter, Picture
from screenpilot.datasets.synth.screen import Rng, SynthScreen
from screenpilot.datasets.synth.texts import Texts
from screenpilot.simulator.widgets import Widget


def _key(rng: Rng) -> str:
    return f"k{rng.randrange(10**6)}"


def rand_trailing(rng: Rng, t: Texts) -> Widget | None:
    """What sits at the right end of a list row."""
    from screenpilot.simulator import widgets as w

    pick = rng.randrange(9)
    if pick == 0:
        return w.Switch(checked=rng.random() < 0.5, key=_key(rng))
    if pick == 1:
        return w.CheckBox(checked=rng.random() < 0.5, key=_key(rng))
    if pick == 2:
        return w.Icon(name=t.icon(), box=48, key=_key(rng))
    if pick == 3:
        return w.Text(text=t.number(), color="secondary")
    if pick == 4:
        style = rng.choice(["tonal", "outlined", "text", "filled"])
        return w.Button(text=t.words(1, 1), style=style, key=_key(rng))  # type: ignore[arg-type]
    if pick == 5:
        return Picture(
            seed=rng.randrange(10**6),
            width=rng.choice([48, 64, 80]),
            aspect=1.0,
            radius=rng.choice([0, 8, 40]),
        )
    return None


def rand_leading(rng: Rng, t: Texts) -> dict[str, Any]:
    """List-row leading content as ``list_item`` keyword arguments."""
    from screenpilot.simulator import widgets as w

    pick = rng.randrange(5)
    if pick == 0:
        return {"icon": t.icon()}
    if pick == 1:
        return {"icon": t.icon(), "icon_color": hex_color(rng)}
    if pick == 2:
        return {"leading": w.Avatar(name=t.words(1, 1), size=rng.choice([32, 40, 56]))}
    if pick == 3:
        return {
            "leading": Picture(
                seed=rng.randrange(10**6),
                width=rng.choice([40, 56, 72]),
                aspect=1.0,
                radius=rng.choice([4, 12, 36]),
            )
        }
    return {}


def rand_list(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    rows: list[Widget] = []
    for _ in range(rng.randint(3, 12)):
        subtitle = t.words(2, 6) if rng.random() < 0.6 else ""
        rows.append(
            w.list_item(
                t.words(1, 4),
                subtitle,
                trailing=rand_trailing(rng, t),
                key=_key(rng) if rng.random() < 0.7 else "",
                enabled=rng.random() < 0.95,
                **rand_leading(rng, t),
            )
        )
    if rng.random() < 0.4:
        rows.insert(0, w.section(t.words(1, 3)))
    return w.list_view(rows, dividers=rng.random() < 0.4, inset=rng.choice([0, 16, 72]))


def rand_form(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    parts: list[Widget] = []
    makers: list[Callable[[], Widget]] = [
        lambda: w.EditText(
            field=f"f{rng.randrange(10**6)}",
            hint=t.words(1, 4),
            style=rng.choice(["outlined", "filled", "search"]),
            icon=t.icon() if rng.random() < 0.3 else "",
            password=rng.random() < 0.1,
        ),
        lambda: w.Spinner(text=t.words(1, 3), key=_key(rng), width=rng.choice([None, 160, 240])),
        lambda: w.CheckBox(checked=rng.random() < 0.5, label=t.words(1, 5), key=_key(rng)),
        lambda: w.RadioGroup(
            options=[t.words(1, 4) for _ in range(rng.randint(2, 5))],
            selected=rng.randrange(-1, 3),
            key=_key(rng),
        ),
        lambda: w.SeekBar(value=rng.random(), key=_key(rng)),
        lambda: w.Row(
            children=[
                w.Text(text=t.words(1, 4), weight=1),
                w.Switch(checked=rng.random() < 0.5, key=_key(rng)),
            ]
        ),
        lambda: w.RatingBar(
            rating=rng.randint(0, 10) / 2, size=rng.choice([16, 24, 28, 36]), key=_key(rng)
        ),
        lambda: w.Text(text=t.sentence(), max_lines=3, color="secondary"),
        lambda: w.Row(
            children=[
                w.Button(text=t.words(1, 2), style=s, key=_key(rng))  # type: ignore
                for s in rng.sample(["text", "outlined", "tonal", "filled"], rng.randint(1, 3))
            ],
            justify=rng.choice(["end", "start", "between"]),
            spacing=8,
        ),
    ]
    for _ in range(rng.randint(3, 9)):
        if rng.random() < 0.35:
            parts.append(
                w.Text(
                    text=t.words(1, 3),
                    size=rng.choice([12, 14, 16]),
                    color=rng.choice(["secondary", "accent", "primary"]),
                )
            )
        parts.append(rng.choice(makers)())
    return w.Column(
        children=parts, padding=rng.choice([12, 16, 24]), spacing=rng.choice([8, 12, 16])
    )


def rand_cards(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    cards: list[Widget] = []
    for _ in range(rng.randint(1, 4)):
        inner: list[Widget] = []
        if rng.random() < 0.7:
            inner.append(Picture(seed=rng.randrange(10**6), aspect=rng.uniform(0.35, 0.8)))
        inner.append(w.Text(text=t.words(1, 5), size=rng.choice([16, 18, 22]), font_weight=500))
        if rng.random() < 0.6:
            inner.append(w.Text(text=t.sentence(), color="secondary", max_lines=3))
        if rng.random() < 0.3:
            inner.append(w.RatingBar(rating=rng.randint(0, 10) / 2, size=rng.choice([16, 20])))
        if rng.random() < 0.6:
            inner.append(
                w.Row(
                    children=[
                        w.Button(
                            text=t.words(1, 2),
                            key=_key(rng),
                            style=rng.choice(["text", "tonal", "filled"]),
                        )
                        for _ in range(rng.randint(1, 2))
                    ],
                    justify="end",
                    spacing=8,
                )
            )
        cards.append(w.card(inner, key=_key(rng) if rng.random() < 0.5 else ""))
    return w.Column(children=cards, padding=16, spacing=12)


def rand_grid(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    cols = rng.randint(2, 5)
    cells: list[Widget] = []
    icons = rng.random() < 0.4
    for _ in range(cols * rng.randint(1, 4)):
        top: Widget = (
            w.Icon(name=t.icon(), size=28, box=56, color="white", background=hex_color(rng))
            if icons
            else Picture(
                seed=rng.randrange(10**6),
                aspect=rng.choice([1.0, 1.3]),
                radius=rng.choice([0, 8, 16]),
            )
        )
        parts: list[Widget] = [top]
        if rng.random() < 0.8:
            parts.append(w.Text(text=t.words(1, 2), size=12, align="center"))
        cells.append(
            w.Column(
                children=parts, align="center" if icons else "stretch", spacing=4, key=_key(rng)
            )
        )
    return w.Grid(children=cells, columns=cols, spacing=8, row_spacing=12, padding=16)


def rand_hero(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    count = rng.randint(2, 7)
    parts: list[Widget] = [
        Picture(
            seed=rng.randrange(10**6), aspect=rng.uniform(0.4, 1.1), radius=rng.choice([0, 16])
        ),
        w.PageIndicator(count=count, index=rng.randrange(count)),
        w.Text(text=t.words(2, 6), size=22, align="center", max_lines=2),
        w.Text(text=t.sentence(), color="secondary", align="center", max_lines=3),
    ]
    if rng.random() < 0.7:
        parts.append(w.Button(text=t.words(1, 2), key=_key(rng)))
    return w.Column(children=parts, padding=16, spacing=12)


def rand_product(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    count = rng.randint(2, 6)
    return w.Column(
        children=[
            Picture(seed=rng.randrange(10**6), aspect=rng.uniform(0.7, 1.0), radius=0),
            w.PageIndicator(count=count, index=rng.randrange(count)),
            w.Text(text=t.words(2, 6), size=20, max_lines=2),
            w.Row(
                children=[
                    w.RatingBar(rating=rng.randint(0, 10) / 2, size=rng.choice([16, 20])),
                    w.Text(text=t.number(), color="secondary"),
                ],
                spacing=8,
            ),
            w.Text(text=t.number(), size=24, font_weight=500),
            w.Spinner(text=t.words(1, 2), key=_key(rng), width=rng.choice([120, 200])),
            w.Row(
                children=[
                    w.Button(text=t.words(1, 2), style="outlined", key=_key(rng), weight=1),
                    w.Button(text=t.words(1, 2), key=_key(rng), weight=1),
                ],
                spacing=12,
            ),
        ],
        padding=16,
        spacing=12,
    )


def rand_chat(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    rows: list[Widget] = []
    for _ in range(rng.randint(3, 9)):
        mine = rng.random() < 0.5
        bubble = w.Column(
            children=[w.Text(text=t.sentence(), max_lines=4)],
            padding=12,
            background="accent_container" if mine else "surface_variant",
            radius=16,
            wrap=True,
        )
        kids: list[Widget] = (
            [w.Spacer(weight=1), bubble]
            if mine
            else [w.Avatar(name=t.words(1, 1), size=36), bubble]
        )
        rows.append(w.Row(children=kids, spacing=8, align="start"))
    rows.append(
        w.Row(
            children=[
                w.EditText(
                    field=f"m{rng.randrange(10**6)}", hint=t.words(1, 3), style="search", weight=1
                ),
                w.Icon(name="send", box=48, color="accent", key=_key(rng)),
            ],
            spacing=8,
        )
    )
    return w.Column(children=rows, padding=12, spacing=10)


def rand_clutter(rng: Rng, t: Texts) -> Widget:
    from screenpilot.simulator import widgets as w

    return w.Column(
        children=[
            Clutter(seed=rng.randrange(10**6))
            if rng.random() < 0.6
            else w.Text(text=t.sentence(), max_lines=2, size=rng.choice([12, 14]))
            for _ in range(rng.randint(1, 4))
        ],
        padding=8,
        spacing=8,
    )


SECTIONS: tuple[Callable[[Rng, Texts], Widget], ...] = (
    rand_list,
    rand_form,
    rand_cards,
    rand_grid,
    rand_hero,
    rand_product,
    rand_chat,
    rand_clutter,
)


def rand_dialog(rng: Rng, t: Texts) -> Any:
    from screenpilot.simulator import widgets as w

    body: str | Widget = t.sentence()
    pick = rng.randrange(4)
    if pick == 1:
        body = w.RadioGroup(
            options=[t.words(1, 3) for _ in range(rng.randint(2, 5))],
            selected=rng.randrange(0, 2),
            key=_key(rng),
        )
    elif pick == 2:
        body = w.Column(
            children=[
                w.CheckBox(checked=rng.random() < 0.5, label=t.words(1, 3), key=_key(rng))
                for _ in range(rng.randint(1, 4))
            ]
        )
    elif pick == 3:
        body = w.EditText(field=f"d{rng.randrange(10**6)}", hint=t.words(1, 3))
    buttons = [(t.words(1, 1), _key(rng)) for _ in range(rng.randint(1, 3))]
    return w.Dialog(
        title=t.words(1, 4) if rng.random() < 0.8 else "",
        body=body,
        buttons=buttons,
        icon=t.icon() if rng.random() < 0.2 else "",
    )


def rand_page(rng: Rng, t: Texts, dark: bool) -> Any:
    """A random page: 1-4 body sections and random chrome."""
    from screenpilot.simulator import widgets as w
    from screenpilot.simulator.render import MenuItem, Page, ToolbarAction

    sections = [rng.choice(SECTIONS)(rng, t) for _ in range(rng.randint(1, 4))]
    body = w.Column(children=sections, spacing=rng.choice([0, 8, 16]))
    tabs = None
    if rng.random() < 0.35:
        n = rng.randint(3, 5)
        tabs = w.TabBar(
            tabs=[w.Tab(t.words(1, 1), t.icon(), _key(rng)) for _ in range(n)],
            active=rng.randrange(n),
        )
    fab = (
        w.Fab(icon=t.icon(), label=t.words(1, 1) if rng.random() < 0.3 else "", key=_key(rng))
        if rng.random() < 0.25
        else None
    )
    background = "background"
    if rng.random() < 0.3:
        background = hex_color(rng, 0, 50) if dark else hex_color(rng, 215, 255)
    return Page(
        body=body,
        title=t.words(1, 3) if rng.random() < 0.85 else "",
        back=rng.random() < 0.6,
        toolbar=rng.random() < 0.85,
        actions=[ToolbarAction(t.icon(), _key(rng)) for _ in range(rng.randint(0, 3))],
        menu=[MenuItem(t.words(1, 2), _key(rng)) for _ in range(rng.randint(0, 4))],
        tabs=tabs,
        fab=fab,
        background=background,
    )


def _fields(widget: Any) -> list[str]:
    """Names of the edit fields in a widget tree."""
    out = [str(widget.field)] if type(widget).__name__ == "EditText" else []
    for child in getattr(widget, "children", ()) or ():
        out += _fields(child)
    return out


def layout_screen(rng: Rng) -> SynthScreen:
    """A random composed page rendered at a random size (see the module docstring)."""
    from screenpilot.simulator.render import UiState, render_page

    env = rand_env(rng)
    t = Texts(rng, zh=rng.random() < 0.3)
    page = rand_page(rng, t, env.theme.dark)
    names = _fields(page.body)
    fields = {n: t.words(1, 4) for n in names if rng.random() < 0.4}
    focus = rng.choice(names) if names and rng.random() < 0.15 else None
    ui = UiState(
        scroll=rng.choice([0, 0, rng.randint(0, 4000)]),
        fields=fields,
        focus=focus,
        keyboard=focus is not None,
        kbd_mode=rng.choice(["abc", "ABC", "123"]),
        menu_open=bool(page.menu) and rng.random() < 0.08,
        toast=t.words(2, 6) if rng.random() < 0.08 else "",
    )
    dialog = rand_dialog(rng, t) if rng.random() < 0.12 else None
    frame = render_page(page, env, ui, dialog=dialog, app="synthetic")
    return SynthScreen(
        frame.image,
        tuple(frame_boxes(frame)),
        "layout",
        {"size": f"{env.spec.width}x{env.spec.height}"},
    )
