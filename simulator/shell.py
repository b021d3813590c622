"""The virtual phone's ``/system/bin/sh``: a small POSIX-like shell and Android's commands.

adbd hands every ``shell:`` command line to ``Shell.run``. The line is parsed the
way mksh parses ``sh -c LINE`` on a real phone, so text that a client forgot to
escape is mangled exactly as it would be on Android:

* words: blanks split, ``'...'`` is literal, ``"..."`` keeps ``$`` expansion and
  ``\\`` before ``$ ` " \\``, an unquoted ``\\`` escapes the next character,
  ``#`` at the start of a word starts a comment;
* ``$NAME``/``${NAME}`` expand to the shell variable or to nothing when unset
  (unquoted empty expansions vanish), ``$?`` is the last status, ``$(...)`` and
  backquotes run a command and splice its output (split on blanks when unquoted),
  ``*``/``?`` glob against the phone's file system;
* ``;``, ``&`` (run in order here), ``&&``, ``||``, ``|`` and the redirections
  ``> >> < 2> 2>&1 >&2``; an unquoted ``(`` or ``)`` is a syntax error.

Commands print what Android 14 prints (``input``, ``screencap``, ``wm``, ``am``,
``monkey``, ``pm``, ``ime``, ``settings``, ``content``, ``dumpsys``, ``getprop``,
``getevent``, ``cmd`` and a few toybox tools on a small in-memory file system
rooted at /sdcard and /data/local/tmp). Anything else:
``/system/bin/sh: NAME: inaccessible or not found``, status 127.
"""

from __future__ import annotations

import fnmatch
import itertools
import os
import posixpath
import queue
import re
import struct
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from screenpilot.simulator.backend import PhoneBackend, TouchEvent

SH = "/system/bin/sh"
ARG_MAX = 131072  # Linux MAX_ARG_STRLEN: the longest single argument execve accepts
POLL_S = 0.2


# ======================================================================================
# output
# ======================================================================================
class ShellIO(ABC):
    """Where a command's output goes; ``closed`` turns true when the client has left."""

    @abstractmethod
    def out(self, data: bytes) -> None:
        """Write to stdout."""

    @abstractmethod
    def err(self, data: bytes) -> None:
        """Write to stderr."""

    @property
    @abstractmethod
    def closed(self) -> bool:
        """True once nobody is listening any more."""


class BufferIO(ShellIO):
    """Collects output in memory (pipes, command substitution, tests)."""

    def __init__(self, parent: ShellIO | None = None, *, keep_err: bool = True) -> None:
        self.parent = parent
        self.keep_err = keep_err
        self.stdout = bytearray()
        self.stderr = bytearray()

    def out(self, data: bytes) -> None:
        self.stdout += data

    def err(self, data: bytes) -> None:
        if self.keep_err or self.parent is None:
            self.stderr += data
        else:
            self.parent.err(data)

    @property
    def closed(self) -> bool:
        return self.parent.closed if self.parent is not None else False


class _RedirectedIO(ShellIO):
    """stdout/stderr sent where a command's redirections say."""

    def __init__(self, parent: ShellIO, fds: dict[int, Callable[[bytes], None]]) -> None:
        self.parent = parent
        self.fds = fds

    def out(self, data: bytes) -> None:
        self.fds[1](data)

    def err(self, data: bytes) -> None:
        self.fds[2](data)

    @property
    def closed(self) -> bool:
        return self.parent.closed


# ======================================================================================
# file system
# ======================================================================================
S_IFDIR = 0o040000
S_IFREG = 0o100000
WRITABLE_ROOTS = ("/sdcard", "/data/local/tmp")
INITIAL_DIRS = ("/", "/data", "/data/local", "/data/local/tmp", "/sdcard", "/sdcard/Download",
                "/sdcard/DCIM", "/sdcard/Pictures", "/sdcard/Documents", "/sdcard/Music",
                "/sdcard/Movies", "/storage", "/system", "/system/bin", "/dev")
_inode = itertools.count(1000)


@dataclass
class FileEntry:
    """A file or directory of the in-memory file system."""

    mode: int
    data: bytes = b""
    mtime: float = field(default_factory=time.time)
    inode: int = field(default_factory=lambda: next(_inode))

    @property
    def is_dir(self) -> bool:
        return bool(self.mode & S_IFDIR) and not self.mode & S_IFREG


class MemoryFileSystem:
    """The phone's storage: /sdcard and /data/local/tmp are writable, the rest read-only.

    ``/storage/emulated/0`` and ``/storage/self/primary`` are aliases of ``/sdcard``.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: dict[str, FileEntry] = {d: FileEntry(S_IFDIR | 0o775)
                                               for d in INITIAL_DIRS}

    @staticmethod
    def normalize(path: str, cwd: str = "/") -> str:
        """Absolute, normalised, with the /sdcard aliases resolved."""
        full = posixpath.normpath(posixpath.join(cwd, path or "."))
        full = "/" + full.lstrip("/")
        for alias in ("/storage/emulated/0", "/storage/self/primary", "/mnt/sdcard"):
            if full == alias or full.startswith(alias + "/"):
                full = "/sdcard" + full[len(alias):]
        return full

    def stat(self, path: str) -> FileEntry | None:
        with self._lock:
            return self._entries.get(self.normalize(path))

    def read(self, path: str) -> bytes | None:
        entry = self.stat(path)
        return None if entry is None or entry.is_dir else entry.data

    def listdir(self, path: str) -> list[tuple[str, FileEntry]] | None:
        """(name, entry) of a directory's children, sorted; None if not a directory."""
        base = self.normalize(path)
        with self._lock:
            entry = self._entries.get(base)
            if entry is None or not entry.is_dir:
                return None
            prefix = base.rstrip("/") + "/"
            return sorted((p[len(prefix):], e) for p, e in self._entries.items()
                          if p.startswith(prefix) and p != prefix
                          and "/" not in p[len(prefix):])

    def write(self, path: str, data: bytes, *, mode: int = S_IFREG | 0o660,
              mtime: float | None = None, append: bool = False) -> str | None:
        """Create or replace a file (parents made as needed); the error text or None."""
        full = self.normalize(path)
        if not self._writable(full):
            return "Read-only file system"
        with self._lock:
            existing = self._entries.get(full)
            if existing is not None and existing.is_dir:
                return "Is a directory"
            self._make_parents(full)
            old = existing.data if existing is not None and append else b""
            perm = mode & 0o7777 or 0o660
            self._entries[full] = FileEntry(S_IFREG | perm, old + data,
                                            time.time() if mtime is None else mtime)
        return None

    def mkdir(self, path: str) -> str | None:
        full = self.normalize(path)
        if not self._writable(full):
            return "Read-only file system"
        with self._lock:
            if full in self._entries:
                return "File exists"
            self._make_parents(full)
            self._entries[full] = FileEntry(S_IFDIR | 0o775)
        return None

    def remove(self, path: str, *, recursive: bool = False) -> str | None:
        """Delete a file (or a tree with ``recursive``); the error text or None."""
        full = self.normalize(path)
        with self._lock:
            entry = self._entries.get(full)
            if entry is None:
                return "No such file or directory"
            if not self._writable(full) or full in INITIAL_DIRS:
                return "Permission denied"
            if entry.is_dir and not recursive:
                return "Is a directory"
            for key in [k for k in self._entries if k == full or k.startswith(full + "/")]:
                del self._entries[key]
        return None

    @staticmethod
    def _writable(full: str) -> bool:
        return any(full == r or full.startswith(r + "/") for r in WRITABLE_ROOTS)

    def _make_parents(self, full: str) -> None:
        parent = posixpath.dirname(full)
        while parent not in self._entries:
            self._entries[parent] = FileEntry(S_IFDIR | 0o775)
            parent = posixpath.dirname(parent)


