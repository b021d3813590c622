"""Contacts (``com.android.contacts``), laid out like Google Contacts on Android 14.

Pages: main (the list: search box, letter headers, avatars; a bottom tab bar
Contacts / Highlights / Fix & manage and a "Create contact" button), search,
detail (call, text, email; star, edit, and delete behind the overflow menu with a
confirmation dialog), add and edit (First name, Last name, Phone with its label,
Email), highlights (starred people), manage ("Fix & manage": Import from file,
Export to file...) and files (the system file picker over Downloads, where
picking a ``.vcf`` file imports its vCards: the example task of the AutoTask
paper).

State: ``contacts`` (id, first, last, phone, phone_type, email, starred),
``next_id``, ``downloads`` (name, size, date, content: the files the picker
shows), ``calls`` (numbers dialled from the app). The provider
``content://com.android.contacts/contacts`` returns ``_id``, ``display_name``,
``number``, ``email`` and ``starred``, sorted by name as Android does.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from screenpilot.model import BlockKind
from screenpilot.simulator.apps.base import App, Ctx, Event, Rows, dialog, handler, page, provider
from screenpilot.simulator.render import MenuItem, Page, ToolbarAction
from screenpilot.simulator.tasks import Task
from screenpilot.simulator.widgets import (
    Avatar,
    Button,
    Column,
    Dialog,
    EditText,
    Fab,
    Icon,
    RadioGroup,
    Row,
    Spacer,
    Spinner,
    Tab,
    TabBar,
    Text,
    Widget,
    card,
    list_item,
    list_view,
)

if TYPE_CHECKING:
    from screenpilot.simulator.phone import VirtualPhone

PACKAGE = "com.android.contacts"
PHONE_TYPES = ["Mobile", "Home", "Work", "Other"]

ZH: dict[str, str] = {
    "Contacts": "通讯录",
    "Search contacts": "搜索联系人",
    "Create contact": "新建联系人",
    "Highlights": "精选",
    "Fix & manage": "整理和管理",
    "First name": "名字",
    "Last name": "姓氏",
    "Phone": "电话",
    "Email": "电子邮件",
    "Save": "保存",
    "Cancel": "取消",
    "Delete": "删除",
    "Edit contact": "修改联系人",
    "Call": "呼叫",
    "Text": "短信",
    "Video": "视频",
    "Contact info": "联系信息",
    "Import from file": "从文件导入",
    "Export to file": "导出到文件",
    "Merge & fix": "合并和修正",
    "Restore contacts": "恢复联系人",
    "Trash": "回收站",
    "Downloads": "下载",
    "Favorites": "收藏",
    "Mobile": "手机",
    "Home": "住宅",
    "Work": "单位",
    "Other": "其他",
    "No contacts found": "未找到联系人",
    "Delete this contact?": "要删除此联系人吗？",
    "Share": "分享",
    "Label": "标签",
    "Add to home screen": "添加到主屏幕",
    "Tools": "工具",
    "Recent": "最近",
    "Contact deleted": "已删除联系人",
    "Contact saved": "已保存联系人",
}

#: The people on a fresh phone.
INITIAL_CONTACTS: list[tuple[str, str, str, str]] = [
    ("Bob", "Lee", "+1 415-555-0132", "bob.lee@example.com"),
    ("Carmen", "Diaz", "+1 650-555-0178", "carmen.diaz@example.com"),
    ("David", "Kim", "+1 408-555-0199", ""),
    ("Emma", "Wilson", "+44 20 7946 0958", "emma.w@example.co.uk"),
    ("Frank", "Miller", "+1 212-555-0143", ""),
    ("Grace", "Park", "+1 310-555-0111", "grace.park@example.com"),
    ("Hannah", "Smith", "+1 617-555-0186", "hannah.smith@example.com"),
    ("Omar", "Haddad", "+971 4 555 0123", ""),
    ("Sophie", "Martin", "+33 1 55 55 01 42", "sophie.martin@example.fr"),
]

CONTACTS_VCF = """BEGIN:VCARD
VERSION:3.0
N:Nguyen;Ivy;;;
FN:Ivy Nguyen
TEL;TYPE=CELL:+1 206-555-0147
EMAIL;TYPE=INTERNET:ivy.nguyen@example.com
END:VCARD
BEGIN:VCARD
VERSION:3.0
N:Brown;Jack;;;
FN:Jack Brown
TEL;TYPE=WORK,VOICE:+1 503-555-0165
END:VCARD
BEGIN:VCARD
VERSION:2.1
N:O'Neil;Karen;;;
FN:Karen O'Neil
TEL;CELL:+1 720-555-0190
EMAIL:karen.oneil@example.org
END:VCARD
"""

TEAM_VCF = """BEGIN:VCARD\r
VERSION:4.0\r
FN:Liam Zhang\r
N:Zhang;Liam;;;\r
TEL;TYPE=cell;VALUE=uri:tel:+86-10-5555-0101\r
END:VCARD\r
BEGIN:VCARD\r
VERSION:4.0\r
FN:Mia\r
  Rossi\r
