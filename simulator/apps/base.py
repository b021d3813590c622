"""How an app of the virtual phone is written.

An app is a subclass of ``App`` that declares who it is and decorates methods:

    class ClockApp(App):
        package = "com.android.deskclock"
        activity = "com.android.deskclock.DeskClock"
        label = "Clock"
        icon = "clock_outline"          # an MDI icon name (launcher + app lists)
        color = "#1A73E8"               # its launcher badge colour
        authority = "com.android.deskclock"   # for content providers (optional)
        strings = {"zh": {"Clock": "时钟"}}    # translations for ctx.t()

        def initial_state(self) -> dict[str, Any]:
            return {"alarms": []}         # JSON values only: it is snapshotted

        @page("main")                     # the root page is "main" (``root``)
        def main(self, ctx: Ctx) -> Page:
            rows = [list_item(a["time"], key=f"open_alarm:{i}")
                    for i, a in enumerate(ctx.state["alarms"])]
            return Page(title=ctx.t("Clock"), back=False, body=list_view(rows),
                        fab=Fab(icon="plus", key="open:add"))

        @page("add")
        def add(self, ctx: Ctx) -> Page:
            return Page(title="Add alarm", body=Column([
                EditText(field="time", hint="07:30"), Button("Save", key="save")]))

        @handler("save")
        def save(self, ctx: Ctx, ev: Event) -> None:
            ctx.state["alarms"].append({"time": ctx.field("time")})
            ctx.back()

        @dialog("confirm")                # shown while ctx.show_dialog("confirm")
        def confirm(self, ctx: Ctx) -> Dialog: ...

        @provider("alarms")               # content://com.android.deskclock/alarms
        def alarms(self, state: dict[str, Any]) -> list[dict[str, str]]: ...

        def dump(self, service: str, state: dict[str, Any]) -> str: ...  # dumpsys text

Pages are pure functions of state (``ctx``) returning a ``render.Page``; they
never change state. Handlers receive an ``Event`` whose ``key`` is the widget's
key: ``"name"`` or ``"name:arg"`` dispatches to ``@handler("name")`` with
``ev.arg``. Built in for every app: ``open:PAGE`` pushes a page, ``back`` goes
back, ``launch:PACKAGE`` starts another app. Edit texts hold their value in the
page's entry on the back stack: read it with ``ctx.field(name)``.

Register a new app by adding its class to ``screenpilot.simulator.apps.APPS``
(or pass ``apps=[...]`` to ``VirtualPhone``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol, TypedDict, TypeVar

from screenpilot.errors import ConfigError
from screenpilot.simulator.render import Page
from screenpilot.simulator.widgets import Dialog

EventKind = Literal["tap", "long_press", "seek", "submit"]
Rows = list[dict[str, str]]
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class Event:
    """What the user did to a widget: ``key`` is the widget's, ``value`` depends on the
    widget (radio: option index; seek bar: fraction 0-1; rating bar: stars)."""

    key: str
    kind: EventKind = "tap"
    value: float | None = None

    @property
    def name(self) -> str:
        return self.key.partition(":")[0]

    @property
    def arg(self) -> str:
        return self.key.partition(":")[2]


class Entry(TypedDict):
    """One page on an app's back stack (JSON-serialisable)."""

    page: str
    args: dict[str, Any]
    scroll: int
    fields: dict[str, str]
    focus: str | None
    dialog: str | None
    dialog_args: dict[str, Any]
    menu: bool
    selected: str | None  # the field whose whole text Ctrl+A selected


def new_entry(page: str, args: dict[str, Any] | None = None) -> Entry:
    return Entry(
        page=page,
        args=dict(args or {}),
        scroll=0,
        fields={},
        focus=None,
        dialog=None,
        dialog_args={},
        menu=False,
        selected=None,
    )


class Host(Protocol):
    """What the phone offers apps (implemented by ``VirtualPhone``)."""

    @property
    def locale(self) -> str: ...
    def get_setting(self, namespace: str, key: str) -> str | None: ...
    def put_setting(self, namespace: str, key: str, value: str) -> None: ...
    def launch(self, package: str, activity: str | None = None) -> bool: ...
    def finish(self, package: str) -> None: ...
    def force_stop(self, package: str) -> None: ...
    def show_toast(self, text: str) -> None: ...
    def installed(self) -> list[App]: ...
    def getprop(self, name: str) -> str: ...


