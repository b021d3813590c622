"""The toybox tools on the virtual phone: echo, cat, ls, grep, head, sleep, exit...

They work on the phone's in-memory file system and print what Android's toybox
prints, so scripts written for a real phone run unchanged.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from screenpilot.simulator.shell.call import POLL_S, SH, Builtin, Call, ShellExit
from screenpilot.simulator.shell.filesystem import FileEntry

if TYPE_CHECKING:
    from screenpilot.simulator.shell.interpreter import Shell

ID_TEXT = (
    "uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),"
    "1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),"
    "3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),"
    "3011(uhid),3012(readtracefs) context=u:r:shell:s0"
)


class Toybox:
    """The toybox tools a script on a phone usually needs."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        self.fs = shell.fs

    def table(self) -> dict[str, Builtin]:
        return {
            "echo": self.echo,
            "true": lambda c: 0,
            "false": lambda c: 1,
            "id": self.id,
            "whoami": self.whoami,
            "sleep": self.sleep,
            "cat": self.cat,
            "ls": self.ls,
            "rm": self.rm,
            "mkdir": self.mkdir,
            "grep": self.grep,
            "head": self.head,
            "tail": self.tail,
            "wc": self.wc,
            "pwd": self.pwd,
            "cd": self.cd,
            "exit": self.exit,
            "uname": self.uname,
        }

    def echo(self, call: Call) -> int:
        args, newline, escapes = list(call.args), True, False
        while args and re.fullmatch(r"-[neE]+", args[0]):
            flags = args.pop(0)
            newline = newline and "n" not in flags
            escapes = "e" in flags or (escapes and "E" not in flags)
        text = " ".join(args)
        if escapes:
            text = text.encode("latin-1", "backslashreplace").decode("unicode_escape")
        call.print(text, end="\n" if newline else "")
        return 0

    def id(self, call: Call) -> int:
        call.print(ID_TEXT)
        return 0

    def whoami(self, call: Call) -> int:
        call.print("shell")
        return 0

    def uname(self, call: Call) -> int:
        call.print(
            "Linux"
            if not call.args
            else "Linux localhost 5.15.110-android14 #1 SMP PREEMPT aarch64 Toybox"
        )
        return 0

    def pwd(self, call: Call) -> int:
        call.print(self.shell.cwd)
        return 0

    def cd(self, call: Call) -> int:
        path = self.fs.normalize(call.args[0] if call.args else "/", self.shell.cwd)
        entry = self.fs.stat(path)
        if entry is None or not entry.is_dir:
            call.error(f"{SH}: cd: {path}: No such file or directory")
            return 2
        self.shell.cwd = path
        return 0

    def exit(self, call: Call) -> int:
        arg = call.args[0] if call.args else str(self.shell.status)
        raise ShellExit(int(arg) & 0xFF if arg.isdigit() else 0)

    def sleep(self, call: Call) -> int:
        try:
            seconds = sum(float(a.rstrip("s")) for a in call.args) if call.args else -1.0
        except ValueError:
            seconds = -1.0
        if seconds < 0:
            call.error("usage: sleep DURATION[smhd]...\n\nWait before exiting.")
            return 1
        deadline = time.monotonic() + seconds
        while not call.io.closed and (left := deadline - time.monotonic()) > 0:
            time.sleep(min(left, POLL_S))
        return 0

    def _files(self, call: Call) -> Iterator[tuple[str, bytes | None]]:
        for name in call.args:
            yield name, self.fs.read(self.fs.normalize(name, self.shell.cwd))

    def cat(self, call: Call) -> int:
        if not call.args:
            call.io.out(call.stdin)
            return 0
        status = 0
        for name, data in self._files(call):
            if data is None:
                entry = self.fs.stat(self.fs.normalize(name, self.shell.cwd))
                reason = "Is a directory" if entry else "No such file or directory"
                call.error(f"cat: {name}: {reason}")
                status = 1
            else:
                call.io.out(data)
        return status

    def ls(self, call: Call) -> int:
        flags = "".join(a[1:] for a in call.args if a.startswith("-"))
        paths = [a for a in call.args if not a.startswith("-")] or ["."]
        status = 0
        for path in paths:
            full = self.fs.normalize(path, self.shell.cwd)
            entry = self.fs.stat(full)
            if entry is None:
                call.error(f"ls: {path}: No such file or directory")
                status = 1
                continue
            items = self.fs.listdir(full) if entry.is_dir else [(path, entry)]
            if len(paths) > 1 and entry.is_dir:
                call.print(f"{path}:")
            for name, child in items or []:
                call.print(_ls_long(name, child) if "l" in flags else name)
        return status

    def rm(self, call: Call) -> int:
        flags = "".join(a[1:] for a in call.args if a.startswith("-"))
        status = 0
        for path in (a for a in call.args if not a.startswith("-")):
            error = self.fs.remove(
                self.fs.normalize(path, self.shell.cwd), recursive="r" in flags or "R" in flags
            )
            if error and not ("f" in flags and error.startswith("No such")):
                call.error(f"rm: {path}: {error}")
                status = 1
        return status

    def mkdir(self, call: Call) -> int:
        parents = "-p" in call.args
        status = 0
        for path in (a for a in call.args if not a.startswith("-")):
            error = self.fs.mkdir(self.fs.normalize(path, self.shell.cwd))
            if error and not (parents and error == "File exists"):
                call.error(f"mkdir: '{path}': {error}")
                status = 1
        return status

    def grep(self, call: Call) -> int:
        flags = "".join(a[1:] for a in call.args if a.startswith("-") and len(a) > 1)
        rest = [a for a in call.args if not (a.startswith("-") and len(a) > 1)]
        if not rest:
            call.error("usage: grep [-EFivcq] PATTERN [FILE...]")
            return 2
        pattern, files = rest[0], rest[1:]
        if "F" in flags:
            pattern = re.escape(pattern)
        elif "E" not in flags:
            pattern = re.sub(
                r"\\([+?|(){}])|([+?|(){}])", lambda m: m.group(1) or "\\" + m.group(2), pattern
            )
        regex = re.compile(pattern, re.IGNORECASE if "i" in flags else 0)
        text = call.stdin if not files else b"".join(d or b"" for _, d in self._files(call))
        lines = [
            ln
            for ln in text.decode(errors="replace").splitlines()
            if bool(regex.search(ln)) != ("v" in flags)
        ]
        if "c" in flags:
            call.print(str(len(lines)))
        elif "q" not in flags:
            for line in lines:
                call.print(line)
        return 0 if lines else 1

    def _count_arg(self, call: Call, default: int) -> tuple[int, bytes]:
        count, files = default, []
        args = iter(call.args)
        for arg in args:
            if arg == "-n":
                count = int(next(args, str(default)))
            elif re.fullmatch(r"-n?\d+", arg):
                count = int(arg.lstrip("-n"))
            else:
                files.append(arg)
        if files:
            return count, b"".join(
                self.fs.read(self.fs.normalize(f, self.shell.cwd)) or b"" for f in files
            )
        return count, call.stdin

    def head(self, call: Call) -> int:
        count, data = self._count_arg(call, 10)
        call.io.out(b"".join(data.splitlines(keepends=True)[:count]))
        return 0

    def tail(self, call: Call) -> int:
        count, data = self._count_arg(call, 10)
        lines = data.splitlines(keepends=True)
        call.io.out(b"".join(lines[-count:] if count else []))
        return 0

    def wc(self, call: Call) -> int:
        data = call.stdin
        lines, words, chars = data.count(b"\n"), len(data.split()), len(data)
        if "-l" in call.args:
            call.print(str(lines))
        else:
            call.print(f"{lines:7d} {words:7d} {chars:7d}")
        return 0


def _ls_long(name: str, entry: FileEntry) -> str:
    kind = "d" if entry.is_dir else "-"
    perm = "".join(c if entry.mode & (1 << (8 - i)) else "-" for i, c in enumerate("rwxrwxrwx"))
    stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime(entry.mtime))
    return f"{kind}{perm} 1 shell shell {len(entry.data):>8} {stamp} {name}"
