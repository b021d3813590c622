"""``screenpilot console`` in a real browser: Debian's headless Chromium driven by
selenium through Debian's chromedriver (given by path: nothing is downloaded).

One virtual phone (over real adb) and one console serve the whole module; the
planner is the LLM planner with a scripted model, the describer the real pipeline
(OCR and blocks), the safety check the keyword one. The tests skip, saying why,
where chromium or its driver is missing or cannot start.
"""

from __future__ import annotations

import json
import shutil
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from pbd_helpers import WordEmbedder
from phone_fixtures import PhoneSession
from test_handover import SIGNED_IN_WITH_CART, shop_state, tap

from screenpilot.agent import RunOptions
from screenpilot.build import run_folder
from screenpilot.console import Console, Parts
from screenpilot.console.app import served
from screenpilot.console.runs import step_event
from screenpilot.executor.adb import AdbDevice
from screenpilot.model import (
    Action,
    ActionKind,
    Box,
    Element,
    ElementKind,
    Outcome,
    Screen,
    Step,
    Trajectory,
)
from screenpilot.pbd.store import DemoRecord, DemoStore
from screenpilot.planner.chain import ChainPlanner
from screenpilot.planner.llm import ScriptedLLM
from screenpilot.planner.safety import KeywordSafety
from screenpilot.report import save_run
from screenpilot.simulator.apps import shop
from screenpilot.simulator.phone import VirtualPhone
from screenpilot.vision.incremental import IncrementalDescriber

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
SETTINGS = "com.android.settings"
Message = dict[str, Any]


# --- the scripted model -------------------------------------------------------------------------
class Script:
    """The planner of the next run: the scripted model a test sets."""

    def __init__(self) -> None:
        self.llm = ScriptedLLM([])

    def planner(self, task: str) -> ChainPlanner:
        return ChainPlanner(self.llm)


# --- fixtures ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def vp(phone: PhoneSession) -> VirtualPhone:
    inner: Any = phone.backend.inner
    assert isinstance(inner, VirtualPhone)
    return inner


@pytest.fixture(scope="module")
def script() -> Script:
    return Script()


@pytest.fixture(scope="module")
def console(
    phone: PhoneSession, script: Script, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Console, str]]:
    runs = tmp_path_factory.mktemp("runs")
    stored = tmp_path_factory.mktemp("store")
    with DemoStore.open(stored, embedder=WordEmbedder()) as demos:
        demos.add(
            DemoRecord(
                "turn on wifi",
                ("tap 'Settings'", "tap 'Network & internet'"),
                app="com.android.settings",
                source="test",
            )
        )
        demos.add(DemoRecord("open the clock", ("tap 'Clock'",), source="test"))
    save_run(
        Trajectory(
            task="a past run",
            outcome=Outcome.SUCCESS,
            planner="scripted",
            started_at="2026-01-01T00:00:00+00:00",
        ),
        runs / "20260101-000000-a-past-run",
    )

    def options(task: str, folder: Path) -> RunOptions:
        return RunOptions(out=folder, max_steps=6, settle_timeout=2.0, settle_interval=0.05)

    parts = Parts(
        device=AdbDevice(phone.serial),
        describer=IncrementalDescriber(stages=("ocr", "blocks")),
        safety=KeywordSafety(),
        planner=script.planner,
        options=options,
        runs=runs,
        run_folder=run_folder,
        planner_name="scripted",
        store=lambda: DemoStore.open(stored, embedder=WordEmbedder()),
    )
    page = Console(parts, fps=2.0)  # the virtual phone's captures cost this machine
    with served(page) as url:
        yield page, url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if CHROMIUM is None or not Path(DRIVER).is_file():
        pytest.skip(
            "Debian's chromium and chromium-driver are not installed "
            "(apt-get install chromium chromium-driver)"
        )
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,1000",
    ):
        options.add_argument(arg)
    try:
        driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    except Exception as exc:  # no display libraries, a driver of another version...
        pytest.skip(f"chromium cannot start here: {str(exc).splitlines()[0]}")
    driver.set_page_load_timeout(60)
    try:
        yield driver
    finally:
        driver.quit()


def base_of(url: str) -> str:
    return url.split("?", 1)[0]


