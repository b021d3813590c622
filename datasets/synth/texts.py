"""Random words for synthetic screens: English, Chinese (with some English), icon names."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from screenpilot.datasets.synth.screen import Rng

EN_WORDS: tuple[str, ...] = (
    "account",
    "add",
    "address",
    "alarm",
    "album",
    "all",
    "apply",
    "archive",
    "back",
    "backup",
    "battery",
    "book",
    "cancel",
    "cart",
    "camera",
    "card",
    "chat",
    "check",
    "city",
    "clear",
    "close",
    "cloud",
    "code",
    "color",
    "confirm",
    "contact",
    "continue",
    "copy",
    "create",
    "daily",
    "data",
    "date",
    "delete",
    "details",
    "device",
    "done",
    "download",
    "draft",
    "edit",
    "email",
    "event",
    "explore",
    "favorite",
    "file",
    "filter",
    "follow",
    "friend",
    "gallery",
    "general",
    "group",
    "help",
    "history",
    "home",
    "image",
    "inbox",
    "info",
    "invite",
    "item",
    "language",
    "later",
    "library",
    "like",
    "list",
    "live",
    "location",
    "login",
    "logout",
    "map",
    "media",
    "member",
    "menu",
    "message",
    "more",
    "music",
    "name",
    "network",
    "new",
    "news",
    "next",
    "note",
    "notification",
    "offer",
    "open",
    "order",
    "password",
    "payment",
    "phone",
    "photo",
    "play",
    "playlist",
    "price",
    "privacy",
    "profile",
    "rate",
    "recent",
    "refresh",
    "reply",
    "report",
    "reset",
    "review",
    "save",
    "search",
    "security",
    "select",
    "send",
    "settings",
    "share",
    "shop",
    "show",
    "sign",
    "size",
    "skip",
    "sort",
    "start",
    "status",
    "storage",
    "submit",
    "subscribe",
    "summary",
    "sync",
    "theme",
    "today",
    "top",
    "track",
    "trending",
    "update",
    "upload",
    "user",
    "video",
    "view",
    "volume",
    "wallet",
    "weather",
    "week",
    "welcome",
    "wifi",
    "write",
    "year",
    "your",
)
ZH_CHARS = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工"
    "也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小"
    "物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形"
    "相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建"
    "月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长"
    "求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战"
    "先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受"
    "联什认六共权收证改清美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声"
    "报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究"
    "观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般"
    "史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按"
    "格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严"
)


@functools.cache
def icon_names() -> tuple[str, ...]:
    """Every Material Design Icons glyph name the renderer can draw."""
    from screenpilot.core import fonts

    return tuple(sorted(fonts.mdi_codepoints()))


@functools.cache
def _zh_phrases() -> tuple[str, ...]:
    from screenpilot.simulator.apps.settings import ZH

    return tuple(ZH.values())


@functools.cache
def _en_phrases() -> tuple[str, ...]:
    from screenpilot.simulator.apps.settings import ZH

    return tuple(ZH)


@dataclass(frozen=True, slots=True)
class Texts:
    """Random strings in one language (``zh`` mixes in some English, as real apps do)."""

    rng: Rng
    zh: bool

    def words(self, lo: int = 1, hi: int = 3) -> str:
        n = self.rng.randint(lo, hi)
        if self.zh and self.rng.random() < 0.85:
            if self.rng.random() < 0.4:
                return self.rng.choice(_zh_phrases())
            return "".join(self.rng.choice(ZH_CHARS) for _ in range(n * 2))
        if self.rng.random() < 0.25:
            return self.rng.choice(_en_phrases())
        text = " ".join(self.rng.choice(EN_WORDS) for _ in range(n))
        return text.capitalize() if self.rng.random() < 0.8 else text

    def sentence(self) -> str:
        return self.words(4, 12) if not self.zh else self.words(5, 14)

    def number(self) -> str:
        r = self.rng
        return r.choice(
            [
                f"{r.randint(1, 999)}",
                f"${r.randint(1, 500)}.{r.randint(0, 99):02d}",
                f"{r.randint(0, 23)}:{r.randint(0, 59):02d}",
                f"{r.randint(1, 99)}%",
                f"({r.randint(2, 9999)})",
                f"{r.randint(1, 28)} May",
            ]
        )

    def icon(self) -> str:
        return self.rng.choice(icon_names())
