"""The shell's interpreter: runs a parsed command line against the phone.

``Shell.run`` is ``sh -c LINE``: and-or lists and pipelines run in order (``&`` too),
words are expanded (variables, ``$?``, command substitution, field splitting, globs
against the phone's files), redirections go to the in-memory file system, and each
command is looked up in the table ``commands.android_commands`` builds. A name not
in it answers ``/system/bin/sh: NAME: inaccessible or not found``, status 127.
"""

from __future__ import annotations

import fnmatch
import os
import posixpath
import re
from collections.abc import Callable

from screenpilot.simulator.backend import PhoneBackend
from screenpilot.simulator.shell.call import SH, Builtin, Call, ShellExit
from screenpilot.simulator.shell.commands import android_commands
from screenpilot.simulator.shell.filesystem import MemoryFileSystem
from screenpilot.simulator.shell.streams import BufferIO, RedirectedIO, ShellIO
from screenpilot.simulator.shell.syntax import (
    NAME,
    AndOr,
    Command,
    Part,
    Pipeline,
    Redirect,
    ShellSyntaxError,
    Word,
    parse,
)

ARG_MAX = 131072  # Linux MAX_ARG_STRLEN: the longest single argument execve accepts


class Shell:
    """One ``sh -c`` invocation's state: variables, ``$?``, the phone and its files."""

    def __init__(self, backend: PhoneBackend, fs: MemoryFileSystem | None = None) -> None:
        self.backend = backend
        self.fs = fs if fs is not None else MemoryFileSystem()
        self.vars: dict[str, str] = {}
        self.status = 0
        self.cwd = "/"
        self.commands: dict[str, Builtin] = android_commands(self)

    # --- entry points -------------------------------------------------------------------
    def run(self, line: str, io: ShellIO) -> int:
        """Run a command line as ``sh -c LINE``; returns the exit status."""
        if len(line.encode()) >= ARG_MAX:
            io.err(f"error: exec '{SH}' failed: Argument list too long\n".encode())
            return 126
        try:
            program = parse(line)
        except ShellSyntaxError as exc:
            io.err(f"{SH}: {exc}\n".encode())
            self.status = 1 if "syntax" in str(exc) else 2
            return self.status
        try:
            return self.run_program(program, io)
        except ShellExit as stop:
            self.status = stop.status
            return stop.status

    def capture(self, line: str, io: ShellIO | None = None) -> tuple[int, bytes]:
        """Run ``line`` and return (status, stdout); stderr goes to ``io`` when given."""
        buf = BufferIO(io, keep_err=io is None)
        sub = Shell.__new__(Shell)
        sub.__dict__.update(self.__dict__)
        sub.vars = dict(self.vars)
        sub.commands = android_commands(sub)
        status = sub.run(line, buf)
        return status, bytes(buf.stdout)

    def run_program(self, program: list[AndOr], io: ShellIO) -> int:
        for item in program:
            if io.closed:
                break
            if item.joiner == "&&" and self.status != 0:
                continue
            if item.joiner == "||" and self.status == 0:
                continue
            self.status = self._pipeline(item.pipeline, io)
        return self.status

    # --- pipelines and commands ---------------------------------------------------------
    def _pipeline(self, pipeline: Pipeline, io: ShellIO) -> int:
        stdin = b""
        status = 0
        for index, command in enumerate(pipeline.commands):
            last = index == len(pipeline.commands) - 1
            target: ShellIO = io if last else BufferIO(io, keep_err=False)
            status = self._command(command, stdin, target)
            if isinstance(target, BufferIO):
                stdin = bytes(target.stdout)
        return status

    def _command(self, command: Command, stdin: bytes, io: ShellIO) -> int:
        words = list(command.words)
        assignments: dict[str, str] = {}
        while words and (assign := self._assignment(words[0])) is not None:
            assignments[assign[0]] = assign[1]
            words.pop(0)
        args = [f for word in words for f in self.expand(word, io)]
        redirected = self._redirect(command.redirects, stdin, io)
        if isinstance(redirected, int):
            return redirected
        call_io, call_stdin, flush = redirected
        if not args:
            self.vars.update(assignments)
            flush()
            return 0
        status = self._exec(Call(args, call_stdin, call_io))
        flush()
        return status

    def _exec(self, call: Call) -> int:
        name = call.args[0]
        for prefix in ("/system/bin/", "/system/xbin/", "/bin/", "/vendor/bin/"):
            if name.startswith(prefix) and name[len(prefix) :] in self.commands:
                name = name[len(prefix) :]
        handler = self.commands.get(name)
        if handler is None:
            call.error(f"{SH}: {call.args[0]}: inaccessible or not found")
            return 127
        call.args = call.args[1:]
        return handler(call)

    def _assignment(self, word: Word) -> tuple[str, str] | None:
        first = word.parts[0] if word.parts else None
        if first is None or first.kind != "lit" or first.quoted or "=" not in first.text:
            return None
        name, _, value = first.text.partition("=")
        if not NAME.fullmatch(name):
            return None
        rest = Word((Part("lit", value, True), *word.parts[1:]))
        return name, "".join(self.expand(rest, None, split=False))

    # --- expansion ----------------------------------------------------------------------
    def expand(self, word: Word, io: ShellIO | None, *, split: bool = True) -> list[str]:
        """The fields a word becomes: parameters, substitutions, field splitting, globs."""
        fields: list[list[str]] = [[]]
        keep = [False]
        globbable = False
        for part in word.parts:
            value = self._part_value(part, io)
            if part.quoted or part.kind == "lit" or not split:
                fields[-1].append(value)
                keep[-1] = keep[-1] or part.quoted or bool(value)
                globbable = globbable or (
                    part.kind == "lit" and not part.quoted and any(ch in value for ch in "*?[")
                )
                continue
            pieces = re.split(r"[ \t\n]+", value)
            for i, piece in enumerate(pieces):
                if i > 0:
                    fields.append([])
                    keep.append(False)
                fields[-1].append(piece)
                keep[-1] = keep[-1] or bool(piece)
        result = ["".join(f) for f, k in zip(fields, keep, strict=True) if k]
        if globbable and split:
            result = [m for f in result for m in self._glob(f)]
        return result

    def _part_value(self, part: Part, io: ShellIO | None) -> str:
        if part.kind == "lit":
            return part.text
        if part.kind == "var":
            return self._variable(part.text)
        _status, out = self.capture(part.text, io)
        self.status = _status
        return out.decode(errors="replace").rstrip("\n")

    def _variable(self, name: str) -> str:
        specials = {
            "?": str(self.status),
            "$": str(os.getpid()),
            "#": "0",
            "0": SH,
            "-": "",
            "!": "",
            "*": "",
            "@": "",
        }
        if name in specials:
            return specials[name]
        return self.vars.get(name, "")

    def _glob(self, pattern: str) -> list[str]:
        absolute = pattern.startswith("/")
        parts = [p for p in pattern.split("/") if p]
        matches = ["/" if absolute else ""]
        for part in parts:
            nxt: list[str] = []
            for base in matches:
                if not any(ch in part for ch in "*?["):
                    nxt.append(posixpath.join(base, part) if base else part)
                    continue
                entries = self.fs.listdir(self.fs.normalize(base or ".", self.cwd)) or []
                nxt += [
                    posixpath.join(base, n) if base else n
                    for n, _ in entries
                    if fnmatch.fnmatchcase(n, part) and not n.startswith(".")
                ]
            matches = nxt
        found = [m for m in matches if self.fs.stat(self.fs.normalize(m, self.cwd))]
        return sorted(found) or [pattern]

    # --- redirections -------------------------------------------------------------------
    def _redirect(
        self, redirects: list[Redirect], stdin: bytes, io: ShellIO
    ) -> int | tuple[ShellIO, bytes, Callable[[], None]]:
        if not redirects:
            return io, stdin, lambda: None
        fds: dict[int, Callable[[bytes], None]] = {1: io.out, 2: io.err}
        files: list[tuple[str, bytearray]] = []
        for red in redirects:
            target = "".join(self.expand(red.target, io, split=False)) if red.target else ""
            if red.op in (">&", "<&"):
                if target.isdigit() and int(target) in fds:
                    fds[red.fd] = fds[int(target)]
                continue
            if red.op == "<":
                data = (
                    b""
                    if target == "/dev/null"
                    else self.fs.read(self.fs.normalize(target, self.cwd))
                )
                if data is None:
                    io.err(f"{SH}: can't open {target}: No such file or directory\n".encode())
                    return 1
                stdin = data
                continue
            if target == "/dev/null":
                fds[red.fd] = _discard
                continue
            path = self.fs.normalize(target, self.cwd)
            error = self.fs.write(path, b"", append=red.op == ">>")
            if error:
                io.err(f"{SH}: can't create {target}: {error}\n".encode())
                return 1
            buf = bytearray()
            files.append((path, buf))
            fds[red.fd] = buf.extend

        def flush() -> None:
            for path, buf in files:
                self.fs.write(path, bytes(buf), append=True)

        return RedirectedIO(io, fds), stdin, flush


def _discard(_data: bytes) -> None:
    return None