# --- decorators -----------------------------------------------------------------------------
def page(name: str) -> Callable[[F], F]:
    """Mark ``(self, ctx) -> Page`` as the page ``name``."""

    def mark(fn: F) -> F:
        fn._sp_page = name  # type: ignore[attr-defined]
        return fn

    return mark


def dialog(name: str) -> Callable[[F], F]:
    """Mark ``(self, ctx) -> Dialog`` as the dialog ``name`` (see ``Ctx.show_dialog``)."""

    def mark(fn: F) -> F:
        fn._sp_dialog = name  # type: ignore[attr-defined]
        return fn

    return mark


def handler(*names: str) -> Callable[[F], F]:
    """Mark ``(self, ctx, ev) -> None`` as the handler of keys named ``names``."""

    def mark(fn: F) -> F:
        fn._sp_handler = names  # type: ignore[attr-defined]
        return fn

    return mark


def provider(path: str) -> Callable[[F], F]:
    """Mark ``(self, state) -> rows`` as ``content://{authority}/{path}``."""

    def mark(fn: F) -> F:
        fn._sp_provider = path  # type: ignore[attr-defined]
        return fn

    return mark


# --- the app ----------------------------------------------------------------------------------
class App:
    """Base class of every app; see the module docstring."""

    package: ClassVar[str] = ""
    activity: ClassVar[str] = ""
    label: ClassVar[str] = ""
    icon: ClassVar[str] = "android"
    color: ClassVar[str] = "#1A73E8"
    root: ClassVar[str] = "main"
    authority: ClassVar[str] = ""
    #: More authorities serving the same providers (``content://sms`` and
    #: ``content://com.android.messaging`` are one app).
    extra_authorities: ClassVar[tuple[str, ...]] = ()
    strings: ClassVar[dict[str, dict[str, str]]] = {}
    #: Shown on the home screen (the launcher itself is not).
    launcher_visible: ClassVar[bool] = True
    #: Also placed in the home screen's dock.
    dock: ClassVar[bool] = False
    #: Extra activities ``am start -n PKG/ACTIVITY`` opens, mapped to pages.
    activities: ClassVar[dict[str, str]] = {}

    _pages: ClassVar[dict[str, str]]
    _dialogs: ClassVar[dict[str, str]]
    _handlers: ClassVar[dict[str, str]]
    _providers: ClassVar[dict[str, str]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._pages, cls._dialogs, cls._handlers, cls._providers = {}, {}, {}, {}
        for klass in reversed(cls.__mro__):
            for attr, fn in vars(klass).items():
                if hasattr(fn, "_sp_page"):
                    cls._pages[fn._sp_page] = attr
                if hasattr(fn, "_sp_dialog"):
                    cls._dialogs[fn._sp_dialog] = attr
                for name in getattr(fn, "_sp_handler", ()):
                    cls._handlers[name] = attr
                if hasattr(fn, "_sp_provider"):
                    cls._providers[fn._sp_provider] = attr

    # --- hooks an app may override -------------------------------------------------------
    def initial_state(self) -> dict[str, Any]:
        """The app's state on a fresh phone (JSON values only)."""
        return {}

    def page_activity(self, page_name: str) -> str:
        """The activity ``dumpsys window`` reports for a page."""
        for activity, target in self.activities.items():
            if target == page_name:
                return activity
        return self.activity

    def dump(self, service: str, state: dict[str, Any]) -> str:
        """Lines this app adds to ``dumpsys SERVICE`` (e.g. alarms); '' for none."""
        return ""

    # --- used by the phone ------------------------------------------------------------------
    @property
    def pages(self) -> list[str]:
        return sorted(self._pages)

    def has_page(self, name: str) -> bool:
        return name in self._pages

    def build_page(self, ctx: Ctx) -> Page:
        name = ctx.page
        if name not in self._pages:
            raise ConfigError(
                f"{self.package} has no page {name!r}", hint=f"pages: {', '.join(self.pages)}"
            )
        result = getattr(self, self._pages[name])(ctx)
        assert isinstance(result, Page)
        return result

    def build_dialog(self, ctx: Ctx) -> Dialog | None:
        name = ctx.dialog
        if name is None or name not in self._dialogs:
            return None
        result = getattr(self, self._dialogs[name])(ctx)
        assert isinstance(result, Dialog)
        return result

    def handle(self, ctx: Ctx, ev: Event) -> None:
        """Route an event to its handler; unknown keys do nothing (as a dead button)."""
        if ev.name in self._handlers:
            getattr(self, self._handlers[ev.name])(ctx, ev)
        elif ev.name == "open" and self.has_page(ev.arg) and ev.kind == "tap":
            ctx.open(ev.arg)
        elif ev.name == "back" and ev.kind == "tap":
            ctx.back()
        elif ev.name == "launch" and ev.kind == "tap":
            ctx.launch(ev.arg)

    def query(self, path: str, state: dict[str, Any]) -> Rows | None:
        """Rows of ``content://{authority}/{path}``; None when not provided."""
        name = path.strip("/").split("/")[0]
        if name not in self._providers:
            return None
        rows = getattr(self, self._providers[name])(state)
        assert isinstance(rows, list)
        return rows


class Ctx:
    """An app's view of the phone while building a page or handling an event."""

    def __init__(self, host: Host, app: App, state: dict[str, Any], stack: list[Entry]) -> None:
        self.host = host
        self.app = app
        self.state = state
        self.stack = stack

    # --- the current page -------------------------------------------------------------------
    @property
    def entry(self) -> Entry:
        return self.stack[-1]

    @property
    def page(self) -> str:
        return self.entry["page"]

    @property
    def args(self) -> dict[str, Any]:
        return self.entry["args"]

    @property
    def locale(self) -> str:
        return self.host.locale

    def t(self, text: str) -> str:
        """``text`` in the phone's language (the app's ``strings`` table)."""
        return self.app.strings.get(self.locale, {}).get(text, text)

    # --- fields -----------------------------------------------------------------------------
    def field(self, name: str, default: str = "") -> str:
        return self.entry["fields"].get(name, default)

    def set_field(self, name: str, value: str) -> None:
        self.entry["fields"][name] = value

    def focus(self, name: str | None) -> None:
        """Give a field focus (shows the keyboard) or clear it."""
        self.entry["focus"] = name

    # --- navigation -------------------------------------------------------------------------
    def open(self, page_name: str, **args: Any) -> None:
        """Push a page of this app."""
        if not self.app.has_page(page_name):
            raise ConfigError(f"{self.app.package} has no page {page_name!r}")
        self.stack.append(new_entry(page_name, args))

    def replace(self, page_name: str, **args: Any) -> None:
        """Replace the current page (no new back-stack entry)."""
        self.stack.pop()
        self.open(page_name, **args)

    def back(self) -> None:
        """Close the dialog, else pop the page, else leave the app."""
        if self.entry["dialog"] is not None:
            self.close_dialog()
        elif len(self.stack) > 1:
            self.stack.pop()
        else:
            self.host.finish(self.app.package)

    def back_to(self, page_name: str) -> None:
        """Pop pages until ``page_name`` is on top (the root if it is not on the stack)."""
        while len(self.stack) > 1 and self.page != page_name:
            self.stack.pop()

    def finish(self) -> None:
        self.host.finish(self.app.package)

    def launch(self, package: str, activity: str | None = None) -> bool:
        return self.host.launch(package, activity)

    # --- dialogs and toasts -----------------------------------------------------------------
    @property
    def dialog(self) -> str | None:
        return self.entry["dialog"]

    @property
    def dialog_args(self) -> dict[str, Any]:
        return self.entry["dialog_args"]

    def show_dialog(self, name: str, **args: Any) -> None:
        self.entry["dialog"] = name
        self.entry["dialog_args"] = dict(args)

    def close_dialog(self) -> None:
        self.entry["dialog"] = None
        self.entry["dialog_args"] = {}
        self.entry["focus"] = None

    def toast(self, text: str) -> None:
        self.host.show_toast(text)

    # --- system state -----------------------------------------------------------------------
    def setting(self, namespace: str, key: str, default: str = "") -> str:
        value = self.host.get_setting(namespace, key)
        return default if value is None else value

    def setting_int(self, namespace: str, key: str, default: int = 0) -> int:
        try:
            return int(float(self.setting(namespace, key, str(default))))
        except ValueError:
            return default

    def setting_float(self, namespace: str, key: str, default: float = 0.0) -> float:
        try:
            return float(self.setting(namespace, key, str(default)))
        except ValueError:
            return default

    def setting_on(self, namespace: str, key: str) -> bool:
        return self.setting_int(namespace, key) != 0

    def put_setting(self, namespace: str, key: str, value: str | int | float) -> None:
        self.host.put_setting(namespace, key, str(value))

    def apps(self) -> list[App]:
        """Installed apps (launcher order)."""
        return self.host.installed()
