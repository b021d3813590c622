"""Settings (``com.android.settings``), laid out like Android 14's.

State that Android keeps in the settings provider lives there, under the real
keys, so that ``adb shell settings get`` sees every toggle and ``settings put``
changes the UI: global ``wifi_on``, ``bluetooth_on``, ``airplane_mode_on``,
``mobile_data``, ``zen_mode``, ``low_power``, ``device_name``,
``development_settings_enabled``, ``animator_duration_scale``...; system
``screen_brightness`` (0-255), ``screen_brightness_mode``, ``screen_off_timeout``,
``volume_music``/``volume_ring``/``volume_alarm``, ``vibrate_when_ringing``,
``accelerometer_rotation``, ``font_scale``, ``time_12_24``, ``system_locales``,
``status_bar_show_battery_percent``, ``show_password``; secure ``ui_night_mode``
(1 off, 2 on), ``location_mode``, ``lock_to_app_enabled``, ``navigation_mode``,
``notification_history_enabled``, ``accessibility_display_inversion_enabled``.
What has no settings key (the screen-lock PIN, the connected Wi-Fi network,
paired Bluetooth devices, taps on the build number) is this app's own state.

Pages: main (a searchable list, long enough to scroll), search, network,
internet, bluetooth, pair, display, sound, notifications, battery, storage,
accessibility, security, lock, pin (FLAG_SECURE), security_more, location,
apps, app_info, system, reset (a menu), erase (factory reset, with an "Erase all
data?" confirmation: a sensitive account-management screen), about. Chinese
strings for every title (``locale zh``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from screenpilot.simulator.apps.base import App, Ctx, Event, dialog, handler, page
from screenpilot.simulator.render import Page
from screenpilot.simulator.tasks import Task
from screenpilot.simulator.widgets import (
    Button,
    CheckBox,
    Column,
    Dialog,
    EditText,
    Icon,
    RadioGroup,
    Row,
    SeekBar,
    Spacer,
    Switch,
    Text,
    Widget,
    list_item,
    list_view,
    section,
)

if TYPE_CHECKING:
    from screenpilot.simulator.phone import VirtualPhone

#: (title, subtitle, icon, badge colour, page) of the main list, in Android 14's order.
MAIN_ITEMS: list[tuple[str, str, str, str, str]] = [
    ("Network & internet", "Mobile, Wi-Fi, hotspot", "wifi", "#1A73E8", "network"),
    ("Connected devices", "Bluetooth, pairing", "bluetooth_connect", "#00897B", "bluetooth"),
    ("Apps", "Recent apps, default apps", "apps", "#E8710A", "apps"),
    (
        "Notifications",
        "Notification history, conversations",
        "bell_outline",
        "#C2185B",
        "notifications",
    ),
    ("Battery", "85%", "battery_80", "#188038", "battery"),
    ("Storage", "42% used - 74.2 GB free", "harddisk", "#6750A4", "storage"),
    ("Sound & vibration", "Volume, haptics, Do Not Disturb", "volume_high", "#0097A7", "sound"),
    ("Display", "Dark theme, font size, brightness", "brightness_6", "#F4511E", "display"),
    ("Accessibility", "Display, interaction, audio", "human", "#5C6BC0", "accessibility"),
    (
        "Security & privacy",
        "App security, device lock, permissions",
        "shield_lock",
        "#43A047",
        "security",
    ),
    ("Location", "On - 3 apps have access to location", "map_marker", "#8E24AA", "location"),
    ("System", "Languages, gestures, time, backup", "information", "#757575", "system"),
    ("About phone", "screenpilot virtual phone", "cellphone", "#1E88E5", "about"),
]

WIFI_NETWORKS: list[tuple[str, int, bool]] = [
    ("HomeNet", 4, True),
    ("Office-5G", 3, True),
    ("CoffeeShop Free", 3, False),
    ("Neighbor_2.4", 2, True),
    ("DIRECT-printer", 1, True),
]
BT_SAVED = [("Pixel Buds Pro", "headphones"), ("Car Audio", "car"), ("JBL Flip 5", "speaker")]
BT_NEARBY = [
    ("Galaxy Watch5", "watch"),
    ("MX Keys", "keyboard_outline"),
    ("Living Room TV", "television"),
]
TIMEOUTS = [
    (15000, "15 seconds"),
    (30000, "30 seconds"),
    (60000, "1 minute"),
    (120000, "2 minutes"),
    (300000, "5 minutes"),
    (600000, "10 minutes"),
    (1800000, "30 minutes"),
]
FONT_SCALES = [(1.0, "Default"), (1.15, "Large"), (1.3, "Largest")]
LANGUAGES = [("en-US", "English (United States)"), ("zh-CN", "中文（中国）")]
NAV_MODES = [(2, "Gesture navigation"), (0, "3-button navigation")]
BUILD_NUMBER = "UP1A.231005.007"

ZH: dict[str, str] = {
    "Settings": "设置",
    "Search settings": "搜索设置",
    "Network & internet": "网络和互联网",
    "Mobile, Wi-Fi, hotspot": "移动网络、WLAN、热点",
    "Connected devices": "已连接的设备",
    "Bluetooth, pairing": "蓝牙、配对",
    "Apps": "应用",
    "Recent apps, default apps": "最近使用的应用、默认应用",
    "Notifications": "通知",
    "Notification history, conversations": "通知历史记录、对话",
    "Battery": "电池",
    "Storage": "存储",
    "42% used - 74.2 GB free": "已使用 42% - 可用空间 74.2 GB",
    "Sound & vibration": "声音和振动",
    "Volume, haptics, Do Not Disturb": "音量、触感反馈、勿扰",
    "Display": "显示",
    "Dark theme, font size, brightness": "深色主题、字体大小、亮度",
    "Accessibility": "无障碍",
    "Display, interaction, audio": "显示、互动、音频",
    "Security & privacy": "安全和隐私",
    "App security, device lock, permissions": "应用安全、设备锁定、权限",
    "Location": "位置信息",
    "On - 3 apps have access to location": "开启 - 3 个应用有权访问位置信息",
    "System": "系统",
    "Languages, gestures, time, backup": "语言、手势、时间、备份",
    "About phone": "关于手机",
    "Internet": "互联网",
    "Wi-Fi": "WLAN",
    "Use Wi-Fi": "使用 WLAN",
    "Airplane mode": "飞行模式",
    "Mobile data": "移动数据",
    "Connected": "已连接",
    "Saved": "已保存",
    "Off": "关闭",
    "On": "开启",
    "Not connected": "未连接",
    "Bluetooth": "蓝牙",
    "Use Bluetooth": "使用蓝牙",
    "Pair new device": "与新设备配对",
    "Saved devices": "已保存的设备",
    "Available devices": "可用的设备",
    "Device name": "设备名称",
    "Brightness level": "亮度",
    "Adaptive brightness": "自动调节亮度",
    "Dark theme": "深色主题",
    "Screen timeout": "屏幕超时",
    "Auto-rotate screen": "自动旋转屏幕",
    "Media volume": "媒体音量",
    "Call volume": "通话音量",
    "Ring volume": "铃声音量",
    "Alarm volume": "闹钟音量",
    "Vibrate for calls": "来电振动",
    "Do Not Disturb": "勿扰",
    "Notification history": "通知历史记录",
    "Battery Saver": "省电模式",
    "Battery percentage": "电量百分比",
    "Color inversion": "颜色反转",
    "Remove animations": "移除动画",
    "Font size": "字体大小",
    "Screen lock": "屏幕锁定",
    "None": "无",
    "PIN": "PIN 码",
    "Password": "密码",
    "Choose your PIN": "设置 PIN 码",
    "Confirm your PIN": "确认 PIN 码",
    "Next": "下一步",
    "Confirm": "确认",
    "More security & privacy": "更多安全和隐私设置",
    "App pinning": "固定应用",
    "Show passwords": "显示密码",
    "Notifications on lock screen": "锁定屏幕上的通知",
    "Use location": "使用位置信息",
    "Languages": "语言",
    "Use 24-hour format": "使用 24 小时制",
    "Navigation mode": "导航模式",
    "Model": "型号",
    "Android version": "Android 版本",
    "Build number": "版本号",
    "Phone number": "电话号码",
    "Open": "打开",
    "Force stop": "强行停止",
    "App info": "应用信息",
    "Cancel": "取消",
    "Connect": "连接",
    "OK": "确定",
    "Done": "完成",
    "No results": "无结果",
    "Used": "已使用",
    "15 seconds": "15 秒",
    "30 seconds": "30 秒",
    "1 minute": "1 分钟",
    "2 minutes": "2 分钟",
    "5 minutes": "5 分钟",
    "10 minutes": "10 分钟",
    "30 minutes": "30 分钟",
    "Default": "默认",
    "Large": "大",
    "Largest": "最大",
    "Gesture navigation": "手势导航",
    "3-button navigation": "三按钮导航",
    "Current screen lock": "当前屏幕锁定方式",
    "Recent access": "最近访问",
    "Images": "图片",
    "Videos": "视频",
    "Audio": "音频",
    "Documents & other": "文档及其他",
    "Reset options": "重置选项",
    "Reset Wi-Fi, mobile & Bluetooth": "重置 WLAN、移动数据网络和蓝牙设置",
    "Reset app preferences": "重置应用偏好设置",
    "Reset done": "已重置",
    "Erase all data (factory reset)": "清除所有数据（恢复出厂设置）",
    "Erase all data": "清除所有数据",
    "Erase all data?": "要清除所有数据吗？",
    "Your Google account, system and app data, downloaded apps, music and photos": (
        "您的 Google 账号、系统和应用数据、下载的应用、音乐和照片"
    ),
    "All of your personal information and downloaded apps will be deleted. This can't be undone.": (
        "您的所有个人信息和下载的应用都将被删除。此操作无法撤销。"
    ),
}
#: The factory-reset page's warning (a sensitive screen: account management).
ERASE_WARNING = "This will erase all data from your phone's internal storage"
ZH[ERASE_WARNING] = "此操作会清除您手机内部存储空间中的所有数据"


def _choice_row(ctx: Ctx, title: str, value: str, key: str) -> Widget:
    return list_item(ctx.t(title), ctx.t(value), key=key)


class SettingsApp(App):
    """Android's Settings app."""

    package = "com.android.settings"
    activity = "com.android.settings.Settings"
    label = "Settings"
    icon = "cog"
    color = "#5F6368"
    dock = True
    strings: ClassVar[dict[str, dict[str, str]]] = {"zh": ZH}
    activities: ClassVar[dict[str, str]] = {
        "com.android.settings.Settings$WifiSettingsActivity": "internet",
        "com.android.settings.Settings$NetworkDashboardActivity": "network",
        "com.android.settings.Settings$BluetoothSettingsActivity": "bluetooth",
        "com.android.settings.Settings$DisplaySettingsActivity": "display",
        "com.android.settings.Settings$SoundSettingsActivity": "sound",
        "com.android.settings.Settings$SecurityDashboardActivity": "security",
        "com.android.settings.Settings$ManageApplicationsActivity": "apps",
        "com.android.settings.Settings$MyDeviceInfoActivity": "about",
    }

    def initial_state(self) -> dict[str, Any]:
        return {
            "lock": "none",
            "pin": "",
            "pin_error": "",
            "build_taps": 0,
            "erased": False,
            "wifi_network": "HomeNet",
            "wifi_saved": ["HomeNet"],
            "bt_saved": [name for name, _ in BT_SAVED],
            "bt_connected": ["Pixel Buds Pro"],
        }

    def page_activity(self, page_name: str) -> str:
        if page_name == "main":
            return self.activity
        return "com.android.settings.SubSettings"

    # --- helpers ----------------------------------------------------------------------------
    def _switch_row(
        self, ctx: Ctx, title: str, on: bool, key: str, subtitle: str = "", icon: str = ""
    ) -> Widget:
        return list_item(
            ctx.t(title), ctx.t(subtitle), icon=icon, key=key, trailing=Switch(checked=on, key=key)
        )

    def _sub(self, ctx: Ctx, title: str, rows: list[Widget], **kw: Any) -> Page:
        return Page(title=ctx.t(title), body=list_view(rows, caption=ctx.t(title)), **kw)

    def _wifi_summary(self, ctx: Ctx) -> str:
        if ctx.setting_on("global", "airplane_mode_on") and not ctx.setting_on("global", "wifi_on"):
            return ctx.t("Airplane mode")
        if not ctx.setting_on("global", "wifi_on"):
            return ctx.t("Off")
        return str(ctx.state["wifi_network"] or ctx.t("Not connected"))

    # --- main and search ----------------------------------------------------------------------
    @page("main")
    def main(self, ctx: Ctx) -> Page:
        rows: list[Widget] = [
            list_item(ctx.t(title), ctx.t(sub), icon=icon, icon_color=color, key=f"open:{pg}")
            for title, sub, icon, color, pg in MAIN_ITEMS
        ]
        body = Column(
            children=[
                Row(
                    children=[
                        EditText(
                            field="search",
                            hint=ctx.t("Search settings"),
                            icon="magnify",
                            style="search",
                            weight=1,
                            key="open_search",
                        )
                    ],
                    padding=(16, 8, 16, 8),
                ),
                list_view(rows, caption=ctx.t("Settings")),
            ]
        )
        return Page(title=ctx.t("Settings"), back=False, body=body)

    @handler("open_search")
    def open_search(self, ctx: Ctx, ev: Event) -> None:
        ctx.open("search")
        ctx.focus("query")

    @page("search")
    def search(self, ctx: Ctx) -> Page:
        query = ctx.field("query").strip().lower()
        hits = [(ctx.t(t), ctx.t(s), i, c, p) for t, s, i, c, p in MAIN_ITEMS]
        hits += [(ctx.t(t), ctx.t(parent), "magnify", "", p) for t, parent, p in _SEARCH_EXTRA]
        rows: list[Widget] = [
            list_item(t, s, icon=i, icon_color=c, key=f"open:{p}")
            for t, s, i, c, p in hits
            if query and (query in t.lower() or query in s.lower())
        ]
        if query and not rows:
            rows = [Text(text=ctx.t("No results"), size=16, color="secondary", height=56)]
        body = Column(
            children=[
                Row(
                    children=[
                        EditText(
                            field="query",
                            hint=ctx.t("Search settings"),
                            icon="magnify",
                            style="search",
                            weight=1,
                        )
                    ],
                    padding=(16, 8, 16, 8),
                ),
                list_view(rows),
            ]
        )
        return Page(title=ctx.t("Search settings"), body=body)

    # --- network --------------------------------------------------------------------------------
    @page("network")
    def network(self, ctx: Ctx) -> Page:
        wifi = ctx.setting_on("global", "wifi_on")
        rows = [
            list_item(ctx.t("Internet"), self._wifi_summary(ctx), icon="wifi", key="open:internet"),
            self._switch_row(
                ctx,
                "Wi-Fi",
                wifi,
                "toggle_wifi",
                self._wifi_summary(ctx) if wifi else "Off",
                icon="wifi",
            ),
            self._switch_row(
                ctx,
                "Mobile data",
                ctx.setting_on("global", "mobile_data"),
                "toggle:global:mobile_data",
                "T-Mobile",
                icon="signal_cellular_3",
            ),
            self._switch_row(
                ctx,
                "Airplane mode",
                ctx.setting_on("global", "airplane_mode_on"),
                "toggle_airplane",
                icon="airplane",
            ),
        ]
        return self._sub(ctx, "Network & internet", rows)

    @page("internet")
    def internet(self, ctx: Ctx) -> Page:
        wifi = ctx.setting_on("global", "wifi_on")
        rows: list[Widget] = [self._switch_row(ctx, "Wi-Fi", wifi, "toggle_wifi")]
        if ctx.setting_on("global", "airplane_mode_on"):
            rows.insert(
                0,
                list_item(
                    ctx.t("Airplane mode"), ctx.t("On"), icon="airplane", key="toggle_airplane"
                ),
            )
        if wifi:
            for name, strength, locked in WIFI_NETWORKS:
                connected = name == ctx.state["wifi_network"]
                saved = name in ctx.state["wifi_saved"]
                status = "Connected" if connected else "Saved" if saved else ""
                icon = f"wifi_strength_{strength}" + ("_lock" if locked else "")
                rows.append(list_item(name, ctx.t(status), icon=icon, key=f"wifi_net:{name}"))
        else:
            rows.append(
                Text(
                    text="To see available networks, turn Wi-Fi on.",
                    size=14,
                    color="secondary",
                    max_lines=3,
                    height=64,
                )
            )
        return self._sub(ctx, "Internet", rows)

    @handler("toggle_wifi")
    def toggle_wifi(self, ctx: Ctx, ev: Event) -> None:
        on = not ctx.setting_on("global", "wifi_on")
        ctx.put_setting("global", "wifi_on", int(on))
        if on and not ctx.state["wifi_network"]:
            ctx.state["wifi_network"] = (
                ctx.state["wifi_saved"][0] if ctx.state["wifi_saved"] else ""
            )

    @handler("toggle_airplane")
    def toggle_airplane(self, ctx: Ctx, ev: Event) -> None:
        on = not ctx.setting_on("global", "airplane_mode_on")
        ctx.put_setting("global", "airplane_mode_on", int(on))
        if on:
            ctx.put_setting("global", "wifi_on", 0)
            ctx.put_setting("global", "bluetooth_on", 0)

    @handler("wifi_net")
    def wifi_net(self, ctx: Ctx, ev: Event) -> None:
        name = ev.arg
        locked = any(n == name and lock for n, _, lock in WIFI_NETWORKS)
        if name == ctx.state["wifi_network"]:
            ctx.show_dialog("wifi_info", network=name)
        elif locked and name not in ctx.state["wifi_saved"]:
            ctx.show_dialog("wifi_password", network=name)
            ctx.set_field("wifi_password", "")
            ctx.focus("wifi_password")
        else:
            ctx.state["wifi_network"] = name

    @dialog("wifi_password")
    def wifi_password(self, ctx: Ctx) -> Dialog:
        return Dialog(
            title=str(ctx.dialog_args.get("network", "")),
            body=Column(
                children=[
                    EditText(
                        field="wifi_password",
                        hint=ctx.t("Password"),
                        password=True,
                        submit="wifi_connect",
                    )
                ]
            ),
            buttons=[(ctx.t("Cancel"), "back"), (ctx.t("Connect"), "wifi_connect")],
        )

    @dialog("wifi_info")
    def wifi_info(self, ctx: Ctx) -> Dialog:
        return Dialog(
            title=str(ctx.dialog_args.get("network", "")),
            body=f"{ctx.t('Connected')}\nSignal strength: Excellent\nSecurity: WPA2",
            buttons=[("Forget", "wifi_forget"), (ctx.t("Done"), "back")],
        )

    @handler("wifi_connect")
    def wifi_connect(self, ctx: Ctx, ev: Event) -> None:
        name = str(ctx.dialog_args.get("network", ""))
        if len(ctx.field("wifi_password")) < 8:
            ctx.toast("Password must be at least 8 characters")
            return
        ctx.state["wifi_saved"].append(name)
        ctx.state["wifi_network"] = name
        ctx.close_dialog()

    @handler("wifi_forget")
    def wifi_forget(self, ctx: Ctx, ev: Event) -> None:
        name = str(ctx.dialog_args.get("network", ""))
        ctx.state["wifi_saved"] = [n for n in ctx.state["wifi_saved"] if n != name]
        ctx.state["wifi_network"] = ""
        ctx.close_dialog()

    # --- bluetooth ------------------------------------------------------------------------------
    @page("bluetooth")
    def bluetooth(self, ctx: Ctx) -> Page:
        on = ctx.setting_on("global", "bluetooth_on")
        rows: list[Widget] = [
            self._switch_row(ctx, "Use Bluetooth", on, "toggle_bt", icon="bluetooth")
        ]
        if on:
            rows.append(
                list_item(
                    ctx.t("Device name"), ctx.setting("global", "device_name"), icon="cellphone"
                )
            )
            rows.append(list_item(ctx.t("Pair new device"), icon="plus", key="open:pair"))
            rows.append(section(ctx.t("Saved devices")))
            icons = dict(BT_SAVED + BT_NEARBY)
            for name in ctx.state["bt_saved"]:
                status = "Connected" if name in ctx.state["bt_connected"] else "Saved"
                rows.append(
                    list_item(
                        name,
                        ctx.t(status),
                        icon=icons.get(name, "bluetooth"),
                        key=f"bt_device:{name}",
                    )
                )
        return self._sub(ctx, "Connected devices", rows)

    @page("pair")
    def pair(self, ctx: Ctx) -> Page:
        rows: list[Widget] = [section(ctx.t("Available devices"))]
        rows += [
            list_item(name, icon=icon, key=f"bt_pair:{name}")
            for name, icon in BT_NEARBY
            if name not in ctx.state["bt_saved"]
        ]
        return self._sub(ctx, "Pair new device", rows)

    @handler("toggle_bt")
    def toggle_bt(self, ctx: Ctx, ev: Event) -> None:
        ctx.put_setting("global", "bluetooth_on", int(not ctx.setting_on("global", "bluetooth_on")))

    @handler("bt_device")
    def bt_device(self, ctx: Ctx, ev: Event) -> None:
        connected: list[str] = ctx.state["bt_connected"]
        if ev.arg in connected:
            connected.remove(ev.arg)
        else:
            connected.append(ev.arg)

    @handler("bt_pair")
    def bt_pair(self, ctx: Ctx, ev: Event) -> None:
        if ev.arg not in ctx.state["bt_saved"]:
            ctx.state["bt_saved"].append(ev.arg)
            ctx.state["bt_connected"].append(ev.arg)
        ctx.back()

    # --- display, sound -------------------------------------------------------------------------
    @page("display")
    def display(self, ctx: Ctx) -> Page:
        timeout = ctx.setting_int("system", "screen_off_timeout", 30000)
        label = next((t for ms, t in TIMEOUTS if ms == timeout), f"{timeout // 1000} seconds")
        scale = ctx.setting_float("system", "font_scale", 1.0)
        font = next((t for s, t in FONT_SCALES if abs(s - scale) < 0.01), f"{scale:g}x")
        rows: list[Widget] = [
            Column(
                children=[
                    Text(text=ctx.t("Brightness level"), size=16),
                    SeekBar(
                        value=ctx.setting_int("system", "screen_brightness") / 255,
                        key="brightness",
                        caption=ctx.t("Brightness level"),
                    ),
                ],
                padding=(16, 12, 16, 8),
            ),
            self._switch_row(
                ctx,
                "Adaptive brightness",
                ctx.setting_on("system", "screen_brightness_mode"),
                "toggle:system:screen_brightness_mode",
            ),
            self._switch_row(
                ctx, "Dark theme", ctx.setting_int("secure", "ui_night_mode", 1) == 2, "toggle_dark"
            ),
            _choice_row(ctx, "Screen timeout", label, "choose:timeout"),
            _choice_row(ctx, "Font size", font, "choose:font"),
            self._switch_row(
                ctx,
                "Auto-rotate screen",
                ctx.setting_on("system", "accelerometer_rotation"),
                "toggle:system:accelerometer_rotation",
            ),
        ]
        return self._sub(ctx, "Display", rows)

    @handler("brightness")
    def brightness(self, ctx: Ctx, ev: Event) -> None:
        if ev.value is not None:
            ctx.put_setting("system", "screen_brightness", round(ev.value * 255))

    @handler("toggle_dark")
    def toggle_dark(self, ctx: Ctx, ev: Event) -> None:
        dark = ctx.setting_int("secure", "ui_night_mode", 1) == 2
        ctx.put_setting("secure", "ui_night_mode", 1 if dark else 2)

    @page("sound")
    def sound(self, ctx: Ctx) -> Page:
        rows: list[Widget] = []
        for title, key, top in (
            ("Media volume", "volume_music", 15),
            ("Call volume", "volume_voice", 5),
            ("Ring volume", "volume_ring", 7),
            ("Alarm volume", "volume_alarm", 7),
        ):
            rows.append(
                Column(
                    children=[
                        Text(text=ctx.t(title), size=16),
                        SeekBar(
                            value=ctx.setting_int("system", key) / top,
                            key=f"volume:{key}:{top}",
                            caption=ctx.t(title),
                        ),
                    ],
                    padding=(16, 12, 16, 4),
                )
            )
        rows.append(
            Row(
                children=[
                    Text(text=ctx.t("Vibrate for calls"), size=16, weight=1),
                    CheckBox(
                        checked=ctx.setting_on("system", "vibrate_when_ringing"),
                        key="toggle:system:vibrate_when_ringing",
                    ),
                ],
                padding=(16, 8, 12, 8),
                key="toggle:system:vibrate_when_ringing",
            )
        )
        rows.append(
            self._switch_row(
                ctx,
                "Do Not Disturb",
                ctx.setting_on("global", "zen_mode"),
                "toggle:global:zen_mode",
            )
        )
        return self._sub(ctx, "Sound & vibration", rows)

    @handler("volume")
    def volume(self, ctx: Ctx, ev: Event) -> None:
        key, _, top = ev.arg.partition(":")
        if ev.value is not None and top.isdigit():
            ctx.put_setting("system", key, round(ev.value * int(top)))

    @handler("toggle")
    def toggle(self, ctx: Ctx, ev: Event) -> None:
        """``toggle:NAMESPACE:KEY`` flips a 0/1 setting."""
        namespace, _, key = ev.arg.partition(":")
        ctx.put_setting(namespace, key, int(not ctx.setting_on(namespace, key)))

    # --- choice dialogs -------------------------------------------------------------------------
    def _choices(self, ctx: Ctx, which: str) -> tuple[str, list[str], int]:
        if which == "timeout":
            cur = ctx.setting_int("system", "screen_off_timeout", 30000)
            return (
                "Screen timeout",
                [t for _, t in TIMEOUTS],
                next((i for i, (ms, _) in enumerate(TIMEOUTS) if ms == cur), -1),
            )
        if which == "font":
            cur_f = ctx.setting_float("system", "font_scale", 1.0)
            return (
                "Font size",
                [t for _, t in FONT_SCALES],
                next((i for i, (s, _) in enumerate(FONT_SCALES) if abs(s - cur_f) < 0.01), -1),
            )
        if which == "language":
            cur_l = ctx.setting("system", "system_locales", "en-US")
            return (
                "Languages",
                [t for _, t in LANGUAGES],
                next((i for i, (c, _) in enumerate(LANGUAGES) if c == cur_l), -1),
            )
        cur_n = ctx.setting_int("secure", "navigation_mode", 0)
        return (
            "Navigation mode",
            [t for _, t in NAV_MODES],
            next((i for i, (m, _) in enumerate(NAV_MODES) if m == cur_n), -1),
        )

    @handler("choose")
    def choose(self, ctx: Ctx, ev: Event) -> None:
        ctx.show_dialog("choice", which=ev.arg)

    @dialog("choice")
    def choice(self, ctx: Ctx) -> Dialog:
        which = str(ctx.dialog_args.get("which", ""))
        title, options, selected = self._choices(ctx, which)
        return Dialog(
            title=ctx.t(title),
            body=RadioGroup(
                options=[ctx.t(o) for o in options], selected=selected, key=f"chosen:{which}"
            ),
            buttons=[(ctx.t("Cancel"), "back")],
        )

    @handler("chosen")
    def chosen(self, ctx: Ctx, ev: Event) -> None:
        i = int(ev.value or 0)
        if ev.arg == "timeout":
            ctx.put_setting("system", "screen_off_timeout", TIMEOUTS[i][0])
        elif ev.arg == "font":
            ctx.put_setting("system", "font_scale", FONT_SCALES[i][0])
        elif ev.arg == "language":
            ctx.put_setting("system", "system_locales", LANGUAGES[i][0])
        else:
            ctx.put_setting("secure", "navigation_mode", NAV_MODES[i][0])
        ctx.close_dialog()

    # --- notifications, battery, storage, accessibility, location --------------------------------
    @page("notifications")
    def notifications(self, ctx: Ctx) -> Page:
        return self._sub(
            ctx,
            "Notifications",
            [
                self._switch_row(
                    ctx,
                    "Notification history",
                    ctx.setting_on("secure", "notification_history_enabled"),
                    "toggle:secure:notification_history_enabled",
                    icon="history",
                ),
                self._switch_row(
                    ctx,
                    "Do Not Disturb",
                    ctx.setting_on("global", "zen_mode"),
                    "toggle:global:zen_mode",
                    icon="minus_circle_outline",
                ),
                self._switch_row(
                    ctx,
                    "Notifications on lock screen",
                    ctx.setting_on("secure", "lock_screen_show_notifications"),
                    "toggle:secure:lock_screen_show_notifications",
                    icon="cellphone_lock",
                ),
            ],
        )

    @page("battery")
    def battery(self, ctx: Ctx) -> Page:
        level = ctx.host.getprop("sys.battery.level") or "85"
        return self._sub(
            ctx,
            "Battery",
            [
                Column(
                    children=[
                        Text(text=f"{level}%", size=36),
                        Text(text="About 1 day, 4 hr left", size=14, color="secondary"),
                    ],
                    padding=(16, 16, 16, 16),
                    spacing=4,
                ),
                self._switch_row(
                    ctx,
                    "Battery Saver",
                    ctx.setting_on("global", "low_power"),
                    "toggle:global:low_power",
                    icon="leaf",
                ),
                self._switch_row(
                    ctx,
                    "Battery percentage",
                    ctx.setting_on("system", "status_bar_show_battery_percent"),
                    "toggle:system:status_bar_show_battery_percent",
                    icon="percent",
                ),
            ],
        )

    @page("storage")
    def storage(self, ctx: Ctx) -> Page:
        rows: list[Widget] = [
            Column(
                children=[
                    Text(text="53.8 GB", size=36),
                    Text(text=f"{ctx.t('Used')} / 128 GB", size=14, color="secondary"),
                    SeekBar(value=0.42, caption="Storage used"),
                ],
                padding=16,
                spacing=4,
            )
        ]
        for name, size, icon in (
            ("Apps", "21.4 GB", "apps"),
            ("Images", "9.7 GB", "image"),
            ("Videos", "6.2 GB", "video"),
            ("Audio", "1.1 GB", "music_note"),
            ("Documents & other", "0.9 GB", "file_document"),
            ("System", "14.5 GB", "cellphone_cog"),
        ):
            rows.append(list_item(ctx.t(name), size, icon=icon))
        return self._sub(ctx, "Storage", rows)

    @page("accessibility")
    def accessibility(self, ctx: Ctx) -> Page:
        scale = ctx.setting_float("system", "font_scale", 1.0)
        font = next((t for s, t in FONT_SCALES if abs(s - scale) < 0.01), f"{scale:g}x")
        return self._sub(
            ctx,
            "Accessibility",
            [
                _choice_row(ctx, "Font size", font, "choose:font"),
                self._switch_row(
                    ctx,
                    "Color inversion",
                    ctx.setting_on("secure", "accessibility_display_inversion_enabled"),
                    "toggle:secure:accessibility_display_inversion_enabled",
                    icon="invert_colors",
                ),
                self._switch_row(
                    ctx,
                    "Remove animations",
                    ctx.setting_float("global", "animator_duration_scale", 1.0) == 0,
                    "toggle_animations",
                    icon="animation",
                ),
            ],
        )

    @handler("toggle_animations")
    def toggle_animations(self, ctx: Ctx, ev: Event) -> None:
        value = "1.0" if ctx.setting_float("global", "animator_duration_scale", 1.0) == 0 else "0"
        for key in (
            "animator_duration_scale",
            "transition_animation_scale",
            "window_animation_scale",
        ):
            ctx.put_setting("global", key, value)

    @page("location")
    def location(self, ctx: Ctx) -> Page:
        on = ctx.setting_int("secure", "location_mode") != 0
        rows: list[Widget] = [
            self._switch_row(ctx, "Use location", on, "toggle_location", icon="map_marker")
        ]
        if on:
            rows.append(section(ctx.t("Recent access")))
            rows += [
                list_item(
                    app.label,
                    "Within the last 15 minutes",
                    leading=Icon(
                        name=app.icon, size=22, box=40, color="white", background=app.color
                    ),
                )
                for app in ctx.apps()[:3]
                if app.launcher_visible
            ]
        return self._sub(ctx, "Location", rows)

    @handler("toggle_location")
    def toggle_location(self, ctx: Ctx, ev: Event) -> None:
        on = ctx.setting_int("secure", "location_mode") != 0
        ctx.put_setting("secure", "location_mode", 0 if on else 3)

    # --- security -------------------------------------------------------------------------------
    @page("security")
    def security(self, ctx: Ctx) -> Page:
        lock = {"none": "None", "pin": "PIN"}.get(ctx.state["lock"], "None")
        return self._sub(
            ctx,
            "Security & privacy",
            [
                list_item(ctx.t("Screen lock"), ctx.t(lock), icon="lock_outline", key="open:lock"),
                list_item(
                    "Face & Fingerprint Unlock", "Setup needed", icon="fingerprint", enabled=False
                ),
                list_item(
                    ctx.t("More security & privacy"),
                    "Encryption, credentials, and more",
                    icon="shield_account",
                    key="open:security_more",
                ),
            ],
        )

    @page("lock")
    def lock(self, ctx: Ctx) -> Page:
        current = ctx.state["lock"]
        return self._sub(
            ctx,
            "Screen lock",
            [
                list_item(
                    ctx.t("None"),
                    ctx.t("Current screen lock") if current == "none" else "",
                    key="set_lock_none",
                ),
                list_item(
                    ctx.t("PIN"),
                    ctx.t("Current screen lock") if current == "pin" else "",
                    key="choose_pin",
                ),
            ],
        )

    @handler("set_lock_none")
    def set_lock_none(self, ctx: Ctx, ev: Event) -> None:
        ctx.state["lock"], ctx.state["pin"] = "none", ""
        ctx.back()

    @handler("choose_pin")
    def choose_pin(self, ctx: Ctx, ev: Event) -> None:
        ctx.state["pin_error"] = ""
        ctx.open("pin", stage="choose")
        ctx.focus("pin")

    @page("pin")
    def pin(self, ctx: Ctx) -> Page:
        confirm = ctx.args.get("stage") == "confirm"
        title = ctx.t("Confirm your PIN" if confirm else "Choose your PIN")
        parts: list[Widget] = [
            Icon(name="lock_outline", size=32, color="accent"),
            Text(text=title, size=28, max_lines=2),
            Text(text="PIN must be at least 4 digits", size=14, color="secondary"),
            EditText(field="pin", hint=ctx.t("PIN"), password=True, submit="pin_next"),
        ]
        if ctx.state["pin_error"]:
            parts.append(Text(text=ctx.state["pin_error"], size=14, color="error", max_lines=2))
        parts += [
            Spacer(height=16),
            Row(
                children=[
                    Button(text=ctx.t("Cancel"), style="text", key="back"),
                    Spacer(weight=1),
                    Button(text=ctx.t("Confirm" if confirm else "Next"), key="pin_next"),
                ]
            ),
        ]
        body = Column(children=parts, padding=24, spacing=16, align="stretch")
        return Page(
            title="",
            body=body,
            secure=True,
            activity="com.android.settings.password.ChooseLockPassword",
        )

    @handler("pin_next")
    def pin_next(self, ctx: Ctx, ev: Event) -> None:
        value = ctx.field("pin")
        if len(value) < 4 or not value.isdigit():
            ctx.state["pin_error"] = "PIN must be at least 4 digits"
        elif ctx.args.get("stage") != "confirm":
            ctx.state["pin_error"] = ""
            ctx.open("pin", stage="confirm", first=value)
            ctx.focus("pin")
        elif value != ctx.args.get("first"):
            ctx.state["pin_error"] = "PINs don't match"
            ctx.set_field("pin", "")
        else:
            ctx.state.update(lock="pin", pin=value, pin_error="")
            ctx.back_to("security")
            ctx.toast("PIN set")

    @page("security_more")
    def security_more(self, ctx: Ctx) -> Page:
        return self._sub(
            ctx,
            "More security & privacy",
            [
                self._switch_row(
                    ctx,
                    "App pinning",
                    ctx.setting_on("secure", "lock_to_app_enabled"),
                    "toggle:secure:lock_to_app_enabled",
                    icon="pin_outline",
                ),
                self._switch_row(
                    ctx,
                    "Show passwords",
                    ctx.setting_on("system", "show_password"),
                    "toggle:system:show_password",
                    icon="form_textbox_password",
                ),
                self._switch_row(
                    ctx,
                    "Notifications on lock screen",
                    ctx.setting_on("secure", "lock_screen_show_notifications"),
                    "toggle:secure:lock_screen_show_notifications",
                    icon="cellphone_lock",
                ),
            ],
        )

    # --- apps -----------------------------------------------------------------------------------
    @page("apps")
    def apps(self, ctx: Ctx) -> Page:
        installed = sorted(
            (a for a in ctx.apps() if a.launcher_visible), key=lambda a: a.label.lower()
        )
        rows: list[Widget] = [section(f"{len(installed)} apps")]
        rows += [
            list_item(
                a.strings.get(ctx.locale, {}).get(a.label, a.label),
                a.package,
                leading=Icon(name=a.icon, size=22, box=40, color="white", background=a.color),
                key=f"app_info:{a.package}",
            )
            for a in installed
        ]
        return self._sub(ctx, "Apps", rows)

    @handler("app_info")
    def app_info_open(self, ctx: Ctx, ev: Event) -> None:
        ctx.open("app_info", package=ev.arg)

    @page("app_info")
    def app_info(self, ctx: Ctx) -> Page:
        package = str(ctx.args.get("package", ""))
        app = next((a for a in ctx.apps() if a.package == package), None)
        label = app.label if app else package
        head: list[Widget] = []
        if app is not None:
            head.append(Icon(name=app.icon, size=40, box=72, color="white", background=app.color))
        head += [
            Text(text=label, size=24, align="center"),
            Text(text=package, size=14, color="secondary", align="center"),
            Row(
                children=[
                    Button(
                        text=ctx.t("Open"),
                        style="tonal",
                        icon="open_in_new",
                        key=f"launch:{package}",
                    ),
                    Button(
                        text=ctx.t("Force stop"),
                        style="tonal",
                        icon="close",
                        key=f"force_stop:{package}",
                    ),
                ],
                justify="center",
                spacing=16,
            ),
        ]
        body = Column(
            children=[
                Column(children=head, align="center", spacing=8, padding=(16, 16, 16, 16)),
                list_view(
                    [
                        list_item(ctx.t("Notifications"), ctx.t("On"), icon="bell_outline"),
                        list_item("Permissions", "No permissions requested", icon="key"),
                        list_item(
                            ctx.t("Storage"), "24.6 MB used in internal storage", icon="harddisk"
                        ),
                    ]
                ),
            ]
        )
        return Page(title=ctx.t("App info"), body=body)

    @handler("force_stop")
    def force_stop(self, ctx: Ctx, ev: Event) -> None:
        ctx.host.force_stop(ev.arg)

    # --- system and about -----------------------------------------------------------------------
    @page("system")
    def system(self, ctx: Ctx) -> Page:
        locale = ctx.setting("system", "system_locales", "en-US")
        language = dict(LANGUAGES).get(locale, locale)
        nav = dict(NAV_MODES).get(ctx.setting_int("secure", "navigation_mode"), "")
        return self._sub(
            ctx,
            "System",
            [
                list_item(ctx.t("Languages"), language, icon="translate", key="choose:language"),
                self._switch_row(
                    ctx,
                    "Use 24-hour format",
                    ctx.setting("system", "time_12_24", "12") == "24",
                    "toggle_24h",
                    icon="clock_time_four_outline",
                ),
                list_item(ctx.t("Navigation mode"), ctx.t(nav), icon="gesture", key="choose:nav"),
                list_item(ctx.t("Reset options"), icon="restore", key="open:reset"),
            ],
        )

    # --- reset (a look-alike menu, then the sensitive factory-reset screen) ----------------------
    @page("reset")
    def reset(self, ctx: Ctx) -> Page:
        return self._sub(
            ctx,
            "Reset options",
            [
                list_item(ctx.t("Reset Wi-Fi, mobile & Bluetooth"), key="reset_network"),
                list_item(ctx.t("Reset app preferences"), key="reset_apps"),
                list_item(ctx.t("Erase all data (factory reset)"), key="open:erase"),
            ],
        )

    @handler("reset_network", "reset_apps")
    def reset_something(self, ctx: Ctx, ev: Event) -> None:
        ctx.toast(ctx.t("Reset done"))

    @page("erase")
    def erase(self, ctx: Ctx) -> Page:
        body = Column(
            children=[
                Text(text=ctx.t(ERASE_WARNING), size=16, max_lines=8),
                Text(
                    text=ctx.t(
                        "Your Google account, system and app data, downloaded apps, "
                        "music and photos"
                    ),
                    size=14,
                    color="secondary",
                    max_lines=4,
                ),
                Row(
                    children=[
                        Spacer(weight=1),
                        Button(text=ctx.t("Erase all data"), key="ask_erase"),
                    ]
                ),
            ],
            padding=(16, 16, 16, 16),
            spacing=16,
        )
        return Page(title=ctx.t("Erase all data (factory reset)"), body=body)

    @handler("ask_erase")
    def ask_erase(self, ctx: Ctx, ev: Event) -> None:
        ctx.show_dialog("erase")

    @dialog("erase")
    def erase_dialog(self, ctx: Ctx) -> Dialog:
        return Dialog(
            title=ctx.t("Erase all data?"),
            icon="alert_outline",
            body=ctx.t(
                "All of your personal information and downloaded apps will be "
                "deleted. This can't be undone."
            ),
            buttons=[(ctx.t("Cancel"), "back"), (ctx.t("Erase all data"), "erase_all")],
        )

    @handler("erase_all")
    def erase_all(self, ctx: Ctx, ev: Event) -> None:
        ctx.state["erased"] = True
        ctx.close_dialog()
        ctx.back_to("main")

    @handler("toggle_24h")
    def toggle_24h(self, ctx: Ctx, ev: Event) -> None:
        on = ctx.setting("system", "time_12_24", "12") == "24"
        ctx.put_setting("system", "time_12_24", "12" if on else "24")

    @page("about")
    def about(self, ctx: Ctx) -> Page:
        return self._sub(
            ctx,
            "About phone",
            [
                list_item(ctx.t("Device name"), ctx.setting("global", "device_name")),
                list_item(ctx.t("Phone number"), "+1 650-555-0123"),
                list_item(ctx.t("Model"), ctx.host.getprop("ro.product.model")),
                list_item(ctx.t("Android version"), ctx.host.getprop("ro.build.version.release")),
                list_item(
                    ctx.t("Build number"),
                    ctx.host.getprop("ro.build.display.id"),
                    key="build_number",
                ),
            ],
        )

    @handler("build_number")
    def build_number(self, ctx: Ctx, ev: Event) -> None:
        if ctx.setting_on("global", "development_settings_enabled"):
            ctx.toast("No need, you are already a developer.")
            return
        ctx.state["build_taps"] += 1
        left = 7 - ctx.state["build_taps"]
        if left <= 0:
            ctx.put_setting("global", "development_settings_enabled", 1)
            ctx.toast("You are now a developer!")
        elif left <= 4:
            ctx.toast(f"You are now {left} steps away from being a developer.")