# ======================================================================================
# parsing
# ======================================================================================
class ShellSyntaxError(Exception):
    """A command line mksh would refuse to run."""


class ShellExit(Exception):
    """``exit N``: ends the whole command line with status N."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


@dataclass(frozen=True, slots=True)
class Part:
    """A piece of a word: literal text, a parameter, or a command substitution."""

    kind: str  # "lit" | "var" | "sub"
    text: str
    quoted: bool


@dataclass(frozen=True, slots=True)
class Word:
    parts: tuple[Part, ...]


@dataclass(frozen=True, slots=True)
class Op:
    text: str


@dataclass(frozen=True, slots=True)
class Redirect:
    fd: int
    op: str  # ">", ">>", "<", ">&", "<&"
    target: Word | None = None


@dataclass
class Command:
    words: list[Word] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)


@dataclass
class Pipeline:
    commands: list[Command]


@dataclass
class AndOr:
    """A pipeline and how it joins the previous one: ';', '&&' or '||'."""

    joiner: str
    pipeline: Pipeline


Token = Word | Op | Redirect
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPECIAL_PARAMS = "?$#!-*@0123456789"


class Lexer:
    """Splits a command line into words, operators and redirections (POSIX quoting)."""

    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0
        self.tokens: list[Token] = []
        self.parts: list[Part] = []
        self.lit: list[str] = []
        self.started = False  # the current word has begun (even if empty, e.g. '')

    def tokenize(self) -> list[Token]:
        while self.i < len(self.s):
            self._step(self.s[self.i])
        self._end_word()
        return self.tokens

    # --- the current word -------------------------------------------------------------
    def _flush_lit(self, quoted: bool = False) -> None:
        if self.lit:
            self.parts.append(Part("lit", "".join(self.lit), quoted))
            self.lit = []

    def _add(self, part: Part) -> None:
        self._flush_lit()
        self.parts.append(part)
        self.started = True

    def _end_word(self) -> None:
        self._flush_lit()
        if self.started:
            self.tokens.append(Word(tuple(self.parts)))
        self.parts, self.started = [], False

    # --- one character ------------------------------------------------------------------
    def _step(self, c: str) -> None:
        if c in " \t":
            self._end_word()
            self.i += 1
        elif c == "\n":
            self._end_word()
            self.tokens.append(Op(";"))
            self.i += 1
        elif c == "#" and not self.started:
            end = self.s.find("\n", self.i)
            self.i = len(self.s) if end < 0 else end
        elif c == "'":
            self._single_quoted()
        elif c == '"':
            self._double_quoted()
        elif c == "\\":
            self._backslash()
        elif c == "$":
            self._dollar(quoted=False)
        elif c == "`":
            self._backquote(quoted=False)
        elif c in ";&|":
            self._operator()
        elif c in "<>":
            self._redirect()
        elif c in "()":
            raise ShellSyntaxError(f"syntax error: '{c}' unexpected")
        else:
            self.lit.append(c)
            self.started = True
            self.i += 1

    def _single_quoted(self) -> None:
        end = self.s.find("'", self.i + 1)
        if end < 0:
            raise ShellSyntaxError("no closing quote")
        self._add(Part("lit", self.s[self.i + 1:end], True))
        self.i = end + 1

    def _double_quoted(self) -> None:
        self._flush_lit()
        self.started = True
        self.i += 1
        buf: list[str] = []
        while True:
            if self.i >= len(self.s):
                raise ShellSyntaxError("no closing quote")
            c = self.s[self.i]
            if c == '"':
                self.i += 1
                break
            if c == "\\" and self.i + 1 < len(self.s) and self.s[self.i + 1] in '$`"\\\n':
                if self.s[self.i + 1] != "\n":
                    buf.append(self.s[self.i + 1])
                self.i += 2
            elif c in "$`":
                self.parts.append(Part("lit", "".join(buf), True))
                buf = []
                self._dollar(quoted=True) if c == "$" else self._backquote(quoted=True)
            else:
                buf.append(c)
                self.i += 1
        self.parts.append(Part("lit", "".join(buf), True))

    def _backslash(self) -> None:
        if self.i + 1 >= len(self.s):
            self.lit.append("\\")
            self.started = True
            self.i += 1
            return
        nxt = self.s[self.i + 1]
        self.i += 2
        if nxt == "\n":
            return
        self._flush_lit()
        self.parts.append(Part("lit", nxt, True))
        self.started = True

    def _dollar(self, *, quoted: bool) -> None:
        rest = self.s[self.i + 1:]
        if rest.startswith("("):
            end = _matching_paren(self.s, self.i + 2)
            self._add(Part("sub", self.s[self.i + 2:end], quoted))
            self.i = end + 1
        elif rest.startswith("{"):
            end = self.s.find("}", self.i + 2)
            if end < 0:
                raise ShellSyntaxError("${: bad substitution")
            name = self.s[self.i + 2:end]
            if not (_NAME.fullmatch(name) or (len(name) == 1 and name in _SPECIAL_PARAMS)):
                raise ShellSyntaxError(f"${{{name}}}: bad substitution")
            self._add(Part("var", name, quoted))
            self.i = end + 1
        elif rest[:1] and rest[0] in _SPECIAL_PARAMS:
            self._add(Part("var", rest[0], quoted))
            self.i += 2
        elif (m := _NAME.match(rest)) is not None:
            self._add(Part("var", m.group(0), quoted))
            self.i += 1 + m.end()
        else:
            self._add(Part("lit", "$", quoted))
            self.i += 1

    def _backquote(self, *, quoted: bool) -> None:
        buf: list[str] = []
        j = self.i + 1
        while True:
            if j >= len(self.s):
                raise ShellSyntaxError("no closing quote")
            c = self.s[j]
            if c == "`":
                break
            if c == "\\" and j + 1 < len(self.s) and self.s[j + 1] in "$`\\":
                buf.append(self.s[j + 1])
                j += 2
                continue
            buf.append(c)
            j += 1
        self._add(Part("sub", "".join(buf), quoted))
        self.i = j + 1

    def _operator(self) -> None:
        self._end_word()
        two = self.s[self.i:self.i + 2]
        if two in ("&&", "||"):
            self.tokens.append(Op(two))
            self.i += 2
        elif two == ";;":
            raise ShellSyntaxError("syntax error: ';;' unexpected")
        else:
            self.tokens.append(Op(self.s[self.i]))
            self.i += 1

    def _redirect(self) -> None:
        fd = -1
        if not self.parts and self.lit and "".join(self.lit).isdigit():
            fd = int("".join(self.lit))
            self.lit, self.started = [], False
        self._end_word()
        c = self.s[self.i]
        op = self.s[self.i:self.i + 2]
        if op in (">>", ">&", "<&", ">|"):
            self.i += 2
            op = ">" if op == ">|" else op
        else:
            op, self.i = c, self.i + 1
        if fd < 0:
            fd = 0 if op.startswith("<") else 1
        self.tokens.append(Redirect(fd, op))


def _matching_paren(s: str, start: int) -> int:
    """Index of the ``)`` closing a ``$(`` whose body starts at ``start``."""
    depth, i = 1, start
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
            continue
        if c == "'":
            end = s.find("'", i + 1)
            i = len(s) if end < 0 else end + 1
            continue
        if c == '"':
            i += 1
            while i < len(s) and s[i] != '"':
                i += 2 if s[i] == "\\" else 1
            i += 1
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ShellSyntaxError("no closing quote")


def parse(text: str) -> list[AndOr]:
    """The and-or lists of a command line; ``ShellSyntaxError`` when mksh would refuse it."""
    tokens = Lexer(text).tokenize()
    result: list[AndOr] = []
    joiner = ";"
    current: list[Command] = [Command()]
    pending_target: Redirect | None = None
    for tok in tokens:
        if pending_target is not None:
            if not isinstance(tok, Word):
                raise ShellSyntaxError(f"syntax error: '{_show(tok)}' unexpected")
            current[-1].redirects.append(Redirect(pending_target.fd, pending_target.op, tok))
            pending_target = None
        elif isinstance(tok, Word):
            current[-1].words.append(tok)
        elif isinstance(tok, Redirect):
            pending_target = tok
        else:
            if _empty(current[-1]):
                raise ShellSyntaxError(f"syntax error: '{tok.text}' unexpected")
            if tok.text == "|":
                current.append(Command())
                continue
            result.append(AndOr(joiner, Pipeline(current)))
            joiner = ";" if tok.text in (";", "&") else tok.text
            current = [Command()]
    if pending_target is not None:
        raise ShellSyntaxError("syntax error: unexpected EOF")
    if _empty(current[-1]):
        if len(current) > 1 or joiner in ("&&", "||"):
            raise ShellSyntaxError("syntax error: unexpected EOF")
        return result
    result.append(AndOr(joiner, Pipeline(current)))
    return result


def _empty(cmd: Command) -> bool:
    return not cmd.words and not cmd.redirects


def _show(tok: Token) -> str:
    if isinstance(tok, Op):
        return tok.text
    if isinstance(tok, Redirect):
        return tok.op
    return "word"


# ======================================================================================
# the interpreter
# ======================================================================================
@dataclass
class Call:
    """One command being run: its arguments, stdin and output."""

    args: list[str]
    stdin: bytes
    io: ShellIO

    def print(self, text: str = "", end: str = "\n") -> None:
        self.io.out((text + end).encode())

    def error(self, text: str, end: str = "\n") -> None:
        self.io.err((text + end).encode())


Builtin = Callable[[Call], int]


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
            if name.startswith(prefix) and name[len(prefix):] in self.commands:
                name = name[len(prefix):]
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
        if not _NAME.fullmatch(name):
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
                globbable = globbable or (part.kind == "lit" and not part.quoted
                                          and any(ch in value for ch in "*?["))
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
        specials = {"?": str(self.status), "$": str(os.getpid()), "#": "0", "0": SH,
                    "-": "", "!": "", "*": "", "@": ""}
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
                nxt += [posixpath.join(base, n) if base else n for n, _ in entries
                        if fnmatch.fnmatchcase(n, part) and not n.startswith(".")]
            matches = nxt
        found = [m for m in matches if self.fs.stat(self.fs.normalize(m, self.cwd))]
        return sorted(found) or [pattern]

    # --- redirections -------------------------------------------------------------------
    def _redirect(self, redirects: list[Redirect], stdin: bytes, io: ShellIO
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
                data = b"" if target == "/dev/null" else self.fs.read(
                    self.fs.normalize(target, self.cwd))
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
        return _RedirectedIO(io, fds), stdin, flush


def _discard(_data: bytes) -> None:
    return None


# ======================================================================================
# Android's commands
# ======================================================================================
def android_commands(shell: Shell) -> dict[str, Builtin]:
    """The command table of one shell."""
    table: dict[str, Builtin] = dict(_toybox(shell))
    table.update(AndroidCommands(shell).table())
    return table


def _toybox(shell: Shell) -> Iterator[tuple[str, Builtin]]:
    tools = Toybox(shell)
    yield from (("echo", tools.echo), ("true", lambda c: 0), ("false", lambda c: 1),
                ("id", tools.id), ("whoami", tools.whoami), ("sleep", tools.sleep),
                ("cat", tools.cat), ("ls", tools.ls), ("rm", tools.rm),
                ("mkdir", tools.mkdir), ("grep", tools.grep), ("head", tools.head),
                ("tail", tools.tail), ("wc", tools.wc), ("pwd", tools.pwd),
                ("cd", tools.cd), ("exit", tools.exit), ("uname", tools.uname))


ID_TEXT = ("uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),"
           "1011(adb),1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),"
           "3001(net_bt_admin),3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),"
           "3011(uhid),3012(readtracefs) context=u:r:shell:s0")


class Toybox:
    """The toybox tools a script on a phone usually needs."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        self.fs = shell.fs

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
        call.print("Linux" if not call.args else "Linux localhost 5.15.110-android14 #1 "
                   "SMP PREEMPT aarch64 Toybox")
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
            error = self.fs.remove(self.fs.normalize(path, self.shell.cwd),
                                   recursive="r" in flags or "R" in flags)
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
            pattern = re.sub(r"\\([+?|(){}])|([+?|(){}])",
                             lambda m: m.group(1) or "\\" + m.group(2), pattern)
        regex = re.compile(pattern, re.IGNORECASE if "i" in flags else 0)
        text = call.stdin if not files else b"".join(d or b"" for _, d in self._files(call))
        lines = [ln for ln in text.decode(errors="replace").splitlines()
                 if bool(regex.search(ln)) != ("v" in flags)]
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
            return count, b"".join(self.fs.read(self.fs.normalize(f, self.shell.cwd)) or b""
                                   for f in files)
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
    perm = "".join(c if entry.mode & (1 << (8 - i)) else "-"
                   for i, c in enumerate("rwxrwxrwx"))
    stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime(entry.mtime))
    return f"{kind}{perm} 1 shell shell {len(entry.data):>8} {stamp} {name}"