def wait(driver: Any, what: Callable[[Any], Any], timeout: float = 60.0) -> Any:
    """``what`` once it answers; a table re-drawn while ``what`` reads it (a stale
    element) is read again at the next poll."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(
        driver, timeout, poll_frequency=0.2, ignored_exceptions=(StaleElementReferenceException,)
    ).until(what)


def by_id(driver: Any, name: str) -> Any:
    return driver.find_element("id", name)


@pytest.fixture()
def page(console: tuple[Console, str], browser: Any) -> Any:
    """The console's page, open and showing a live frame."""
    _, url = console
    browser.get(url)
    wait(browser, lambda d: by_id(d, "screen").get_attribute("data-seq"))
    wait(browser, lambda d: by_id(d, "conn").text == "live")
    return browser


def frame_after(driver: Any, console: Console) -> None:
    """Wait until the page shows a frame captured after now (the phone was just set up)."""
    latest = console.live.latest()
    seq = (latest.seq if latest is not None else 0) + 1
    wait(driver, lambda d: int(by_id(d, "screen").get_attribute("data-seq") or 0) > seq)


def click_screen(driver: Any, x: int, y: int, phone_width: int) -> None:
    """A real mouse click on the live screen at phone pixel (x, y)."""
    from selenium.webdriver.common.action_chains import ActionChains

    img = by_id(driver, "screen")
    width, height = driver.execute_script(
        "const r = arguments[0].getBoundingClientRect(); return [r.width, r.height];", img
    )
    scale = width / phone_width
    ActionChains(driver).move_to_element_with_offset(
        img, round(x * scale - width / 2), round(y * scale - height / 2)
    ).click().perform()