#: Deeper entries search finds: (title, where it lives, page).
_SEARCH_EXTRA: list[tuple[str, str, str]] = [
    ("Wi-Fi", "Network & internet", "internet"),
    ("Airplane mode", "Network & internet", "network"),
    ("Bluetooth", "Connected devices", "bluetooth"),
    ("Dark theme", "Display", "display"),
    ("Brightness level", "Display", "display"),
    ("Screen timeout", "Display", "display"),
    ("Media volume", "Sound & vibration", "sound"),
    ("Screen lock", "Security & privacy", "security"),
    ("App pinning", "More security & privacy", "security_more"),
    ("Languages", "System", "system"),
    ("Build number", "About phone", "about"),
    ("Battery Saver", "Battery", "battery"),
    ("Font size", "Display", "display"),
]


# --- the task suite ---------------------------------------------------------------------------
_PKG = "com.android.settings"


def _put(namespace: str, key: str, value: str) -> Callable[[VirtualPhone], None]:
    """A setup that writes one setting."""

    def setup(phone: VirtualPhone) -> None:
        phone.settings_put(namespace, key, value)

    return setup


def _puts(*items: tuple[str, str, str]) -> Callable[[VirtualPhone], None]:
    """A setup that writes several settings."""

    def setup(phone: VirtualPhone) -> None:
        for namespace, key, value in items:
            phone.settings_put(namespace, key, value)

    return setup


