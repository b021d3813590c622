"""The renderer: determinism, sizes, truth boxes, themes, locales, secure pages."""

from __future__ import annotations

import numpy as np
import pytest

from screenpilot.model import BlockKind, ElementKind
from screenpilot.simulator.render import (
    SIZES,
    Page,
    RenderEnv,
    UiState,
    frame_to_screen,
    render_page,
)
from screenpilot.simulator.theme import make_theme
from screenpilot.simulator.widgets import (
    Button,
    CheckBox,
    Column,
    Dialog,
    EditText,
    Image,
    PageIndicator,
    RadioGroup,
    RatingBar,
    SeekBar,
    Spinner,
    Switch,
    Tab,
    TabBar,
    list_item,
    list_view,
)


def _page() -> Page:
    body = Column(
        children=[
            EditText(field="name", hint="Name"),
            list_view(
                [list_item(f"Item {i}", "detail", icon="star", key=f"item:{i}") for i in range(12)],
                dividers=True,
            ),
            Switch(checked=True, key="s"),
            CheckBox(checked=False, label="Agree", key="c"),
            RadioGroup(options=["A", "B"], selected=0, key="r"),
            SeekBar(value=0.3, key="b"),
            RatingBar(rating=3),
            Spinner(text="Auto", key="sp"),
            PageIndicator(count=3),
            Image(seed=1),
            Button(text="Save", key="save"),
        ],
        padding=16,
        spacing=8,
    )
    tabs = TabBar(tabs=[Tab("Home", "home", "t:0"), Tab("Me", "account", "t:1")], active=1)
    return Page(body=body, title="Demo", tabs=tabs)


def test_same_state_same_pixels() -> None:
    a = render_page(_page(), ui=UiState(fields={"name": "Bob"}, focus="name", keyboard=True))
    b = render_page(_page(), ui=UiState(fields={"name": "Bob"}, focus="name", keyboard=True))
    assert a.image.tobytes() == b.image.tobytes()
    assert a.elements == b.elements


@pytest.mark.parametrize("name", sorted(SIZES))
def test_each_size_renders_with_boxes_inside(name: str) -> None:
    spec = SIZES[name]
    frame = render_page(_page(), RenderEnv(spec=spec))
    assert frame.image.size == (spec.width, spec.height)
    assert frame.elements
    for e in frame.elements:
        assert 0 <= e.box.x1 < e.box.x2 <= spec.width
        assert 0 <= e.box.y1 < e.box.y2 <= spec.height
    kinds = {e.kind for e in frame.elements}
    assert {ElementKind.STATUS_BAR, ElementKind.NAVIGATION_BAR, ElementKind.TEXT} <= kinds
    screen = frame_to_screen(frame)
    assert screen.width == spec.width and screen.describe()


def test_truth_has_widget_classes_and_blocks() -> None:
    frame = render_page(_page(), ui=UiState(scroll=10_000))
    kinds = {e.kind for e in frame.elements}
    assert {
        ElementKind.SWITCH,
        ElementKind.BUTTON,
        ElementKind.SEEK_BAR,
        ElementKind.RATING_BAR,
        ElementKind.SPINNER,
        ElementKind.IMAGE,
    } <= kinds
    blocks = {b.kind for b in frame.blocks}
    assert {BlockKind.TOOLBAR, BlockKind.TAB_BAR, BlockKind.STATUS_BAR} <= blocks
    tab_bar = next(b for b in frame.blocks if b.kind is BlockKind.TAB_BAR)
    assert tab_bar.active is not None and frame.elements[tab_bar.active].text == "Me"
    assert frame.scroll == frame.max_scroll > 0


def test_scrolled_content_is_clipped_to_viewport() -> None:
    frame = render_page(_page(), ui=UiState(scroll=400))
    body = [e for e in frame.elements if e.text.startswith("Item")]
    assert body
    for e in body:
        assert frame.viewport.y1 <= e.box.y1 and e.box.y2 <= frame.viewport.y2


def test_dark_theme_and_keyboard_change_pixels() -> None:
    light = render_page(_page())
    dark = render_page(_page(), RenderEnv(theme=make_theme(dark=True, accent="teal")))
    assert np.asarray(dark.image).mean() < np.asarray(light.image).mean()
    kb = render_page(_page(), ui=UiState(focus="name", keyboard=True))
    assert any(b.kind is BlockKind.KEYBOARD for b in kb.blocks)
    assert kb.find("q") is not None


def test_hint_and_password_truth() -> None:
    page = Page(
        body=Column(
            children=[
                EditText(field="a", hint="Email"),
                EditText(field="p", hint="Password", password=True),
            ]
        )
    )
    frame = render_page(page, ui=UiState(fields={"p": "abc"}))
    fields = [e for e in frame.elements if e.kind is ElementKind.EDIT_TEXT]
    assert fields[0].hint and fields[0].text == "Email"
    assert fields[1].password and fields[1].text == "•••" and not fields[1].hint


def test_dialog_is_modal_and_dims() -> None:
    dialog = Dialog(
        title="Delete?",
        body="This cannot be undone.",
        buttons=[("Cancel", "back"), ("Delete", "delete")],
    )
    plain = render_page(_page())
    frame = render_page(_page(), dialog=dialog)
    assert frame.dialog_box is not None
    assert any(b.kind is BlockKind.DIALOG for b in frame.blocks)
    assert np.asarray(frame.image).mean() < np.asarray(plain.image).mean()
    x, y = frame.dialog_box.x1 + 5, frame.dialog_box.y1 - 50
    hit = frame.hit(x, y)
    assert hit is None or hit.layer >= 1


def test_secure_page_captures_black() -> None:
    frame = render_page(Page(body=Column(children=[EditText(field="pin")]), secure=True))
    assert not np.asarray(frame.captured()).any()
    assert np.asarray(frame.image).any()
    assert frame_to_screen(frame, captured=True).elements == ()


def test_cjk_text_renders() -> None:
    frame = render_page(Page(body=list_view([list_item("网络和互联网", "WLAN")]), title="设置"))
    assert frame.find("网络和互联网") is not None
    assert frame.find("设置") is not None
