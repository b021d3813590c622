"""The words of each sensitive category: on a screen (``SCREEN_WORDS``, ``PATTERNS`` of
values, how many hits make a screen count), on an element whose tap would finalise
something (``ACTION_WORDS``, ``CONFIRM_WORDS``), what each would do, and which category
wins when several match. A table, English and Chinese."""

from __future__ import annotations

import re

from screenpilot.model import SensitiveCategory

C = SensitiveCategory

#: Words that mark a screen of each category (lower-case; whole words for Latin).
SCREEN_WORDS: dict[SensitiveCategory, tuple[str, ...]] = {
    C.PAYMENT: (
        "card number",
        "cvv",
        "cvc",
        "expiry",
        "expiration date",
        "billing address",
        "pay now",
        "place order",
        "payment method",
        "checkout",
        "name on card",
        "security code",
        "confirm payment",
        "add a card",
        "debit or credit card",
        "银行卡",
        "卡号",
        "安全码",
        "支付",
        "付款",
        "结算",
        "立即购买",
        "确认支付",
        "支付密码",
        "有效期",
        "信用卡",
    ),
    C.AUTHENTICATION: (
        "password",
        "passcode",
        "sign in",
        "log in",
        "login",
        "verification code",
        "one-time code",
        "enter pin",
        "confirm your pin",
        "choose your pin",
        "enter your pin",
        "fingerprint",
        "forgot password",
        "enter your password",
        "two-step verification",
        "use your screen lock",
        "密码",
        "登录",
        "验证码",
        "指纹",
        "忘记密码",
        "手势密码",
        "输入密码",
    ),
    C.ACCOUNT: (
        "delete account",
        "close account",
        "remove account",
        "deactivate",
        "erase all data",
        "factory reset",
        "cannot be undone",
        "can't be undone",
        "permanently deleted",
        "permanently deletes",
        "delete your account",
        "注销账号",
        "删除账号",
        "注销账户",
        "删除账户",
        "恢复出厂设置",
        "无法撤销",
        "无法恢复",
        "永久删除",
    ),
    C.PERMISSION: (
        "allow",
        "while using the app",
        "only this time",
        "don't allow",
        "deny",
        "access this device's location",
        "access your location",
        "允许",
        "仅在使用该应用时允许",
        "拒绝",
        "使用应用时允许",
        "仅限这一次",
        "不允许",
        "始终允许",
        "位置信息",
        "获取此设备",
    ),
    C.PERSONAL_DATA: (
        "date of birth",
        "social security",
        "passport number",
        "id number",
        "home address",
        "shipping address",
        "street address",
        "zip code",
        "postal code",
        "national id",
        "身份证",
        "出生日期",
        "护照",
        "收货地址",
        "邮政编码",
        "详细地址",
        "身份证号",
    ),
}

#: Patterns of values on screen (matched per line of text), one hit each however
#: often they occur: a street address and a ZIP code make an address form.
PATTERNS: dict[SensitiveCategory, tuple[tuple[str, re.Pattern[str]], ...]] = {
    C.PERSONAL_DATA: (
        (
            "a street address",
            re.compile(
                r"^\s*\d{1,5}\s+[a-z][\w.]*(\s+[a-z][\w.]*)?\s+(st|street|ave|avenue|blvd|road|rd"
                r"|lane|ln|drive|dr|way)\b.*\b(apt|suite|unit|#)",
                re.I,
            ),
        ),
        ("a ZIP code", re.compile(r"^\s*\d{5}(-\d{4})?\s*$")),
        ("a social security number", re.compile(r"\b\d{3}-\d{2}-\d{4}\b")),
        ("a date of birth", re.compile(r"\b(dob|born)\b.*\d{4}", re.I)),
    ),
    C.PAYMENT: (("a card number", re.compile(r"\b(\d{4}[ -]){3}\d{1,7}\b")),),
}

#: Words on a tapped element that would finalise something irreversible.
ACTION_WORDS: dict[SensitiveCategory, tuple[str, ...]] = {
    C.PAYMENT: (
        "pay",
        "pay now",
        "place order",
        "buy now",
        "confirm payment",
        "purchase",
        "confirm purchase",
        "complete purchase",
        "支付",
        "付款",
        "确认支付",
        "立即购买",
        "提交订单",
        "立即付款",
        "确认付款",
    ),
    C.ACCOUNT: (
        "delete account",
        "delete my account",
        "close account",
        "erase",
        "reset phone",
        "factory reset",
        "erase all data",
        "注销",
        "删除账号",
        "注销账号",
        "删除账户",
        "清除所有数据",
        "清除全部数据",
        "恢复出厂设置",
        "永久删除",
    ),
    C.PERMISSION: (
        "allow",
        "while using the app",
        "only this time",
        "allow all the time",
        "grant",
        "允许",
        "仅在使用该应用时允许",
        "使用应用时允许",
        "仅限这一次",
        "始终允许",
    ),
}
#: Buttons that confirm whatever a dialog of this category asks ("Delete" in the
#: delete-account dialog, "OK" under "Allow location?").
CONFIRM_WORDS = ("delete", "ok", "yes", "confirm", "continue", "删除", "确定", "确认", "是")

#: How many distinct hits a screen needs before it counts (a lone "Allow",
#: "Checkout" or "fingerprint" is common on ordinary screens, e.g. Settings' list).
MIN_WORDS: dict[SensitiveCategory, int] = {
    C.PAYMENT: 2,
    C.PERMISSION: 2,
    C.AUTHENTICATION: 2,
    C.ACCOUNT: 2,
    C.PERSONAL_DATA: 2,
}

#: What tapping a finalising element of each category would do (the reason given).
CONSEQUENCE = {
    C.PAYMENT: "complete a payment",
    C.ACCOUNT: "change or delete the account",
    C.PERMISSION: "grant a permission",
    C.AUTHENTICATION: "enter a secret",
    C.PERSONAL_DATA: "share personal data",
}

#: Order in which categories win when several match.
PRIORITY = (C.PAYMENT, C.ACCOUNT, C.AUTHENTICATION, C.PERMISSION, C.PERSONAL_DATA)
