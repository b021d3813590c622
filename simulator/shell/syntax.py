"""The shell's parser: a command line read the way mksh reads ``sh -c LINE`` on Android.

Text that a client forgot to escape is mangled exactly as it would be on a phone:

* words: blanks split, ``'...'`` is literal, ``"..."`` keeps ``$`` expansion and
  ``\\`` before ``$ ` " \\``, an unquoted ``\\`` escapes the next character,
  ``#`` at the start of a word starts a comment;
* ``$NAME``/``${NAME}``, ``$?`` and the other special parameters, ``$(...)`` and
  backquotes are kept as parts of a word for the interpreter to expand;
* ``;``, ``&``, ``&&``, ``||``, ``|`` and the redirections ``> >> < 2> 2>&1 >&2``;
  an unquoted ``(`` or ``)`` is a syntax error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field


class ShellSyntaxError(Exception):
    """A command line mksh would refuse to run."""


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
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
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
        self._add(Part("lit", self.s[self.i + 1 : end], True))
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
        rest = self.s[self.i + 1 :]
        if rest.startswith("("):
            end = _matching_paren(self.s, self.i + 2)
            self._add(Part("sub", self.s[self.i + 2 : end], quoted))
            self.i = end + 1
        elif rest.startswith("{"):
            end = self.s.find("}", self.i + 2)
            if end < 0:
                raise ShellSyntaxError("${: bad substitution")
            name = self.s[self.i + 2 : end]
            if not (NAME.fullmatch(name) or (len(name) == 1 and name in _SPECIAL_PARAMS)):
                raise ShellSyntaxError(f"${{{name}}}: bad substitution")
            self._add(Part("var", name, quoted))
            self.i = end + 1
        elif rest[:1] and rest[0] in _SPECIAL_PARAMS:
            self._add(Part("var", rest[0], quoted))
            self.i += 2
        elif (m := NAME.match(rest)) is not None:
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
        two = self.s[self.i : self.i + 2]
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
        op = self.s[self.i : self.i + 2]
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