def _is(namespace: str, key: str, *values: str) -> Callable[[VirtualPhone], bool]:
    """A check that a setting holds one of ``values``."""

    def check(phone: VirtualPhone) -> bool:
        return phone.settings_get(namespace, key) in values

    return check


def _on_page(page_name: str) -> Callable[[VirtualPhone], bool]:
    """A check that Settings is in front showing ``page_name``."""

    def check(phone: VirtualPhone) -> bool:
        tasks = phone.state["tasks"]
        return (
            phone.current_focus()[0] == _PKG
            and _PKG in tasks
            and tasks[_PKG][-1]["page"] == page_name
        )

    return check


def _pin_is(pin: str) -> Callable[[VirtualPhone], bool]:
    def check(phone: VirtualPhone) -> bool:
        state = phone.app_state(_PKG)
        return state.get("lock") == "pin" and state.get("pin") == pin

    return check


def _wifi_network_is(name: str) -> Callable[[VirtualPhone], bool]:
    def check(phone: VirtualPhone) -> bool:
        return (
            phone.settings_get("global", "wifi_on") == "1"
            and phone.app_state(_PKG).get("wifi_network") == name
        )

    return check


def _all(*checks: Callable[[VirtualPhone], bool]) -> Callable[[VirtualPhone], bool]:
    def check(phone: VirtualPhone) -> bool:
        return all(c(phone) for c in checks)

    return check