# --------------------------------------------------------------------------------------
# key codes (android.view.KeyEvent), the touchscreen, and Java-style failures
# --------------------------------------------------------------------------------------
_KEY_NAME_TEXT = (
    "UNKNOWN SOFT_LEFT SOFT_RIGHT HOME BACK CALL ENDCALL 0 1 2 3 4 5 6 7 8 9 STAR POUND "
    "DPAD_UP DPAD_DOWN DPAD_LEFT DPAD_RIGHT DPAD_CENTER VOLUME_UP VOLUME_DOWN POWER CAMERA "
    "CLEAR A B C D E F G H I J K L M N O P Q R S T U V W X Y Z COMMA PERIOD ALT_LEFT "
    "ALT_RIGHT SHIFT_LEFT SHIFT_RIGHT TAB SPACE SYM EXPLORER ENVELOPE ENTER DEL GRAVE MINUS "
    "EQUALS LEFT_BRACKET RIGHT_BRACKET BACKSLASH SEMICOLON APOSTROPHE SLASH AT NUM "
    "HEADSETHOOK FOCUS PLUS MENU NOTIFICATION SEARCH MEDIA_PLAY_PAUSE MEDIA_STOP MEDIA_NEXT "
    "MEDIA_PREVIOUS MEDIA_REWIND MEDIA_FAST_FORWARD MUTE PAGE_UP PAGE_DOWN PICTSYMBOLS "
    "SWITCH_CHARSET BUTTON_A BUTTON_B BUTTON_C BUTTON_X BUTTON_Y BUTTON_Z BUTTON_L1 "
    "BUTTON_R1 BUTTON_L2 BUTTON_R2 BUTTON_THUMBL BUTTON_THUMBR BUTTON_START BUTTON_SELECT "
    "BUTTON_MODE ESCAPE FORWARD_DEL CTRL_LEFT CTRL_RIGHT CAPS_LOCK SCROLL_LOCK META_LEFT "
    "META_RIGHT FUNCTION SYSRQ BREAK MOVE_HOME MOVE_END INSERT FORWARD MEDIA_PLAY "
    "MEDIA_PAUSE MEDIA_CLOSE MEDIA_EJECT MEDIA_RECORD F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 "
    "F12 NUM_LOCK")