N:Rossi;Mia;;;\r
TEL;TYPE=work:+39 06 5555 0199\r
EMAIL;TYPE=work:mia.rossi@example.it\r
END:VCARD\r
"""

#: Files in Downloads: (name, size, date, content).
DOWNLOADS: list[tuple[str, str, str, str]] = [
    ("contacts.vcf", "412 B", "Jun 2", CONTACTS_VCF),
    ("team.vcf", "298 B", "May 28", TEAM_VCF),
    ("IMG_20240601_101512.jpg", "3.2 MB", "Jun 1", ""),
    ("boarding_pass.pdf", "184 kB", "May 30", ""),
    ("notes.txt", "2 kB", "May 12", ""),
]

_FILE_ICONS = {
    "vcf": "card_account_details",
    "jpg": "image",
    "pdf": "file_pdf_box",
    "txt": "file_document",
}


# --- vCards ------------------------------------------------------------------------------------
def _unfold(text: str) -> list[str]:
    """Content lines with RFC 6350 folding undone (a line starting with space/tab continues)."""
    lines: list[str] = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if raw[:1] in (" ", "\t") and lines:
            lines[-1] += raw[1:]
        elif raw.strip():
            lines.append(raw)
    return lines


def _unescape(value: str) -> str:
    return re.sub(r"\\([,;nN\\])", lambda m: "\n" if m.group(1) in "nN" else m.group(1), value)


def _card_person(props: dict[str, str]) -> dict[str, str] | None:
    """A person from one vCard's first FN/N/TEL/EMAIL values; None without a name or number."""
    family, given = "", ""
    if "N" in props:
        parts = [*props["N"].split(";"), "", ""][:2]
        family, given = _unescape(parts[0]).strip(), _unescape(parts[1]).strip()
    full = _unescape(props.get("FN", "")).strip() or " ".join(p for p in (given, family) if p)
    if full and not given:
        given, _, family = full.partition(" ")
    phone = _unescape(props.get("TEL", "")).strip()
    phone = phone[4:] if phone.lower().startswith("tel:") else phone
    if not full and not phone:
        return None
    return {
        "first": given,
        "last": family,
        "name": full,
        "phone": phone,
        "email": _unescape(props.get("EMAIL", "")).strip(),
    }


def parse_vcards(text: str) -> list[dict[str, str]]:
    """The people in a vCard file (versions 2.1, 3.0 and 4.0): first, last, name, phone,
    email. Property parameters (``TEL;TYPE=CELL``) and groups (``item1.EMAIL``) are ignored;
    the first value of each property wins."""
    people: list[dict[str, str]] = []
    props: dict[str, str] | None = None
    for line in _unfold(text):
        name, sep, value = line.partition(":")
        if not sep:
            continue
        prop = name.split(";")[0].split(".")[-1].strip().upper()
        if prop == "BEGIN" and value.strip().upper() == "VCARD":
            props = {}
        elif prop == "END" and value.strip().upper() == "VCARD" and props is not None:
            person = _card_person(props)
            if person is not None:
                people.append(person)
            props = None
        elif props is not None:
            props.setdefault(prop, value)
    return people


# --- helpers ------------------------------------------------------------------------------------
def display_name(contact: dict[str, Any]) -> str:
    """ "First Last", or the phone number for a contact without a name."""
    name = " ".join(str(p) for p in (contact.get("first", ""), contact.get("last", "")) if p)
    return name or str(contact.get("phone", "")) or "(No name)"


def _sort_key(contact: dict[str, Any]) -> str:
    return display_name(contact).lower()