_OPEN = "tap 'Settings'"
_DEV_TAPS = tuple(["tap 'Build number'"] * 7)

TASKS: list[Task] = [
    Task(
        "settings_wifi_off",
        _PKG,
        "Turn wifi off.",
        _is("global", "wifi_on", "0"),
        3,
        params={"on_or_off": "off"},
        setup=_put("global", "wifi_on", "1"),
        paraphrases=(
            "Could you disable Wi-Fi?",
            "switch off the wifi on my phone",
            "I don't want to be on Wi-Fi, turn it off",
        ),
        solution=(_OPEN, "tap 'Network & internet'", "tap the 'Wi-Fi' switch"),
    ),
    Task(
        "settings_wifi_on",
        _PKG,
        "Turn wifi on.",
        _is("global", "wifi_on", "1"),
        3,
        params={"on_or_off": "on"},
        setup=_put("global", "wifi_on", "0"),
        paraphrases=("Could you enable Wi-Fi?", "wifi on please", "Switch Wi-Fi back on."),
        solution=(_OPEN, "tap 'Network & internet'", "tap the 'Wi-Fi' switch"),
    ),
    Task(
        "settings_bluetooth_off",
        _PKG,
        "Turn bluetooth off.",
        _is("global", "bluetooth_on", "0"),
        3,
        params={"on_or_off": "off"},
        setup=_put("global", "bluetooth_on", "1"),
        paraphrases=("Turn off my bluetooth", "Disable Bluetooth.", "please switch bluetooth off"),
        solution=(_OPEN, "tap 'Connected devices'", "tap the 'Use Bluetooth' switch"),
    ),
    Task(
        "settings_bluetooth_on",
        _PKG,
        "Turn bluetooth on.",
        _is("global", "bluetooth_on", "1"),
        3,
        params={"on_or_off": "on"},
        setup=_put("global", "bluetooth_on", "0"),
        paraphrases=(
            "Enable Bluetooth.",
            "Can you switch on bluetooth?",
            "I need bluetooth turned on",
        ),
        solution=(_OPEN, "tap 'Connected devices'", "tap the 'Use Bluetooth' switch"),
    ),
    Task(
        "settings_airplane_on",
        _PKG,
        "Turn on airplane mode of my phone",
        _is("global", "airplane_mode_on", "1"),
        3,
        params={"on_or_off": "on"},
        paraphrases=(
            "Enable airplane mode.",
            "Put the phone in flight mode",
            "switch airplane mode on",
        ),
        solution=(_OPEN, "tap 'Network & internet'", "tap the 'Airplane mode' switch"),
    ),
    Task(
        "settings_wifi_off_bluetooth_on",
        _PKG,
        "Turn off WiFi, then enable bluetooth",
        _all(_is("global", "wifi_on", "0"), _is("global", "bluetooth_on", "1")),
        6,
        setup=_puts(("global", "wifi_on", "1"), ("global", "bluetooth_on", "0")),
        difficulty="medium",
        paraphrases=("Disable Wi-Fi and turn Bluetooth on.", "switch bluetooth on and wifi off"),
        solution=(
            _OPEN,
            "tap 'Network & internet'",
            "tap the 'Wi-Fi' switch",
            "press back",
            "tap 'Connected devices'",
            "tap the 'Use Bluetooth' switch",
        ),
    ),
    Task(
        "settings_dark_theme_on",
        _PKG,
        "Turn my phone to Dark theme",
        _is("secure", "ui_night_mode", "2"),
        3,
        setup=_put("secure", "ui_night_mode", "1"),
        paraphrases=(
            "Enable dark mode.",
            "Switch the display to the dark theme",
            "could you turn on dark theme?",
        ),
        solution=(_OPEN, "tap 'Display'", "tap the 'Dark theme' switch"),
    ),
    Task(
        "settings_dark_theme_off",
        _PKG,
        "Turn dark theme off.",
        _is("secure", "ui_night_mode", "1"),
        3,
        setup=_put("secure", "ui_night_mode", "2"),
        paraphrases=("Go back to the light theme.", "disable dark mode"),
        solution=(_OPEN, "tap 'Display'", "tap the 'Dark theme' switch"),
    ),
    Task(
        "settings_brightness_max",
        _PKG,
        "Turn brightness to the max value.",
        _is("system", "screen_brightness", "255"),
        3,
        params={"max_or_min": "max"},
        paraphrases=(
            "Set the screen brightness to 100%.",
            "make the screen as bright as it goes",
            "Max out the brightness level",
        ),
        solution=(_OPEN, "tap 'Display'", "drag the 'Brightness level' slider to 100%"),
    ),
    Task(
        "settings_brightness_min",
        _PKG,
        "Change my Brightness level to 0%",
        _is("system", "screen_brightness", "0"),
        3,
        params={"max_or_min": "min"},
        paraphrases=("Turn brightness to the min value.", "dim the screen all the way down"),
        solution=(_OPEN, "tap 'Display'", "drag the 'Brightness level' slider to 0%"),
    ),
    Task(
        "settings_media_volume_max",
        _PKG,
        "Set the media volume to max",
        _is("system", "volume_music", "15"),
        3,
        paraphrases=("Turn the media volume all the way up.", "max media volume please"),
        solution=(_OPEN, "tap 'Sound & vibration'", "drag the 'Media volume' slider to 100%"),
    ),
    Task(
        "settings_alarm_volume_mute",
        _PKG,
        "Turn the alarm volume down to 0%",
        _is("system", "volume_alarm", "0"),
        3,
        paraphrases=("Mute the alarm volume.", "set alarm volume to zero"),
        solution=(_OPEN, "tap 'Sound & vibration'", "drag the 'Alarm volume' slider to 0%"),
    ),
    Task(
        "settings_vibrate_off",
        _PKG,
        "Turn off Ring vibration",
        _is("system", "vibrate_when_ringing", "0"),
        3,
        setup=_put("system", "vibrate_when_ringing", "1"),
        paraphrases=("Stop the phone vibrating for calls.", "disable vibrate for calls"),
        solution=(_OPEN, "tap 'Sound & vibration'", "tap 'Vibrate for calls'"),
    ),
    Task(
        "settings_battery_percentage",
        _PKG,
        "Show battery percentage in status bar",
        _is("system", "status_bar_show_battery_percent", "1"),
        3,
        paraphrases=("Turn on the battery percentage.", "display battery % in the status bar"),
        solution=(_OPEN, "tap 'Battery'", "tap the 'Battery percentage' switch"),
    ),
    Task(
        "settings_dnd_on",
        _PKG,
        "Turn on Do Not Disturb.",
        _is("global", "zen_mode", "1"),
        3,
        paraphrases=("Enable do not disturb mode", "silence notifications with Do Not Disturb"),
        solution=(_OPEN, "tap 'Notifications'", "tap the 'Do Not Disturb' switch"),
    ),
    Task(
        "settings_screen_timeout_5min",
        _PKG,
        "Set the screen timeout to 5 minutes.",
        _is("system", "screen_off_timeout", "300000"),
        4,
        params={"timeout": "5 minutes"},
        paraphrases=(
            "Make the screen turn off after 5 minutes",
            "change screen timeout to five minutes",
        ),
        solution=(_OPEN, "tap 'Display'", "tap 'Screen timeout'", "tap '5 minutes'"),
    ),
    Task(
        "settings_location_off",
        _PKG,
        "Turn off location.",
        _is("secure", "location_mode", "0"),
        4,
        paraphrases=("Disable location services", "stop apps from using my location"),
        solution=(_OPEN, "scroll down", "tap 'Location'", "tap the 'Use location' switch"),
    ),
    Task(
        "settings_24_hour",
        _PKG,
        "Use the 24-hour time format.",
        _is("system", "time_12_24", "24"),
        4,
        paraphrases=("Switch the clock to 24-hour format", "show time in 24h"),
        solution=(_OPEN, "scroll down", "tap 'System'", "tap the 'Use 24-hour format' switch"),
    ),
    Task(
        "settings_screen_lock_pin",
        _PKG,
        "Set a screen lock PIN of 1234.",
        _pin_is("1234"),
        9,
        params={"pin": "1234"},
        sensitive="authentication",
        difficulty="medium",
        paraphrases=(
            "Protect my phone with the PIN 1234",
            "set up PIN 1234 as the screen lock",
            "Use 1234 as my lock screen PIN.",
        ),
        solution=(
            _OPEN,
            "scroll down",
            "tap 'Security & privacy'",
            "tap 'Screen lock'",
            "tap 'PIN'",
            "type '1234' into 'PIN'",
            "tap 'Next'",
            "type '1234' into 'PIN'",
            "tap 'Confirm'",
        ),
    ),
    Task(
        "settings_app_pinning_on",
        _PKG,
        "Turn on app pinning.",
        _is("secure", "lock_to_app_enabled", "1"),
        5,
        difficulty="medium",
        paraphrases=(
            "Enable app pinning in the security settings",
            "I want to pin apps, switch app pinning on",
        ),
        solution=(
            _OPEN,
            "scroll down",
            "tap 'Security & privacy'",
            "tap 'More security & privacy'",
            "tap the 'App pinning' switch",
        ),
    ),
    Task(
        "settings_android_version",
        _PKG,
        "Check Android Version",
        _on_page("about"),
        3,
        paraphrases=(
            "Which Android version is this phone running?",
            "open About phone and look at the Android version",
        ),
        solution=(_OPEN, "scroll down", "tap 'About phone'"),
    ),
    Task(
        "settings_developer_options",
        _PKG,
        "Enable developer options.",
        _is("global", "development_settings_enabled", "1"),
        10,
        difficulty="hard",
        paraphrases=(
            "Make me a developer by tapping the build number",
            "Unlock the developer options on this phone",
        ),
        solution=(_OPEN, "scroll down", "tap 'About phone'", *_DEV_TAPS),
    ),
    Task(
        "settings_connect_office_wifi",
        _PKG,
        "Connect to the Wi-Fi network Office-5G with the password officepass",
        _wifi_network_is("Office-5G"),
        6,
        params={"network": "Office-5G", "password": "officepass"},
        sensitive="authentication",
        difficulty="medium",
        paraphrases=(
            "Join Office-5G, the password is officepass",
            "get on the Office-5G wifi (password: officepass)",
        ),
        solution=(
            _OPEN,
            "tap 'Network & internet'",
            "tap 'Internet'",
            "tap 'Office-5G'",
            "type 'officepass' into 'Password'",
            "tap 'Connect'",
        ),
    ),
]