_KEY_NAMES = tuple(_KEY_NAME_TEXT.split())
KEYCODES: dict[str, int] = {name: code for code, name in enumerate(_KEY_NAMES)}
KEYCODES.update({"VOLUME_MUTE": 164, "SETTINGS": 176, "APP_SWITCH": 187, "ASSIST": 219,
                 "BRIGHTNESS_DOWN": 220, "BRIGHTNESS_UP": 221, "SLEEP": 223, "WAKEUP": 224,
                 "VOICE_ASSIST": 231, "ALL_APPS": 284, "CUT": 277,
                 "COPY": 278, "PASTE": 279, "SYSTEM_NAVIGATION_UP": 280,
                 "SYSTEM_NAVIGATION_DOWN": 281})
MAX_KEYCODE = 316


def keycode_from_string(text: str) -> int:
    """``KeyEvent.keyCodeFromString``: a number, ``KEYCODE_X`` or ``X``; 0 when unknown."""
    if re.fullmatch(r"-?\d+", text):
        code = int(text)
        return code if 0 <= code <= MAX_KEYCODE else 0
    return KEYCODES.get(text.removeprefix("KEYCODE_"), 0)


EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT, BTN_TOUCH = 0, 0x14A
ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR, ABS_MT_POSITION_X = 0x2F, 0x30, 0x35
ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 0x36, 0x39, 0x3A
EV_LABELS = {EV_SYN: "EV_SYN", EV_KEY: "EV_KEY", EV_ABS: "EV_ABS"}
CODE_LABELS = {
    EV_SYN: {SYN_REPORT: "SYN_REPORT"},
    EV_KEY: {BTN_TOUCH: "BTN_TOUCH", 114: "KEY_VOLUMEDOWN", 115: "KEY_VOLUMEUP",
             116: "KEY_POWER"},
    EV_ABS: {ABS_MT_SLOT: "ABS_MT_SLOT", ABS_MT_TOUCH_MAJOR: "ABS_MT_TOUCH_MAJOR",
             ABS_MT_POSITION_X: "ABS_MT_POSITION_X", ABS_MT_POSITION_Y: "ABS_MT_POSITION_Y",
             ABS_MT_TRACKING_ID: "ABS_MT_TRACKING_ID", ABS_MT_PRESSURE: "ABS_MT_PRESSURE"},
}
KEYS_DEVICE = ("/dev/input/event0", "gpio-keys")
TOUCH_DEVICE = ("/dev/input/event2", "fts_ts")

_BINDER_FRAMES = (
    "com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)",
    "android.os.ShellCommand.exec(ShellCommand.java:38)",
    "android.os.Binder.shellCommand(Binder.java:1092)",
    "android.os.Binder.onTransact(Binder.java:912)",
    "android.os.Binder.execTransactInternal(Binder.java:1392)",
    "android.os.Binder.execTransact(Binder.java:1299)")


def java_failure(call: Call, command: str, exception: str, where: str) -> int:
    """What a failing ``ShellCommand`` prints to stderr; status 255."""
    frames = "".join(f"\tat {frame}\n" for frame in (where, *_BINDER_FRAMES))
    call.error(f"\nException occurred while executing '{command}':\n{exception}\n{frames}",
               end="")
    return 255


class UsageError(Exception):
    """Bad arguments to a framework command (rendered as its Java exception)."""