# --- the token --------------------------------------------------------------------------------
def test_the_page_needs_its_token(console: tuple[Console, str], browser: Any) -> None:
    page_, url = console
    base = base_of(url)
    for path in ("", "api/state", "api/events", "api/frame.jpg", "static/console.js"):
        with pytest.raises(urllib.error.HTTPError) as info:
            urllib.request.urlopen(base + path, timeout=10)
        assert info.value.code == 403, path
    wrong = urllib.request.Request(base + "api/state", headers={"X-Screenpilot-Token": "x"})
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(wrong, timeout=10)
    assert info.value.code == 403
    tap_ = urllib.request.Request(
        base + "api/tap",
        data=b'{"x": 1, "y": 1}',
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(tap_, timeout=10)
    assert info.value.code == 403
    right = urllib.request.Request(base + "api/state", headers={"X-Screenpilot-Token": page_.token})
    with urllib.request.urlopen(right, timeout=10) as answer:
        assert json.loads(answer.read())["device"] == page_.parts.device.serial

    browser.delete_all_cookies()
    browser.get(base)
    assert "forbidden" in browser.find_element("tag name", "body").text
    browser.get(url)  # the printed URL: token in the query
    assert browser.title == "screenpilot console"
    assert "token" not in browser.current_url  # redirected; a cookie carries it now
    wait(browser, lambda d: by_id(d, "screen").get_attribute("data-seq"))
    assert browser.execute_script("return document.getElementById('screen').naturalWidth") > 0
    browser.get(base + "api/state")
    assert page_.parts.device.serial in browser.find_element("tag name", "body").text


# --- the live screen --------------------------------------------------------------------------
def test_a_click_on_the_live_screen_taps_the_phone(
    console: tuple[Console, str], page: Any, vp: VirtualPhone
) -> None:
    page_, _ = console
    vp.reset()
    frame_after(page, page_)
    assert vp.current_focus()[0] != SETTINGS
    icon = vp.frame().find("Settings")
    assert icon is not None
    click_screen(page, *icon.box.center, phone_width=vp.size()[0])
    wait(page, lambda d: vp.current_focus()[0] == SETTINGS, timeout=60)
    log = by_id(page, "log").text
    assert "done: Tap" in log and "Settings" in log


def test_the_reading_shows_the_overlay_and_the_description(
    console: tuple[Console, str], page: Any, vp: VirtualPhone
) -> None:
    page_, _ = console
    vp.reset()
    frame_after(page, page_)
    by_id(page, "reading-toggle").click()
    wait(
        page,
        lambda d: (
            by_id(d, "screen").get_attribute("data-mode") == "reading"
            and "Settings" in by_id(d, "reading-text").text
        ),
        timeout=90,
    )
    assert "elements" in by_id(page, "reading-source").text
    read = page_.reading.latest()
    assert read is not None and read.size == vp.size()
    by_id(page, "reading-toggle").click()  # off: the live frames come back
    wait(page, lambda d: by_id(d, "screen").get_attribute("data-mode") == "live")
    assert not by_id(page, "reading-panel").is_displayed()


def test_a_click_on_a_sensitive_control_asks_first(
    console: tuple[Console, str], page: Any, vp: VirtualPhone
) -> None:
    page_, _ = console
    vp.reset()
    shop_state(vp, signed_in=True, email=shop.ACCOUNT_EMAIL)
    vp.open_page("shop", "account")
    assert vp.tap_text("Delete account")  # the confirmation dialog is up
    frame_after(page, page_)
    button = next(e for e in reversed(vp.frame().elements) if e.text == "Delete")
    click_screen(page, *button.box.center, phone_width=vp.size()[0])
    banner = wait(
        page, lambda d: by_id(d, "confirm") if by_id(d, "confirm").is_displayed() else None
    )
    assert "account management" in banner.text and "Delete" in banner.text
    by_id(page, "confirm-cancel").click()
    wait(page, lambda d: not by_id(d, "confirm").is_displayed())
    assert vp.app_state(shop.PACKAGE)["account_deleted"] is False


# --- runs ---------------------------------------------------------------------------------------
def start_run(driver: Any, task: str) -> None:
    box = by_id(driver, "task")
    box.clear()
    box.send_keys(task)
    by_id(driver, "run-start").click()


def test_a_run_streams_its_steps_to_the_page(
    console: tuple[Console, str], page: Any, vp: VirtualPhone, script: Script
) -> None:
    vp.reset()
    script.llm = ScriptedLLM([tap("Settings"), tap("__none__", done_when="Network")])
    start_run(page, "open the settings")
    wait(page, lambda d: by_id(d, "run-status").get_attribute("data-outcome"), timeout=120)
    status = by_id(page, "run-status")
    assert status.get_attribute("data-outcome") == "success", status.text
    steps = page.find_elements("css selector", "#steps .step")
    assert len(steps) == 2
    assert "Tap" in steps[0].text and "Settings" in steps[0].text
    assert "describe" in steps[0].find_element("class name", "timings").text
    assert steps[0].find_element("tag name", "img").get_attribute("src").startswith("data:image")
    assert vp.current_focus()[0] == SETTINGS
    report = status.find_element("link text", "report").get_attribute("href")
    page.get(report)
    assert "open the settings" in page.title


def test_stop_ends_the_run_before_its_next_turn(
    console: tuple[Console, str], page: Any, vp: VirtualPhone, script: Script
) -> None:
    page_, _ = console
    vp.reset()

    def tap_once_stopping(msgs: Sequence[Message]) -> str:
        deadline = time.monotonic() + 60  # plans until the page's Stop lands
        while page_.runs.state != "stopping" and time.monotonic() < deadline:
            time.sleep(0.1)
        return tap("Settings")(msgs)

    script.llm = ScriptedLLM([tap_once_stopping, tap("Network")])
    start_run(page, "open the network settings")
    wait(page, lambda d: script.llm.calls == 1, timeout=120)
    by_id(page, "run-stop").click()
    wait(page, lambda d: by_id(d, "run-status").get_attribute("data-outcome"), timeout=120)
    assert by_id(page, "run-status").get_attribute("data-outcome") == "aborted"
    assert script.llm.calls == 1  # no turn after Stop
    assert len(page.find_elements("css selector", "#steps .step")) == 1


def test_a_handover_shows_a_banner_and_abort_stops_the_run(
    console: tuple[Console, str], page: Any, vp: VirtualPhone, script: Script
) -> None:
    vp.reset()
    shop_state(vp, **SIGNED_IN_WITH_CART)
    orders = len(vp.app_state(shop.PACKAGE)["orders"])
    vp.open_page("shop", "payment")  # a secure payment screen
    script.llm = ScriptedLLM([tap("Pay now")] * 3)
    start_run(page, "Buy the Wireless Headphones in the Shop app")
    banner = wait(
        page,
        lambda d: by_id(d, "handover") if by_id(d, "handover").is_displayed() else None,
        timeout=90,
    )
    assert by_id(page, "handover-category").text == "payment"
    assert page.find_elements("css selector", "#handover-evidence li")
    assert by_id(page, "handover-done").is_displayed()
    assert "Abort" in banner.text and "I did it" in banner.text
    by_id(page, "handover-abort").click()
    wait(page, lambda d: by_id(d, "run-status").get_attribute("data-outcome"), timeout=60)
    assert by_id(page, "run-status").get_attribute("data-outcome") == "aborted"
    assert not by_id(page, "handover").is_displayed()
    assert script.llm.calls == 0  # it never planned past the handover
    assert len(vp.app_state(shop.PACKAGE)["orders"]) == orders
    steps = page.find_elements("css selector", "#steps .step")
    assert steps and all("Pay now" not in s.find_element("tag name", "h3").text for s in steps)


# --- what is kept -------------------------------------------------------------------------------
def test_past_runs_and_stored_demonstrations(console: tuple[Console, str], page: Any) -> None:
    page_, _ = console
    page.find_element("css selector", ".tabs [data-tab=runs]").click()
    row = wait(
        page,
        lambda d: next(
            (
                r
                for r in d.find_elements("css selector", "#runs tbody tr")
                if "a past run" in r.text
            ),
            None,
        ),
    )
    report = row.find_element("link text", "report").get_attribute("href")

    page.find_element("css selector", ".tabs [data-tab=demos]").click()
    wait(page, lambda d: len(d.find_elements("css selector", "#demos tbody tr")) == 2)
    rows = page.find_elements("css selector", "#demos tbody tr")
    wifi = next(r for r in rows if "turn on wifi" in r.text)
    wifi.find_element("xpath", ".//button[text()='Show']").click()
    detail = wait(
        page, lambda d: by_id(d, "demo-detail") if by_id(d, "demo-detail").is_displayed() else None
    )
    assert "tap 'Network & internet'" in detail.text
    clock = next(r for r in rows if "open the clock" in r.text)
    clock.find_element("xpath", ".//button[text()='Delete']").click()
    page.switch_to.alert.accept()  # "Delete the demonstration ...?"
    wait(page, lambda d: len(d.find_elements("css selector", "#demos tbody tr")) == 1)
    assert [r.instruction for r in page_.demos.store().list()] == ["turn on wifi"]
    exported = page.execute_async_script(
        "const done = arguments[0];fetch('/api/demos.jsonl').then(r => r.text()).then(done);"
    )
    assert [json.loads(line)["instruction"] for line in exported.splitlines()] == ["turn on wifi"]

    page.get(report)
    assert "a past run" in page.title


def test_a_demonstration_is_recorded_from_the_page(
    console: tuple[Console, str], page: Any, vp: VirtualPhone
) -> None:
    page_, _ = console
    vp.reset()
    frame_after(page, page_)
    page.find_element("css selector", ".tabs [data-tab=record]").click()
    by_id(page, "record-task").send_keys("open the settings")
    by_id(page, "record-start").click()
    wait(page, lambda d: by_id(d, "record-status").text.startswith("Recording"))
    time.sleep(1.0)  # the recorder listens and has a frame
    icon = vp.frame().find("Settings")
    assert icon is not None
    click_screen(page, *icon.box.center, phone_width=vp.size()[0])
    wait(page, lambda d: "tap 'Settings'" in by_id(d, "record-steps").text, timeout=90)
    by_id(page, "record-stop").click()
    status = wait(
        page,
        lambda d: (
            by_id(d, "record-status") if "Recorded" in by_id(d, "record-status").text else None
        ),
        timeout=90,
    )
    assert "Recorded 1 step " in status.text and "stored as" in status.text
    stored = [r for r in page_.demos.store().list() if r.instruction == "open the settings"]
    assert stored and stored[0].steps == ("tap 'Settings'",)


# --- what the page is told ----------------------------------------------------------------------
def test_a_step_event_never_carries_a_typed_secret() -> None:
    field = Element(
        id=0, kind=ElementKind.EDIT_TEXT, box=Box(10, 10, 300, 60), text="Password", editable=True
    )
    screen = Screen(width=400, height=800, elements=(field,))
    action = Action(
        ActionKind.TYPE, element=0, text="hunter2hunter2", secret=True, reason="type the password"
    )
    event = step_event(Step(0, screen, action, reason="type the password"))
    assert "hunter2" not in json.dumps(event)
    assert event["kind"] == "type"