def sorted_contacts(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The contacts in list order (by display name, case-insensitive)."""
    return sorted(state["contacts"], key=_sort_key)


def _letter(contact: dict[str, Any]) -> str:
    first = display_name(contact)[:1].upper()
    return first if first.isalpha() and first.isascii() else "#"


def find_contact(state: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The first contact whose display name is ``name`` (case-insensitive)."""
    for contact in state["contacts"]:
        if display_name(contact).lower() == name.lower():
            return dict(contact)
    return None


def _digits(number: str) -> str:
    return "".join(c for c in number if c.isdigit())


def _header(text: str, color: str = "accent") -> Row:
    """A list section header, inset like Android's."""
    return Row(
        children=[Text(text=text, size=14, color=color, font_weight=500)],
        padding=(16, 12, 16, 4),
        min_height=40,
    )


def _new_contact(
    cid: int, first: str, last: str, phone: str, email: str, phone_type: str = "Mobile"
) -> dict[str, Any]:
    return {
        "id": cid,
        "first": first,
        "last": last,
        "phone": phone,
        "phone_type": phone_type,
        "email": email,
        "starred": False,
    }


class ContactsApp(App):
    """Google Contacts."""

    package = PACKAGE
    activity = "com.android.contacts.activities.PeopleActivity"
    label = "Contacts"
    icon = "account_box"
    color = "#1A73E8"
    authority = "com.android.contacts"
    dock = True
    strings: ClassVar[dict[str, dict[str, str]]] = {"zh": ZH}
    activities: ClassVar[dict[str, str]] = {
        "com.android.contacts.activities.ContactEditorActivity": "add",
        "com.android.contacts.activities.QuickContactActivity": "detail",
    }

    def initial_state(self) -> dict[str, Any]:
        contacts = [_new_contact(i + 1, *c) for i, c in enumerate(INITIAL_CONTACTS)]
        contacts[1]["starred"] = True
        return {
            "contacts": contacts,
            "next_id": len(contacts) + 1,
            "calls": [],
            "downloads": [
                {"name": n, "size": s, "date": d, "content": c} for n, s, d, c in DOWNLOADS
            ],
        }

    def page_activity(self, page_name: str) -> str:
        if page_name in ("add", "edit"):
            return "com.android.contacts.activities.ContactEditorActivity"
        if page_name == "files":
            return "com.android.documentsui.picker.PickActivity"
        return self.activity

    # --- chrome ----------------------------------------------------------------------------
    def _tabs(self, ctx: Ctx, active: int) -> TabBar:
        return TabBar(
            tabs=[
                Tab(ctx.t("Contacts"), "account_box", "tab:main"),
                Tab(ctx.t("Highlights"), "star_outline", "tab:highlights"),
                Tab(ctx.t("Fix & manage"), "wrench_outline", "tab:manage"),
            ],
            active=active,
        )

    @handler("tab")
    def tab(self, ctx: Ctx, ev: Event) -> None:
        if ctx.page != ev.arg:
            ctx.stack[:] = ctx.stack[:1]
            if ev.arg != "main":
                ctx.open(ev.arg)

    def _contact(self, ctx: Ctx) -> dict[str, Any] | None:
        cid = ctx.args.get("id")
        return next((c for c in ctx.state["contacts"] if c["id"] == cid), None)

    # --- the list ---------------------------------------------------------------------------
    def _rows(self, contacts: list[dict[str, Any]], headers: bool) -> list[Widget]:
        """One row per contact; with ``headers``, the first of each letter shows it in the
        left gutter, as Google Contacts does."""
        rows: list[Widget] = []
        letter = ""
        for contact in contacts:
            name = display_name(contact)
            item = list_item(
                name, leading=Avatar(name=name, size=40), key=f"open_contact:{contact['id']}"
            )
            if headers:
                shown = _letter(contact) if _letter(contact) != letter else ""
                letter = _letter(contact)
                item = Row(
                    children=[
                        Text(
                            text=shown,
                            size=16,
                            color="accent",
                            font_weight=500,
                            width=28,
                            align="center",
                        ),
                        dataclasses.replace(item, weight=1),
                    ],
                    padding=(8, 0, 0, 0),
                )
            rows.append(item)
        return rows

    @page("main")
    def main(self, ctx: Ctx) -> Page:
        contacts = sorted_contacts(ctx.state)
        count = f"{len(contacts)} contacts" if ctx.locale == "en" else f"{len(contacts)} 位联系人"
        body = Column(
            children=[
                Row(
                    children=[
                        EditText(
                            field="search",
                            hint=ctx.t("Search contacts"),
                            icon="magnify",
                            style="search",
                            weight=1,
                            key="open_search",
                        )
                    ],
                    padding=(16, 8, 16, 8),
                ),
                _header(count, color="secondary"),
                list_view(self._rows(contacts, headers=True), caption=ctx.t("Contacts")),
                Spacer(height=88),
            ]
        )
        return Page(
            title=ctx.t("Contacts"),
            back=False,
            body=body,
            tabs=self._tabs(ctx, 0),
            fab=Fab(icon="plus", label=ctx.t("Create contact"), key="open_add"),
            menu=[MenuItem(ctx.t("Fix & manage"), "tab:manage")],
        )

    @handler("open_search")
    def open_search(self, ctx: Ctx, ev: Event) -> None:
        ctx.open("search")
        ctx.focus("query")

    @page("search")
    def search(self, ctx: Ctx) -> Page:
        query = ctx.field("query").strip().lower()
        digits = _digits(query)
        hits = [
            c
            for c in sorted_contacts(ctx.state)
            if query
            and (
                query in display_name(c).lower()
                or query in str(c["email"]).lower()
                or (digits and digits in _digits(str(c["phone"])))
            )
        ]
        rows = self._rows(hits, headers=False)
        if query and not rows:
            rows = [
                Text(
                    text=ctx.t("No contacts found"),
                    size=16,
                    color="secondary",
                    height=56,
                    align="center",
                )
            ]
        body = Column(
            children=[
                Row(
                    children=[
                        EditText(
                            field="query",
                            hint=ctx.t("Search contacts"),
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
        return Page(title=ctx.t("Search contacts"), body=body)

    @page("highlights")
    def highlights(self, ctx: Ctx) -> Page:
        starred = [c for c in sorted_contacts(ctx.state) if c["starred"]]
        rows: list[Widget] = [_header(ctx.t("Favorites"))]
        rows += self._rows(starred, headers=False)
        body = Column(children=[list_view(rows, caption=ctx.t("Favorites"))])
        return Page(title=ctx.t("Highlights"), back=False, body=body, tabs=self._tabs(ctx, 1))

    # --- a contact --------------------------------------------------------------------------
    @handler("open_contact")
    def open_contact(self, ctx: Ctx, ev: Event) -> None:
        ctx.open("detail", id=int(ev.arg))

    def _action(self, ctx: Ctx, icon: str, label: str, key: str) -> Column:
        return Column(
            children=[
                Icon(
                    name=icon,
                    size=24,
                    box=56,
                    color="on_accent_container",
                    background="accent_container",
                ),
                Text(text=ctx.t(label), size=12, align="center"),
            ],
            key=key,
            align="center",
            spacing=6,
            width=72,
        )

    @page("detail")
    def detail(self, ctx: Ctx) -> Page:
        contact = self._contact(ctx)
        if contact is None:
            return Page(title="", body=Text(text=ctx.t("No contacts found"), size=16))
        name = display_name(contact)
        cid = contact["id"]
        info: list[Widget] = [Text(text=ctx.t("Contact info"), size=16, font_weight=500)]
        if contact["phone"]:
            info.append(
                list_item(
                    str(contact["phone"]),
                    ctx.t(str(contact["phone_type"])),
                    icon="phone",
                    key=f"call:{cid}",
                    trailing=Icon(name="message_text_outline", box=48, key=f"text:{cid}"),
                )
            )
        if contact["email"]:
            info.append(
                list_item(
                    str(contact["email"]), ctx.t("Email"), icon="email_outline", key=f"email:{cid}"
                )
            )
        body = Column(
            children=[
                Column(
                    children=[
                        Avatar(name=name, size=120),
                        Text(text=name, size=28, align="center", max_lines=2),
                    ],
                    align="center",
                    spacing=16,
                    padding=(16, 24, 16, 8),
                ),
                Row(
                    children=[
                        self._action(ctx, "phone", "Call", f"call:{cid}"),
                        self._action(ctx, "message_text_outline", "Text", f"text:{cid}"),
                        self._action(ctx, "video_outline", "Video", f"call:{cid}"),
                        self._action(ctx, "email_outline", "Email", f"email:{cid}"),
                    ],
                    justify="center",
                    spacing=12,
                    padding=(16, 8, 16, 16),
                ),
                Column(children=[card(info, caption=ctx.t("Contact info"))], padding=16),
            ]
        )
        star = "star" if contact["starred"] else "star_outline"
        return Page(
            title="",
            body=body,
            actions=[
                ToolbarAction(icon="pencil_outline", key=f"edit:{cid}"),
                ToolbarAction(icon=star, key=f"star:{cid}"),
            ],
            menu=[
                MenuItem(ctx.t("Delete"), f"ask_delete:{cid}"),
                MenuItem(ctx.t("Share"), "noop"),
                MenuItem(ctx.t("Add to home screen"), "noop"),
            ],
            activity="com.android.contacts.activities.QuickContactActivity",
        )

    @handler("call")
    def call(self, ctx: Ctx, ev: Event) -> None:
        contact = self._contact(ctx)
        if contact is not None and contact["phone"]:
            ctx.state["calls"].append(str(contact["phone"]))
            ctx.toast(f"Calling {display_name(contact)}…")

    @handler("text", "email")
    def text_or_email(self, ctx: Ctx, ev: Event) -> None:
        if ev.name == "text" and ctx.launch("com.android.messaging"):
            return
        ctx.toast("No app can perform this action")

    @handler("star")
    def star(self, ctx: Ctx, ev: Event) -> None:
        contact = self._contact(ctx)
        if contact is not None:
            contact["starred"] = not contact["starred"]
            ctx.toast("Added to favorites" if contact["starred"] else "Removed from favorites")

    @handler("ask_delete")
    def ask_delete(self, ctx: Ctx, ev: Event) -> None:
        ctx.entry["menu"] = False
        ctx.show_dialog("delete")

    @dialog("delete")
    def delete_dialog(self, ctx: Ctx) -> Dialog:
        contact = self._contact(ctx)
        name = display_name(contact) if contact else ""
        return Dialog(
            title=ctx.t("Delete this contact?"),
            body=f"{name} will be removed from this device.",
            buttons=[(ctx.t("Cancel"), "back"), (ctx.t("Delete"), "delete")],
        )

    @handler("delete")
    def delete(self, ctx: Ctx, ev: Event) -> None:
        cid = ctx.args.get("id")
        ctx.state["contacts"] = [c for c in ctx.state["contacts"] if c["id"] != cid]
        ctx.close_dialog()
        ctx.back()
        ctx.toast(ctx.t("Contact deleted"))

    # --- add and edit ----------------------------------------------------------------------
    @handler("open_add")
    def open_add(self, ctx: Ctx, ev: Event) -> None:
        ctx.open("add")
        ctx.set_field("phone_type", "Mobile")

    @handler("edit")
    def edit(self, ctx: Ctx, ev: Event) -> None:
        contact = self._contact(ctx)
        if contact is None:
            return
        ctx.open("edit", id=contact["id"])
        for name in ("first", "last", "phone", "email", "phone_type"):
            ctx.set_field(name, str(contact[name]))

    def _field(
        self, ctx: Ctx, icon: str, name: str, label: str, extra: Widget | None = None
    ) -> Row:
        edit = EditText(field=name, hint=ctx.t(label), caption=label, weight=1)
        children: list[Widget] = [Icon(name=icon, size=24, box=40)] if icon else [Spacer(width=40)]
        children.append(edit)
        if extra is not None:
            children.append(extra)
        return Row(children=children, spacing=12, padding=(16, 6, 16, 6))

    def _form(self, ctx: Ctx, title: str) -> Page:
        name = " ".join(p for p in (ctx.field("first"), ctx.field("last")) if p)
        header = Row(
            children=[
                Icon(name="close", size=24, box=48, color="primary", key="back"),
                Text(text=ctx.t(title), size=22, weight=1),
                Button(text=ctx.t("Save"), key="save"),
            ],
            padding=(4, 8, 16, 8),
            spacing=8,
            block=BlockKind.TOOLBAR,
            caption=ctx.t(title),
        )
        photo: Widget = (
            Avatar(name=name, size=96)
            if name
            else Icon(
                name="account",
                size=56,
                box=96,
                color="on_accent_container",
                background="accent_container",
            )
        )
        body = Column(
            children=[
                header,
                Column(
                    children=[photo, Text(text="Add picture", size=14, color="accent")],
                    align="center",
                    spacing=8,
                    padding=(16, 8, 16, 16),
                ),
                self._field(ctx, "account_outline", "first", "First name"),
                self._field(ctx, "", "last", "Last name"),
                self._field(
                    ctx,
                    "phone_outline",
                    "phone",
                    "Phone",
                    Spinner(
                        text=ctx.t(ctx.field("phone_type", "Mobile")),
                        width=120,
                        caption=ctx.t("Label"),
                        key="choose_type",
                    ),
                ),
                self._field(ctx, "email_outline", "email", "Email"),
                Spacer(height=24),
            ]
        )
        return Page(title="", body=body, toolbar=False)

    @page("add")
    def add(self, ctx: Ctx) -> Page:
        return self._form(ctx, "Create contact")

    @page("edit")
    def edit_page(self, ctx: Ctx) -> Page:
        return self._form(ctx, "Edit contact")

    @handler("choose_type")
    def choose_type(self, ctx: Ctx, ev: Event) -> None:
        ctx.focus(None)
        ctx.show_dialog("phone_type")

    @dialog("phone_type")
    def phone_type_dialog(self, ctx: Ctx) -> Dialog:
        current = ctx.field("phone_type", "Mobile")
        return Dialog(
            title=ctx.t("Label"),
            body=RadioGroup(
                options=[ctx.t(t) for t in PHONE_TYPES],
                selected=PHONE_TYPES.index(current) if current in PHONE_TYPES else -1,
                key="phone_type",
            ),
            buttons=[(ctx.t("Cancel"), "back")],
        )

    @handler("phone_type")
    def phone_type(self, ctx: Ctx, ev: Event) -> None:
        ctx.set_field("phone_type", PHONE_TYPES[int(ev.value or 0)])
        ctx.close_dialog()

    @handler("save")
    def save(self, ctx: Ctx, ev: Event) -> None:
        values = {n: ctx.field(n).strip() for n in ("first", "last", "phone", "email")}
        if not any(values.values()):
            ctx.toast("Contact is empty")
            ctx.back()
            return
        phone_type = ctx.field("phone_type", "Mobile")
        existing = self._contact(ctx) if ctx.page == "edit" else None
        if existing is not None:
            existing.update(values, phone_type=phone_type)
            cid = int(existing["id"])
        else:
            cid = int(ctx.state["next_id"])
            ctx.state["next_id"] = cid + 1
            ctx.state["contacts"].append(
                _new_contact(
                    cid,
                    values["first"],
                    values["last"],
                    values["phone"],
                    values["email"],
                    phone_type,
                )
            )
        if ctx.page == "edit":
            ctx.back()
        else:
            ctx.replace("detail", id=cid)
        ctx.toast(ctx.t("Contact saved"))

    # --- fix & manage, import -------------------------------------------------------------
    @page("manage")
    def manage(self, ctx: Ctx) -> Page:
        rows: list[Widget] = [
            list_item(ctx.t("Merge & fix"), "No suggestions", icon="auto_fix"),
            list_item(ctx.t("Restore contacts"), "Restore from a backup", icon="restore"),
            list_item(
                ctx.t("Trash"), "Contacts deleted in the last 30 days", icon="delete_outline"
            ),
            _header(ctx.t("Tools")),
            list_item(
                ctx.t("Import from file"),
                "Add contacts from a .vcf file",
                icon="file_import_outline",
                key="open:files",
            ),
            list_item(
                ctx.t("Export to file"),
                "Save contacts to a .vcf file",
                icon="file_export_outline",
                key="export",
            ),
        ]
        body = Column(
            children=[list_view(rows, caption=ctx.t("Fix & manage"))], padding=(0, 0, 0, 0)
        )
        return Page(title=ctx.t("Fix & manage"), back=False, body=body, tabs=self._tabs(ctx, 2))

    @handler("export")
    def export(self, ctx: Ctx, ev: Event) -> None:
        ctx.toast(f"Exported {len(ctx.state['contacts'])} contacts to contacts.vcf")

    @page("files")
    def files(self, ctx: Ctx) -> Page:
        rows: list[Widget] = [_header(ctx.t("Downloads"))]
        for f in ctx.state["downloads"]:
            name = str(f["name"])
            ext = name.rpartition(".")[2].lower()
            rows.append(
                list_item(
                    name,
                    f"{f['size']}  {f['date']}",
                    icon=_FILE_ICONS.get(ext, "file_outline"),
                    key=f"pick:{name}",
                    enabled=ext == "vcf",
                )
            )
        body = Column(
            children=[
                Row(
                    children=[
                        Button(text=ctx.t("Recent"), style="outlined", icon="clock_outline"),
                        Button(text=ctx.t("Downloads"), style="tonal", icon="download"),
                    ],
                    spacing=8,
                    padding=(16, 8, 16, 8),
                ),
                list_view(rows, caption=ctx.t("Downloads"), dividers=True, inset=72),
            ]
        )
        return Page(
            title=ctx.t("Downloads"),
            body=body,
            activity="com.android.documentsui.picker.PickActivity",
            actions=[ToolbarAction(icon="magnify", key="noop")],
        )

    @handler("pick")
    def pick(self, ctx: Ctx, ev: Event) -> None:
        f = next((f for f in ctx.state["downloads"] if f["name"] == ev.arg), None)
        if f is None:
            return
        people = parse_vcards(str(f["content"]))
        for person in people:
            cid = int(ctx.state["next_id"])
            ctx.state["next_id"] = cid + 1
            ctx.state["contacts"].append(
                _new_contact(cid, person["first"], person["last"], person["phone"], person["email"])
            )
        ctx.stack[:] = ctx.stack[:1]
        ctx.toast(
            f"Imported {len(people)} contacts from {ev.arg}"
            if people
            else f"Couldn't import {ev.arg}"
        )

    @handler("noop")
    def noop(self, ctx: Ctx, ev: Event) -> None:
        ctx.entry["menu"] = False

    # --- provider ------------------------------------------------------------------------------
    @provider("contacts")
    def contacts_rows(self, state: dict[str, Any]) -> Rows:
        return [
            {
                "_id": str(c["id"]),
                "display_name": display_name(c),
                "number": str(c["phone"]),
                "email": str(c["email"]),
                "starred": "1" if c["starred"] else "0",
            }
            for c in sorted_contacts(state)
        ]


# --- the task suite ---------------------------------------------------------------------------
def _has(name: str, number: str = "", email: str = "") -> Callable[[VirtualPhone], bool]:
    """A check that a contact ``name`` exists (with that number's digits and email)."""

    def check(phone: VirtualPhone) -> bool:
        contact = find_contact(phone.app_state(PACKAGE), name)
        return (
            contact is not None
            and (not number or _digits(str(contact["phone"])).endswith(_digits(number)))
            and (not email or str(contact["email"]).lower() == email.lower())
        )

    return check


def _gone(name: str) -> Callable[[VirtualPhone], bool]:
    def check(phone: VirtualPhone) -> bool:
        state = phone.app_state(PACKAGE)
        return (
            find_contact(state, name) is None
            and len(state["contacts"]) == len(INITIAL_CONTACTS) - 1
        )

    return check


def _all_of(*checks: Callable[[VirtualPhone], bool]) -> Callable[[VirtualPhone], bool]:
    def check(phone: VirtualPhone) -> bool:
        return all(c(phone) for c in checks)

    return check


def _top(page_name: str, name: str = "", query: str = "") -> Callable[[VirtualPhone], bool]:
    """A check that Contacts is in front on ``page_name`` (showing contact ``name``, or with
    ``query`` typed in the search box)."""

    def check(phone: VirtualPhone) -> bool:
        if phone.current_focus()[0] != PACKAGE:
            return False
        entry = phone.state["tasks"][PACKAGE][-1]
        if entry["page"] != page_name:
            return False
        if query:
            return query.lower() in str(entry["fields"].get("query", "")).lower()
        contact = find_contact(phone.app_state(PACKAGE), name) if name else None
        return not name or (contact is not None and entry["args"].get("id") == contact["id"])

    return check


def _called(name: str) -> Callable[[VirtualPhone], bool]:
    def check(phone: VirtualPhone) -> bool:
        state = phone.app_state(PACKAGE)
        contact = find_contact(state, name)
        return contact is not None and str(contact["phone"]) in state["calls"]

    return check


def _starred(name: str) -> Callable[[VirtualPhone], bool]:
    def check(phone: VirtualPhone) -> bool:
        contact = find_contact(phone.app_state(PACKAGE), name)
        return contact is not None and bool(contact["starred"])

    return check


def _imported(file_name: str) -> Callable[[VirtualPhone], bool]:
    people = parse_vcards(next(c for n, _, _, c in DOWNLOADS if n == file_name))
    return _all_of(*(_has(p["name"], p["phone"]) for p in people))


_OPEN = "tap 'Contacts'"

TASKS: list[Task] = [
    Task(
        "contacts_add_alice",
        PACKAGE,
        "Create a new contact for Alice Walker. Their number is 2122000000.",
        _has("Alice Walker", "2122000000"),
        6,
        params={"name": "Alice Walker", "number": "2122000000"},
        paraphrases=(
            "save Alice Walker, 2122000000 to contacts",
            "Add Alice Walker as a contact with the phone number 212-200-0000",
            "Could you put Alice Walker (2122000000) in my contacts?",
        ),
        solution=(
            _OPEN,
            "tap 'Create contact'",
            "type 'Alice' into 'First name'",
            "type 'Walker' into 'Last name'",
            "type '2122000000' into 'Phone'",
            "tap 'Save'",
        ),
    ),
    Task(
        "contacts_add_john",
        PACKAGE,
        "Add John as a contacts and set his mobile phone number to be 12345678",
        _has("John", "12345678"),
        5,
        params={"name": "John", "number": "12345678"},
        paraphrases=("save John, 12345678 to contacts", "New contact: John, 12345678"),
        solution=(
            _OPEN,
            "tap 'Create contact'",
            "type 'John' into 'First name'",
            "type '12345678' into 'Phone'",
            "tap 'Save'",
        ),
    ),
    Task(
        "contacts_add_with_email",
        PACKAGE,
        'Add a contacts whose first name is "John", last name is "Smith", mobile phone '
        "number is 12345678, and email as 123456@gmail.com",
        _has("John Smith", "12345678", "123456@gmail.com"),
        7,
        difficulty="medium",
        params={
            "first": "John",
            "last": "Smith",
            "number": "12345678",
            "email": "123456@gmail.com",
        },
        paraphrases=(
            "Create a contact John Smith, phone 12345678, email 123456@gmail.com",
            "save John Smith to my contacts with number 12345678 and e-mail 123456@gmail.com",
        ),
        solution=(
            _OPEN,
            "tap 'Create contact'",
            "type 'John' into 'First name'",
            "type 'Smith' into 'Last name'",
            "type '12345678' into 'Phone'",
            "type '123456@gmail.com' into 'Email'",
            "tap 'Save'",
        ),
    ),
    Task(
        "contacts_delete_frank",
        PACKAGE,
        "Delete contacts Frank Miller",
        _gone("Frank Miller"),
        5,
        params={"name": "Frank Miller"},
        paraphrases=(
            "Remove Frank Miller from my contacts.",
            "I don't need Frank Miller's contact any more, delete it",
        ),
        solution=(
            _OPEN,
            "tap 'Frank Miller'",
            "tap 'more options'",
            "tap 'Delete'",
            "tap 'Delete'",
        ),
    ),
    Task(
        "contacts_edit_david_number",
        PACKAGE,
        "Change David Kim's phone number to 408-555-0100.",
        _has("David Kim", "4085550100"),
        6,
        difficulty="medium",
        params={"name": "David Kim", "number": "4085550100"},
        paraphrases=(
            "David Kim has a new number, 4085550100: update his contact",
            "Edit the contact David Kim so his phone is 408 555 0100",
        ),
        solution=(
            _OPEN,
            "tap 'David Kim'",
            "tap 'pencil_outline'",
            "clear 'Phone'",
            "type '4085550100' into 'Phone'",
            "tap 'Save'",
        ),
    ),
    Task(
        "contacts_import_vcf",
        PACKAGE,
        "Import the contacts in contacts.vcf from Downloads.",
        _imported("contacts.vcf"),
        4,
        params={"file": "contacts.vcf"},
        difficulty="medium",
        paraphrases=(
            "Add the people in the contacts.vcf file to my contacts",
            "import contacts from the vcf file in my downloads",
            "Load contacts.vcf into Contacts.",
        ),
        solution=(_OPEN, "tap 'Fix & manage'", "tap 'Import from file'", "tap 'contacts.vcf'"),
    ),
    Task(
        "contacts_import_team_vcf",
        PACKAGE,
        "Import my team's contacts from team.vcf",
        _imported("team.vcf"),
        4,
        params={"file": "team.vcf"},
        difficulty="medium",
        paraphrases=("Add everyone in team.vcf to Contacts", "import team.vcf"),
        solution=(_OPEN, "tap 'Fix & manage'", "tap 'Import from file'", "tap 'team.vcf'"),
    ),
    Task(
        "contacts_search_smith",
        PACKAGE,
        "Search my contacts for Smith.",
        _top("search", query="smith"),
        2,
        params={"query": "Smith"},
        paraphrases=("Look up Smith in Contacts", "find contacts named Smith"),
        solution=(_OPEN, "type 'Smith' into 'Search contacts'"),
    ),
    Task(
        "contacts_open_hannah",
        PACKAGE,
        "What is Hannah Smith's phone number?",
        _top("detail", name="Hannah Smith"),
        2,
        params={"name": "Hannah Smith"},
        paraphrases=("Open Hannah Smith's contact card", "show me Hannah Smith's contact"),
        solution=(_OPEN, "tap 'Hannah Smith'"),
    ),
    Task(
        "contacts_call_bob",
        PACKAGE,
        "Call Bob Lee",
        _called("Bob Lee"),
        3,
        params={"name": "Bob Lee"},
        paraphrases=("Phone Bob Lee.", "give Bob Lee a call from Contacts"),
        solution=(_OPEN, "tap 'Bob Lee'", "tap 'Call'"),
    ),
    Task(
        "contacts_star_grace",
        PACKAGE,
        "Add Grace Park to my favorites.",
        _starred("Grace Park"),
        3,
        params={"name": "Grace Park"},
        paraphrases=("Star the contact Grace Park", "make Grace Park a favorite contact"),
        solution=(_OPEN, "tap 'Grace Park'", "tap 'star_outline'"),
    ),
]
