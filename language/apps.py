"""What common apps and Android settings entries are for: the offline planner's
knowledge of where a task happens.

"Turn off ring vibration" names no app; a person knows it is a setting, that
"Call Bob Lee" starts in Contacts and "apply the promo code" in the shop. The
planner looks the task up here on the home screen (which app to open) and when it
matches list entries ("Sound & vibration" is where vibration lives).

Only one list of app names exists (``APPS``); the task parser and the planner
both read it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: App (its launcher label, lower case) -> what it is for, in plain words.
APPS: dict[str, str] = {
    "settings": "settings wifi internet network bluetooth airplane mode hotspot display "
    "brightness dark theme font size screen timeout sound volume ring ringtone "
    "vibrate vibration do not disturb notifications location gps security "
    "screen lock pin password app pinning privacy apps battery percentage "
    "storage about phone android version build number developer options "
    "system language date time 24 hour format backup reset",
    "contacts": "contacts people person contact add create save edit delete phone number "
    "email call dial favorites star import export vcf vcard",
    "phone": "phone call dial calls recent calls voicemail keypad",
    "clock": "clock alarm wake me up morning timer countdown stopwatch world clock time zone "
    "city bedtime",
    "messages": "messages sms text message send reply chat conversation verification code "
    "unread read mark",
    "shop": "shop shopping buy order orders cart purchase product item search promo code "
    "coupon payment history account sign out size quantity",
    "chrome": "browser web website internet page url search the web",
    "camera": "camera photo picture selfie video record",
    "gallery": "gallery photos pictures images albums",
    "photos": "photos pictures images albums",
    "calendar": "calendar event meeting appointment schedule agenda",
    "gmail": "gmail email mail inbox",
    "email": "email mail inbox",
    "maps": "maps navigation directions route location nearby",
    "files": "files downloads documents folders storage",
    "music": "music songs play playlist album",
    "calculator": "calculator calculate add multiply",
    # Chinese launchers
    "设置": "设置 无线 网络 蓝牙 飞行模式 显示 亮度 深色 声音 音量 振动 通知 位置 电池 关于手机",
    "联系人": "联系人 通讯录 电话 号码 添加 收藏",
    "时钟": "时钟 闹钟 计时器 秒表",
    "信息": "信息 短信 发短信 消息 回复",
    "短信": "短信 发短信 消息 信息",
    "商店": "商店 购物 购物车 订单",
}

#: Phrases that settle which app a task belongs to ("alarm volume" is a setting,
#: though "alarm" alone is the clock's).
PHRASES: dict[str, tuple[str, ...]] = {
    "settings": (
        "alarm volume",
        "media volume",
        "ring volume",
        "call volume",
        "screen timeout",
        "time format",
        "developer options",
        "android version",
        "battery percentage",
        "app pinning",
        "do not disturb",
        "dark theme",
        "airplane mode",
    ),
    "clock": ("world clock", "time zone", "stopwatch"),
    "messages": ("text message", "verification code"),
    "shop": ("promo code", "order history", "payment history", "my cart"),
}

#: Other words for an app's name in a command ("text Bob" opens Messages).
ALIASES: dict[str, str] = {
    "message": "messages",
    "sms": "messages",
    "contact": "contacts",
    "setting": "settings",
    "alarm clock": "clock",
    "browser": "chrome",
    "shopping": "shop",
    "store": "shop",
}

#: Settings entries -> what is under them (so "brightness" finds "Display").
SETTINGS_ENTRIES: dict[str, str] = {
    "network & internet": "wifi internet mobile data airplane mode hotspot sim network",
    "网络和互联网": "wifi internet mobile data airplane mode hotspot network",
    "connected devices": "bluetooth pair device cast printing nfc",
    "已连接的设备": "bluetooth pair device",
    "display": "brightness dark theme font size screen timeout rotate",
    "sound & vibration": "volume ringtone ring vibrate vibration media alarm",
    "notifications": "notifications do not disturb lock screen notification history",
    "security & privacy": "screen lock pin password pattern fingerprint app pinning privacy",
    "apps": "installed apps app info uninstall default apps permissions",
    "about phone": "android version build number model phone name developer options",
    "battery": "battery saver usage percentage",
    "storage": "storage space free up files",
    "location": "location gps",
    "system": "language date time 24 hour format backup reset gestures",
}


#: Entries most apps have (tabs, menu rows) -> what is behind them.
APP_ENTRIES: dict[str, str] = {
    "account": "account profile sign in sign out log out payment history notifications "
    "help password address settings",
    "profile": "account profile sign out log out payment notifications help settings",
    "me": "account profile sign out payment notifications settings",
    "orders": "orders order history purchases details track delivery",
    "cart": "cart basket checkout quantity remove promo code",
    "help": "help support faq articles tips password",
    "fix & manage": "import export contacts vcf file merge duplicates restore",
}


def app_names() -> frozenset[str]:
    """Every app name and alias, lower case (words of a command that say where)."""
    return frozenset({*APPS, *ALIASES})


def purpose(label: str) -> str:
    """What the app or settings entry called ``label`` is for ("" when unknown)."""
    key = label.strip().lower()
    return APPS.get(key) or SETTINGS_ENTRIES.get(key) or APP_ENTRIES.get(key) or ""


def is_app(label: str) -> bool:
    return label.strip().lower() in APPS


def named_app(task: str, labels: Iterable[str]) -> str | None:
    """The label among ``labels`` of the app the task names ("in the Shop app",
    "using Clock", "start the stopwatch in clock"), if any."""
    text = " " + re.sub(r"[^\w\s]", " ", task.lower()) + " "
    found: list[tuple[int, str]] = []
    for label in labels:
        key = label.strip().lower()
        names = [key] + [a for a, app in ALIASES.items() if app == key]
        for name in names:
            if not name.isascii():
                pos = text.find(name)
            else:
                m = re.search(
                    rf"\b(?:in|using|with|from|to|open|launch)\s+(?:the\s+|my\s+)?"
                    rf"{re.escape(name)}\b(?:\s+app)?|\b{re.escape(name)}\s+app\b",
                    text,
                )
                pos = m.start() if m else -1
            if pos >= 0:
                found.append((pos, label))
    return min(found)[1] if found else None