_JAVA_FLOAT = re.compile(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?\s*")


def java_float(text: str) -> float:
    if not _JAVA_FLOAT.fullmatch(text):
        raise UsageError(f'For input string: "{text}"')
    return float(text.strip().rstrip("fFdD"))


def java_int(text: str) -> int:
    if not re.fullmatch(r"[+-]?\d+", text):
        raise UsageError(f'For input string: "{text}"')
    return int(text)


INPUT_USAGE = """Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The sources are:
      dpad
      keyboard
      mouse
      touchpad
      gamepad
      touchnavigation
      joystick
      touchscreen
      stylus
      trackball

-d: specify the display ID.
      (Default: -1 for key event, 0 for motion event if not specified.)
The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--duration <duration to hold key down in ms>] [--doubletap] \
[--async] [--delay <duration between keycodes in ms>] <key code number or name> ... \
(Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      press (Default: trackball)
      roll <dx> <dy> (Default: trackball)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
      keycombination [-t duration(ms)] <key code 1> <key code 2> ... (Default: keyboard, \
the key order is important here.)"""
INPUT_SOURCES = frozenset({"dpad", "keyboard", "mouse", "touchpad", "gamepad",
                           "touchnavigation", "joystick", "touchscreen", "stylus", "trackball"})
SCREENCAP_USAGE = """usage: screencap [-hp] [-d display-id] [FILENAME]
   -h: this message
   -p: save the file as a png.
   -d: specify the physical display ID to capture (default: 4619827259835644672)
       see "dumpsys SurfaceFlinger --display-id" for valid display IDs.
If FILENAME ends with .png it will be saved as a png.
If FILENAME is not given, the results will be printed to stdout."""
DISPLAY_ID_TEXT = ('Display 4619827259835644672 (HWC display 0): port=0 pnpId=GGL '
                   'displayName="EMU_display_0"')
KNOWN_PROPS = ("ro.build.version.release", "ro.build.version.sdk", "ro.build.fingerprint",
               "ro.product.brand", "ro.product.manufacturer", "ro.product.model",
               "ro.product.name", "ro.product.device", "ro.serialno", "ro.hardware",
               "ro.sf.lcd_density", "ro.product.cpu.abi", "ro.build.type",
               "sys.boot_completed", "persist.sys.locale")
SETTINGS_NAMESPACES = ("system", "secure", "global")
SETTINGS_ACTIVITIES = {
    "android.settings.SETTINGS": None,
    "android.settings.WIFI_SETTINGS": "Settings$WifiSettingsActivity",
    "android.settings.WIRELESS_SETTINGS": "Settings$NetworkDashboardActivity",
    "android.settings.AIRPLANE_MODE_SETTINGS": "Settings$NetworkDashboardActivity",
    "android.settings.BLUETOOTH_SETTINGS": "Settings$BluetoothSettingsActivity",
    "android.settings.DISPLAY_SETTINGS": "Settings$DisplaySettingsActivity",
    "android.settings.SOUND_SETTINGS": "Settings$SoundSettingsActivity",
    "android.settings.SECURITY_SETTINGS": "Settings$SecurityDashboardActivity",
    "android.settings.APPLICATION_SETTINGS": "Settings$ManageApplicationsActivity",
    "android.settings.DEVICE_INFO_SETTINGS": "Settings$MyDeviceInfoActivity",
}


@dataclass
class Intent:
    """The parts of an ``am`` intent specification this phone understands."""

    action: str | None = None
    data: str | None = None
    mime: str | None = None
    categories: list[str] = field(default_factory=list)
    package: str | None = None
    component: tuple[str, str] | None = None
    extras: dict[str, str] = field(default_factory=dict)
    flags: int = 0

    def __str__(self) -> str:
        parts = []
        if self.action:
            parts.append(f"act={self.action}")
        if self.categories:
            parts.append(f"cat=[{','.join(self.categories)}]")
        if self.data:
            parts.append(f"dat={self.data}")
        if self.mime:
            parts.append(f"typ={self.mime}")
        if self.flags:
            parts.append(f"flg=0x{self.flags:x}")
        if self.package:
            parts.append(f"pkg={self.package}")
        if self.component:
            parts.append(f"cmp={short_component(*self.component)}")
        if self.extras:
            parts.append("(has extras)")
        return "Intent { " + " ".join(parts) + " }"


def short_component(package: str, cls: str) -> str:
    """``ComponentName.flattenToShortString``."""
    if cls.startswith(package + "."):
        return f"{package}/{cls[len(package):]}"
    return f"{package}/{cls}"


def parse_component(text: str) -> tuple[str, str] | None:
    package, sep, cls = text.partition("/")
    if not sep or not package or not cls:
        return None
    return package, package + cls if cls.startswith(".") else cls


_INTENT_VALUE_OPTS = {"--es", "--ez", "--ei", "--el", "--ef", "--eu", "--ecn", "--eia",
                      "--eial", "--ela", "--elal", "--efa", "--efal", "--esa", "--esal",
                      "--ed", "--eda", "--edal", "-e"}


def parse_intent(args: list[str]) -> tuple[Intent, list[str]]:
    """An intent from ``am`` arguments; the non-intent options are returned as well."""
    intent, others = Intent(), []
    items = iter(args)
    for arg in items:
        if arg == "-a":
            intent.action = next(items, "")
        elif arg == "-d":
            intent.data = next(items, "")
        elif arg == "-t":
            intent.mime = next(items, "")
        elif arg == "-c":
            intent.categories.append(next(items, ""))
        elif arg == "-n":
            comp = parse_component(next(items, ""))
            if comp is None:
                raise UsageError("Bad component name")
            intent.component = comp
        elif arg == "-p":
            intent.package = next(items, "")
        elif arg == "-f":
            intent.flags |= int(next(items, "0"), 0)
        elif arg in _INTENT_VALUE_OPTS:
            key = next(items, "")
            intent.extras[key] = next(items, "")
        elif arg in ("--esn",):
            intent.extras[next(items, "")] = ""
        elif arg in ("--user", "-R", "--start-profiler", "--sampling", "--display",
                     "--windowingMode", "--activityType", "--task", "--receiver-permission"):
            others += [arg, next(items, "")]
        elif arg.startswith("-"):
            others.append(arg)
        elif intent.data is None and ":" in arg:
            intent.data = arg
        elif intent.component is None and (comp := parse_component(arg)) is not None:
            intent.component = comp
        else:
            intent.package = intent.package or arg
    return intent, others


class AndroidCommands:
    """Android's own tools, each reading and changing the phone through its backend."""

    def __init__(self, shell: Shell) -> None:
        self.shell = shell
        self.backend = shell.backend

    def table(self) -> dict[str, Builtin]:
        return {"input": self.input, "screencap": self.screencap, "wm": self.wm,
                "am": self.am, "monkey": self.monkey, "pm": self.pm, "ime": self.ime,
                "settings": self.settings, "content": self.content, "dumpsys": self.dumpsys,
                "getprop": self.getprop, "getevent": self.getevent, "cmd": self.cmd,
                "uiautomator": self.uiautomator}

    # --- input ----------------------------------------------------------------------------
    def input(self, call: Call) -> int:
        args = list(call.args)
        if args and args[0] in INPUT_SOURCES:
            args.pop(0)
        if len(args) >= 2 and args[0] == "-d":
            args = args[2:]
        if not args or args[0] in ("help", "-h"):
            call.print(INPUT_USAGE)
            return 0 if args else 255
        verb, rest = args[0], args[1:]
        handlers: dict[str, Callable[[list[str]], None]] = {
            "text": self._text, "keyevent": self._keyevent, "tap": self._tap,
            "swipe": self._swipe, "draganddrop": self._draganddrop, "press": lambda a: None,
            "roll": self._roll, "motionevent": self._motionevent,
            "keycombination": self._keycombination}
        handler = handlers.get(verb)
        if handler is None:
            call.print(f"Unknown command: {verb}")
            return 255
        try:
            handler(rest)
        except UsageError as exc:
            return java_failure(call, "input", f"java.lang.IllegalArgumentException: {exc}",
                                "com.android.server.input.InputShellCommand.onCommand"
                                "(InputShellCommand.java:283)")
        except _NoKeyCombination:
            call.print("Unknown command: keycombination")
            return 255
        except _UnmappableText:
            return java_failure(call, "input", "java.lang.NullPointerException: Attempt to "
                                "get length of null array",
                                "com.android.server.input.InputShellCommand.sendText"
                                "(InputShellCommand.java:226)")
        return 0

    def _required(self, args: list[str], count: int, verb: str) -> list[str]:
        if len(args) < count:
            raise UsageError(f'Argument expected after "{args[-1] if args else verb}"')
        return args

    def _point(self, xs: str, ys: str, verb: str) -> tuple[int, int]:
        try:
            return int(java_float(xs)), int(java_float(ys))
        except UsageError:
            raise UsageError(f"Error: Invalid arguments for command: {verb}") from None

    def _on_screen(self, x: int, y: int) -> bool:
        w, h = self.backend.size()
        if self.backend.rotation() % 2:
            w, h = h, w
        return 0 <= x < w and 0 <= y < h

    def _clamp(self, x: int, y: int) -> tuple[int, int]:
        w, h = self.backend.size()
        if self.backend.rotation() % 2:
            w, h = h, w
        return min(max(x, 0), w - 1), min(max(y, 0), h - 1)

    def _text(self, args: list[str]) -> None:
        text = android_text(self._required(args, 1, "text")[0])
        if any(not (" " <= ch <= "~" or ch in "\n\t") for ch in text):
            raise _UnmappableText
        self.backend.input_text(text)

    def _tap(self, args: list[str]) -> None:
        a = self._required(args, 2, "tap")
        x, y = self._point(a[0], a[1], "tap")
        if self._on_screen(x, y):
            self.backend.tap(x, y)

    def _swipe(self, args: list[str]) -> None:
        a = self._required(args, 4, "swipe")
        x1, y1 = self._point(a[0], a[1], "swipe")
        x2, y2 = self._clamp(*self._point(a[2], a[3], "swipe"))
        duration = java_int(a[4]) if len(a) > 4 else -1
        if self._on_screen(x1, y1):
            self.backend.swipe(x1, y1, x2, y2, 300 if duration < 0 else duration)

    def _draganddrop(self, args: list[str]) -> None:
        a = self._required(args, 4, "draganddrop")
        x1, y1 = self._point(a[0], a[1], "draganddrop")
        x2, y2 = self._clamp(*self._point(a[2], a[3], "draganddrop"))
        duration = java_int(a[4]) if len(a) > 4 else 300
        if not self._on_screen(x1, y1):
            return
        self.backend.touch_down(x1, y1)
        time.sleep(0.6)  # ViewConfiguration long-press timeout x 1.5: the drag starts
        steps = max(1, duration // 16)
        for i in range(1, steps + 1):
            self.backend.touch_move(x1 + (x2 - x1) * i // steps, y1 + (y2 - y1) * i // steps)
            time.sleep(duration / 1000 / steps)
        self.backend.touch_up(x2, y2)

    def _roll(self, args: list[str]) -> None:
        a = self._required(args, 2, "roll")
        self._point(a[0], a[1], "roll")  # a trackball roll: this phone has no trackball

    def _motionevent(self, args: list[str]) -> None:
        a = self._required(args, 3, "motionevent")
        x, y = self._point(a[1], a[2], "motionevent")
        actions = {"DOWN": self.backend.touch_down, "MOVE": self.backend.touch_move,
                   "UP": self.backend.touch_up, "CANCEL": self.backend.touch_up}
        action = actions.get(a[0].upper())
        if action is None:
            raise UsageError(f"Unknown motionevent action: {a[0]}")
        action(x, y)

    def _keyevent(self, args: list[str]) -> None:
        longpress, double, keys = False, False, []
        items = iter(args)
        for arg in items:
            if arg == "--longpress":
                longpress = True
            elif arg == "--doubletap":
                double = True
            elif arg in ("--duration", "--delay"):
                java_int(next(items, "x"))
            elif arg != "--async":
                keys.append(arg)
        if not keys:
            raise UsageError('Argument expected after "keyevent"')
        for key in keys:
            code = keycode_from_string(key)
            for _ in range(2 if double else 1):
                if code:
                    self.backend.keyevent(code, longpress=longpress)

    def _keycombination(self, args: list[str]) -> None:
        keys = list(args)
        if len(keys) >= 2 and keys[0] == "-t":
            java_int(keys[1])
            keys = keys[2:]
        if len(keys) < 2:
            raise UsageError("keycombination requires at least 2 keycodes")
        codes = [keycode_from_string(k) for k in keys]
        combo = getattr(self.backend, "key_combination", None)
        if not callable(combo):
            # Pressing the keys one by one would type them (ctrl+a -> "a"): answer the way
            # Android 12, which had no keycombination, does, so that callers fall back.
            raise _NoKeyCombination
        combo(codes)

    # --- the screen ----------------------------------------------------------------------
    def screencap(self, call: Call) -> int:
        png, target, args = False, None, iter(call.args)
        for arg in args:
            if arg == "-p":
                png = True
            elif arg == "-d":
                next(args, None)
            elif arg.startswith("-"):
                call.error(SCREENCAP_USAGE)
                return 1 if arg != "-h" else 0
            else:
                target = arg
        if target is not None and target.endswith(".png"):
            png = True
        data = self.backend.screencap_png() if png else screencap_raw_bytes(
            *self.backend.screencap_raw())
        if target is None:
            call.io.out(data)
            return 0
        error = self.shell.fs.write(self.shell.fs.normalize(target, self.shell.cwd), data)
        if error:
            call.error(f"Error opening file: {target} ({error})")
            return 1
        return 0

    def wm(self, call: Call) -> int:
        verb = call.args[0] if call.args else ""
        if verb == "size" and len(call.args) == 1:
            w, h = self.backend.size()
            call.print(f"Physical size: {w}x{h}")
            return 0
        if verb == "density" and len(call.args) == 1:
            call.print(f"Physical density: {self.backend.density()}")
            return 0
        if verb in ("size", "density"):
            call.error(f"Error: the virtual phone's {verb} cannot be overridden")
            return 255
        call.print(f"Unknown command: {verb}" if verb else "Window manager (window) commands:")
        return 255

    def uiautomator(self, call: Call) -> int:
        call.error("ERROR: uiautomator is not available on this phone: screenpilot's virtual "
                   "phone is vision-only and exposes no accessibility tree (use screencap)")
        return 1

    # --- apps ----------------------------------------------------------------------------
    def am(self, call: Call) -> int:
        verb, rest = (call.args[0], call.args[1:]) if call.args else ("", [])
        try:
            if verb in ("start", "start-activity"):
                return self._am_start(call, rest)
            if verb == "broadcast":
                return self._am_broadcast(call, rest)
            if verb in ("force-stop", "kill"):
                return self._am_force_stop(rest)
        except UsageError as exc:
            return java_failure(call, "activity", f"java.lang.IllegalArgumentException: {exc}",
                                "android.content.Intent.parseCommandArgs(Intent.java:8170)")
        call.print(f"Unknown command: {verb}" if verb else "Activity manager (activity) "
                   "commands:\n  help\n      Print this help text.")
        return 255

    def _am_start(self, call: Call, args: list[str]) -> int:
        intent, options = parse_intent(args)
        if not (intent.action or intent.component or intent.package or intent.data):
            raise UsageError("No intent supplied")
        call.print(f"Starting: {intent}")
        started = self._resolve_and_launch(intent)
        if started is None:
            intent.flags |= 0x10000000
            call.error(f"Error: Activity not started, unable to resolve {intent}")
            return 1
        if not started:
            assert intent.component is not None
            call.error("Error type 3")
            call.error(f"Error: Activity class {{{intent.component[0]}/{intent.component[1]}}}"
                       " does not exist.")
            return 1
        if "-W" in options:
            package, activity = self.backend.current_focus()
            call.print(f"Status: ok\nLaunchState: COLD\nActivity: {package}/{activity}\n"
                       "TotalTime: 250\nWaitTime: 262\nComplete")
        return 0

    def _resolve_and_launch(self, intent: Intent) -> bool | None:
        """True launched, False no such activity, None nothing resolves the intent."""
        if intent.component is not None:
            return self.backend.launch(*intent.component)
        if intent.categories and "android.intent.category.HOME" in intent.categories:
            self.backend.keyevent(KEYCODES["HOME"])
            return True
        if intent.action in SETTINGS_ACTIVITIES:
            act = SETTINGS_ACTIVITIES[intent.action]
            full = f"com.android.settings.{act}" if act else None
            return bool(self.backend.launch("com.android.settings", full)
                        or self.backend.launch("com.android.settings", None))
        if intent.package and intent.package in self.backend.packages():
            return self.backend.launch(intent.package, None)
        return None

    def _am_broadcast(self, call: Call, args: list[str]) -> int:
        intent, _ = parse_intent(args)
        intent.flags |= 0x400000
        call.print(f"Broadcasting: {intent}")
        result = self.backend.broadcast(intent.action or "", dict(intent.extras))
        if "Broadcast completed" in result:
            call.print(result[result.index("Broadcast completed"):].rstrip("\n"))
        else:
            data = f', data="{result}"' if result else ""
            call.print(f"Broadcast completed: result=0{data}")
        return 0

    def _am_force_stop(self, args: list[str]) -> int:
        packages = [a for a in args if not a.startswith("-")]
        stop = getattr(self.backend, "force_stop", None)
        if callable(stop):
            for package in packages:
                stop(package)
        return 0

    def monkey(self, call: Call) -> int:
        for arg in call.args:
            call.print(f"  bash arg: {arg}")
        packages, items = [], iter(call.args)
        count = 0
        for arg in items:
            if arg == "-p":
                packages.append(next(items, ""))
            elif arg in ("-c", "--throttle", "-s", "--pct-touch", "--pct-motion"):
                next(items, None)
            elif arg.isdigit():
                count = int(arg)
        installed = set(self.backend.packages())
        launchable = [p for p in packages if p in installed]
        if not launchable:
            call.print("** No activities found to run, monkey aborted.")
            return 252
        self.backend.launch(launchable[0], None)
        call.print(f"Events injected: {max(count, 1)}")
        call.print("## Network stats: elapsed time=18ms (0ms mobile, 0ms wifi, "
                   "18ms not connected)")
        return 0

    def pm(self, call: Call) -> int:
        args = call.args
        if args[:2] in (["list", "packages"], ["list", "package"]):
            filters = [a for a in args[2:] if not a.startswith("-")]
            for name in self.backend.packages():
                if not filters or filters[0] in name:
                    call.print(f"package:{name}")
            return 0
        if args[:1] == ["path"] and len(args) > 1:
            if args[1] not in self.backend.packages():
                return 1
            call.print(f"package:/system/priv-app/{args[1]}/{args[1]}.apk")
            return 0
        call.error(f"Unknown command: {' '.join(args)}" if args else "usage: pm list packages")
        return 255

    def ime(self, call: Call) -> int:
        verb, rest = (call.args[0], call.args[1:]) if call.args else ("", [])
        imes = self.backend.ime_list()
        if verb == "list":
            for ime in imes:
                call.print(ime if "-s" in rest else f"{ime}:\n  mId={ime}")
            return 0
        if verb in ("set", "enable") and rest:
            ime = rest[-1]
            if ime not in imes:
                call.error(f"Unknown input method {ime} cannot be "
                           f"{'selected' if verb == 'set' else 'enabled'} for user #0")
                return 255
            if verb == "enable":
                call.print(f"Input method {ime}: already enabled for user #0")
                return 0
            chooser = getattr(self.backend, "ime_set", None)
            if callable(chooser):
                chooser(ime)
            else:
                self.backend.settings_put("secure", "default_input_method", ime)
            call.print(f"Input method {ime} selected for user #0")
            return 0
        call.print(f"Unknown command: {verb}" if verb else "ime <command>:")
        return 255

    # --- state -----------------------------------------------------------------------------
    def settings(self, call: Call) -> int:
        args = list(call.args)
        while args and args[0] in ("--user", "--lineage"):
            args = args[2:] if args[0] == "--user" else args[1:]
        if len(args) < 2 or args[0] not in ("get", "put", "list", "delete"):
            call.error("usage:  settings [--user <USER_ID> | current] get namespace key\n"
                       "        settings [--user <USER_ID> | current] put namespace key value"
                       "\n        settings [--user <USER_ID> | current] list namespace")
            return 255
        verb, namespace = args[0], args[1]
        if namespace not in SETTINGS_NAMESPACES:
            call.error(f"Invalid namespace '{namespace}'")
            return 255
        if verb == "list":
            for key, value in sorted(self.backend.settings_list(namespace).items()):
                call.print(f"{key}={value}")
            return 0
        if len(args) < 3 or (verb == "put" and len(args) < 4):
            call.error(f"Invalid arguments for 'settings {verb}'")
            return 255
        if verb == "get":
            found = self.backend.settings_get(namespace, args[2])
            call.print("null" if found is None else found)
        elif verb == "put":
            self.backend.settings_put(namespace, args[2], args[3])
        else:
            call.print("Deleted 0 rows")
        return 0

    def content(self, call: Call) -> int:
        args = call.args
        if not args or args[0] != "query":
            call.error("usage: adb shell content [subcommand] [options]\n\nusage: adb shell "
                       "content query --uri <URI> [--user <USER_ID>] [--projection "
                       "<PROJECTION>] [--where <WHERE>] [--sort <SORT_ORDER>]")
            return 255 if args else 0
        opts = dict(zip(args[1::2], args[2::2], strict=False))
        uri = opts.get("--uri")
        if uri is None:
            call.error("[ERROR] Content provider URI not specified.")
            return 255
        authority = uri.removeprefix("content://").split("/", 1)[0]
        rows = self.backend.content_query(uri)
        if rows is None:
            return self._provider_error(call, authority)
        try:
            rows = query_rows(rows, opts.get("--where"), opts.get("--sort"))
        except ValueError as exc:
            call.error(f"Error while accessing provider:{authority}\n"
                       f"android.database.sqlite.SQLiteException: {exc}")
            return 1
        projection = opts["--projection"].split(":") if "--projection" in opts else None
        if not rows:
            call.print("No result found.")
        for index, row in enumerate(rows):
            cols = projection or list(row)
            call.print(f"Row: {index} " + ", ".join(f"{c}={row.get(c, 'NULL')}" for c in cols))
        return 0

    def _provider_error(self, call: Call, authority: str) -> int:
        call.error(f"Error while accessing provider:{authority}\n"
                   f"java.lang.IllegalStateException: Could not find provider: {authority}\n"
                   "\tat com.android.commands.content.Content$Command.execute"
                   "(Content.java:529)\n"
                   "\tat com.android.commands.content.Content.main(Content.java:742)\n"
                   "\tat com.android.internal.os.RuntimeInit.nativeFinishInit(Native Method)\n"
                   "\tat com.android.internal.os.RuntimeInit.main(RuntimeInit.java:360)")
        return 1

    def dumpsys(self, call: Call) -> int:
        if not call.args or call.args[0] == "-l":
            call.print("Currently running services:")
            for name in ("activity", "alarm", "display", "input", "input_method", "package",
                         "power", "settings", "SurfaceFlinger", "window"):
                call.print(f"  {name}")
            return 0
        service, rest = call.args[0], call.args[1:]
        text = self.backend.dumpsys(service, rest)
        if text is None and service == "SurfaceFlinger" and "--display-id" in rest:
            text = DISPLAY_ID_TEXT
        if text is None:
            call.error(f"Can't find service: {service}")
            return 0
        call.print(text.rstrip("\n"))
        return 0

    def getprop(self, call: Call) -> int:
        if not call.args:
            for name in KNOWN_PROPS:
                value = self.backend.getprop(name)
                if value:
                    call.print(f"[{name}]: [{value}]")
            return 0
        value = self.backend.getprop(call.args[0])
        call.print(value or (call.args[1] if len(call.args) > 1 else ""))
        return 0

    def cmd(self, call: Call) -> int:
        if not call.args:
            call.error("cmd: No service specified; use -l to list all running services. "
                       "Use -w to start and wait for a service.")
            return 20
        aliases: dict[str, Builtin] = {"input": self.input, "activity": self.am,
                                       "package": self.pm, "settings": self.settings,
                                       "window": self.wm, "input_method": self.ime}
        handler = aliases.get(call.args[0])
        if handler is None:
            call.error(f"cmd: Can't find service: {call.args[0]}")
            return 20
        return handler(Call(call.args[1:], call.stdin, call.io))

    # --- getevent ------------------------------------------------------------------------
    def getevent(self, call: Call) -> int:
        flags = "".join(a[1:] for a in call.args if a.startswith("-"))
        count = 0
        if "c" in flags:
            values = [a for a in call.args if a.isdigit()]
            count = int(values[0]) if values else 0
        w, h = self.backend.size()
        if "p" in flags:
            call.print(getevent_devices(w, h, labels="l" in flags), end="")
            return 0
        if "q" not in flags:
            for index, (path, name) in enumerate((KEYS_DEVICE, TOUCH_DEVICE), start=1):
                call.print(f"add device {index}: {path}\n  name:     \"{name}\"")
        writer = GeteventWriter(call, labels="l" in flags, timestamps="t" in flags)
        events: queue.Queue[TouchEvent] = queue.Queue()
        unsubscribe = self.backend.add_touch_listener(events.put)
        try:
            while not call.io.closed and not (count and writer.lines >= count):
                try:
                    event = events.get(timeout=POLL_S)
                except queue.Empty:
                    continue
                writer.write(event)
        finally:
            unsubscribe()
        return 0


class _NoKeyCombination(Exception):
    """The backend offers no ``key_combination(codes)``."""


class _UnmappableText(Exception):
    """``input text`` with a character the virtual keyboard's key map cannot type."""


def android_text(arg: str) -> str:
    """``InputShellCommand.sendText``: every ``%s`` becomes a space."""
    out: list[str] = []
    escape = False
    for ch in arg:
        if escape and ch == "s":
            out[-1] = " "
            escape = False
            continue
        escape = ch == "%"
        out.append(ch)
    return "".join(out)


def screencap_raw_bytes(width: int, height: int, rgba: bytes) -> bytes:
    """``screencap`` without -p: width, height, format 1 (RGBA_8888), colorspace 1 (sRGB)."""
    return struct.pack("<4I", width, height, 1, 1) + rgba


def query_rows(rows: list[dict[str, str]], where: str | None, sort: str | None
               ) -> list[dict[str, str]]:
    """Rows filtered by ``col=value [AND ...]`` and ordered by ``col [ASC|DESC]``."""
    if where:
        for clause in re.split(r"\s+AND\s+", where.strip(), flags=re.IGNORECASE):
            m = re.fullmatch(r"\s*(\w+)\s*=\s*(?:'([^']*)'|\"([^\"]*)\"|(\S+))\s*", clause)
            if m is None:
                raise ValueError(f"near \"{clause}\": syntax error (code 1 SQLITE_ERROR)")
            col, value = m.group(1), next(g for g in m.groups()[1:] if g is not None)
            rows = [r for r in rows if r.get(col) == value]
    if sort:
        col, _, direction = sort.strip().partition(" ")
        rows = sorted(rows, key=lambda r: r.get(col, ""),
                      reverse=direction.strip().upper() == "DESC")
    return rows


def getevent_devices(width: int, height: int, *, labels: bool) -> str:
    """``getevent -p`` / ``-lp``: the devices and their axis ranges (raw axis = pixels)."""
    def code(kind: int, value: int) -> str:
        return f"{CODE_LABELS[kind][value]:<20.20}" if labels else f"{value:04x}"

    axes = ((ABS_MT_SLOT, 9), (ABS_MT_TOUCH_MAJOR, 255), (ABS_MT_POSITION_X, width - 1),
            (ABS_MT_POSITION_Y, height - 1), (ABS_MT_TRACKING_ID, 65535),
            (ABS_MT_PRESSURE, 255))
    abs_lines = [f" {code(EV_ABS, c)} : value 0, min 0, max {m}, fuzz 0, flat 0, resolution 0"
                 for c, m in axes]
    keys = " ".join(code(EV_KEY, k) for k in (114, 115, 116))
    return (f"add device 1: {KEYS_DEVICE[0]}\n  name:     \"{KEYS_DEVICE[1]}\"\n"
            f"  events:\n    KEY (0001): {keys}\n  input props:\n    <none>\n"
            f"add device 2: {TOUCH_DEVICE[0]}\n  name:     \"{TOUCH_DEVICE[1]}\"\n"
            f"  events:\n    KEY (0001): {code(EV_KEY, BTN_TOUCH)}\n"
            f"    ABS (0003):{abs_lines[0]}\n"
            + "".join(f"               {line}\n" for line in abs_lines[1:])
            + "  input props:\n    INPUT_PROP_DIRECT\n")


class GeteventWriter:
    """Turns touch events into the lines a type-B multitouch screen produces."""

    _tracking = itertools.count(1)

    def __init__(self, call: Call, *, labels: bool, timestamps: bool) -> None:
        self.call = call
        self.labels = labels
        self.timestamps = timestamps
        self.lines = 0
        self.slot = 0
        self.last: dict[int, tuple[int, int]] = {}

    def write(self, event: TouchEvent) -> None:
        records: list[tuple[int, int, int]] = []
        if event.pointer != self.slot:
            self.slot = event.pointer
            records.append((EV_ABS, ABS_MT_SLOT, event.pointer))
        if event.phase == "down":
            records.append((EV_ABS, ABS_MT_TRACKING_ID, next(self._tracking)))
            records += [(EV_ABS, ABS_MT_POSITION_X, event.x), (EV_ABS, ABS_MT_POSITION_Y, event.y),
                        (EV_ABS, ABS_MT_TOUCH_MAJOR, 6), (EV_ABS, ABS_MT_PRESSURE, 50)]
            if not self.last:
                records.append((EV_KEY, BTN_TOUCH, 1))
            self.last[event.pointer] = (event.x, event.y)
        elif event.phase == "move":
            old = self.last.get(event.pointer, (-1, -1))
            if event.x != old[0]:
                records.append((EV_ABS, ABS_MT_POSITION_X, event.x))
            if event.y != old[1]:
                records.append((EV_ABS, ABS_MT_POSITION_Y, event.y))
            self.last[event.pointer] = (event.x, event.y)
        else:
            records.append((EV_ABS, ABS_MT_TRACKING_ID, 0xFFFFFFFF))
            self.last.pop(event.pointer, None)
            if not self.last:
                records.append((EV_KEY, BTN_TOUCH, 0))
        records.append((EV_SYN, SYN_REPORT, 0))
        self.call.print("".join(self._line(event.time, *r) for r in records), end="")

    def _line(self, at: float, kind: int, code: int, value: int) -> str:
        self.lines += 1
        stamp = ""
        if self.timestamps:
            sec = int(at)
            stamp = f"[{sec:8d}.{min(int((at - sec) * 1e6), 999999):06d}] "
        prefix = f"{stamp}{TOUCH_DEVICE[0]}: "
        if not self.labels:
            return f"{prefix}{kind:04x} {code:04x} {value:08x}\n"
        text = f"{EV_LABELS[kind]:<12.12} {CODE_LABELS[kind][code]:<20.20}"
        if kind == EV_KEY:
            return f"{prefix}{text} {'DOWN' if value else 'UP':<20.20}\n"
        return f"{prefix}{text} {value:08x}\n"
