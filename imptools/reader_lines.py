"""The reader's lines: bytes or text decoded into physical lines, joined into logical lines around annotations.

Bytes are decoded as UTF-8 (with or without BOM; LF, CRLF or CR) in bounded memory: a
line too long, bytes that are not UTF-8 or control characters are noted on the line
(`Physical.problem`) and reported when the line is used. A logical line is a physical
line joined with the next ones while a `{...}` annotation is open (`scan` says whether
one is); an annotation never closed ends at the end of its own line.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, AnyStr

from imptools.findings import Finding

MAX_LINE = 100_000
"""The longest physical line read, in bytes (characters for text); a longer one is reported and skipped."""
MAX_NOTE_LINES = 1_000
"""An annotation `{...}` may span at most this many physical lines; one not closed by then is never closed."""
MAX_NOTE_CHARS = 1_000_000
"""... and at most this many characters."""
_CHUNK = 65_536
NOT_TEXT = ("Control character", "Byte 0x")
"""How the findings on bytes that are not text begin."""

_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


@dataclass(frozen=True, slots=True)
class Physical:
    """One line of the file as read, numbered from 1."""

    number: int
    text: str
    problem: Finding | None = None
    """What is wrong with the line's bytes (not UTF-8, control characters, too long), reported when it is read."""


@dataclass(frozen=True, slots=True)
class Logical:
    """A line as parsed: one physical line, or several joined while an annotation is open."""

    first_line: int
    text: str
    closed: bool = False
    """A `}` was added at the end of `text` to close an annotation never closed (not written by the user)."""

    @property
    def raw(self) -> str:
        """The line as written."""
        return self.text[:-1] if self.closed else self.text


def _split(
    read: Callable[[int], AnyStr], eol: re.Pattern[AnyStr], cr: AnyStr, base: int = 0
) -> Iterator[tuple[AnyStr, int, int]]:
    """Split a stream into lines at LF, CRLF or CR, in bounded memory.

    Yields (line without its ending, offset of its start, length): a line longer
    than MAX_LINE is yielded empty with its true length, its contents never held.
    `base` is the offset of the stream's first unit (when part was read already).
    """
    buf: AnyStr | None = None
    skipping = 0  # > 0: inside a line too long to keep, this many units seen so far
    while chunk := read(_CHUNK):
        buf = chunk if buf is None else buf + chunk
        pos = 0
        for m in eol.finditer(buf):
            if m.end() == len(buf) and m.group() == cr:
                break  # a CR at the end of a chunk may be half of a CRLF: wait for the next chunk
            if skipping:
                yield buf[:0], base - skipping, skipping + m.start()
                skipping = 0
            else:
                yield buf[pos : m.start()], base + pos, m.start() - pos
            pos = m.end()
        buf = buf[pos:]
        base += pos
        if skipping or len(buf) > MAX_LINE:
            keep = 1 if buf[-1:] == cr else 0  # half of a CRLF, maybe
            skipping += len(buf) - keep
            base += len(buf) - keep
            buf = buf[len(buf) - keep :]
    if skipping:
        assert buf is not None
        yield buf[:0], base - skipping, skipping
    elif buf:
        yield buf, base, len(buf)


_EOL_BYTES = re.compile(rb"\r\n|\r|\n")
_EOL_TEXT = re.compile(r"\r\n|\r|\n")


def _too_long(number: int, length: int, unit: str) -> Finding:
    return Finding(
        "syntax",
        f"This line is {length:,} {unit} long (a record's lines stay under {MAX_LINE:,}): not read",
        number,
        1,
    )


def _checked(number: int, text: str, problem: Finding | None) -> Physical:
    """A physical line; one holding control characters (a NUL, a binary file) is reported and read as empty."""
    if number == 1 and text.startswith("\ufeff"):
        text = text[1:]
    bad = _CONTROL.search(text)
    if bad is not None:  # (this says more than a byte that is not UTF-8 on the same line)
        message = f"Control character U+{ord(bad.group()):04X} in this line: a record is plain text; line not read"
        return Physical(number, "", Finding("syntax", message, number, bad.start() + 1))
    return Physical(number, text, problem)


def decode_lines(binary: IO[bytes]) -> Iterator[Physical]:
    """Decode UTF-8 (with or without BOM; LF, CRLF or CR) line by line, noting bytes that are not UTF-8.

    The common file (UTF-8 text, LF endings, no control characters) is decoded a
    block of whole lines at a time; from the first block that is anything else
    (a CR, a byte that is not UTF-8, a control character, a line that does not end
    within MAX_LINE bytes), the rest of the stream is read line by line by
    `decode_each`, which says exactly what is wrong and where.
    """
    read: Callable[[int], bytes] = getattr(binary, "read1", None) or binary.read
    number = 0
    offset = 0  # bytes of the stream turned into lines so far
    buf = b""
    while chunk := read(_CHUNK):
        buf += chunk
        cut = buf.rfind(b"\n") + 1
        if not cut:
            if len(buf) <= MAX_LINE:
                continue
            break
        block = buf[:cut]
        if b"\r" in block or len(block) > MAX_LINE:
            break
        try:
            text = block.decode("utf-8")
        except UnicodeDecodeError:
            break
        if _CONTROL.search(text) is not None:
            break
        if number == 0 and text.startswith("\ufeff"):
            text = text[1:]
        lines = text.split("\n")
        lines.pop()  # the block ends with a newline
        for line in lines:
            number += 1
            yield Physical(number, line)
        offset += cut
        buf = buf[cut:]
    else:
        if not buf:
            return
    rest = [buf]

    def again(size: int) -> bytes:
        return rest.pop() if rest else read(size)

    yield from decode_each(again, number, offset)


def decode_each(read: Callable[[int], bytes], before: int = 0, offset: int = 0) -> Iterator[Physical]:
    """`decode_lines` line by line, for a stream whose first `before` lines (`offset` bytes) were read already."""
    for number, (piece, start, length) in enumerate(_split(read, _EOL_BYTES, b"\r", offset), before + 1):
        if length > MAX_LINE:
            yield Physical(number, "", _too_long(number, length, "bytes"))
            continue
        problem = None
        try:
            text = piece.decode("utf-8")
        except UnicodeDecodeError as exc:
            text = piece.decode("utf-8", errors="replace")
            column = len(piece[: exc.start].decode("utf-8", errors="replace")) + 1
            problem = Finding(
                "syntax",
                f"Byte 0x{piece[exc.start]:02X} at byte offset {start + exc.start} is not UTF-8 "
                "(save the file as UTF-8); it was read as \N{REPLACEMENT CHARACTER}",
                number,
                column,
            )
        yield _checked(number, text, problem)


def text_lines(source: IO[str]) -> Iterator[Physical]:
    """Lines of a text stream, in bounded memory like `decode_lines`."""
    for number, (piece, _start, length) in enumerate(_split(source.read, _EOL_TEXT, "\r"), 1):
        if length > MAX_LINE:
            yield Physical(number, "", _too_long(number, length, "characters"))
        else:
            yield _checked(number, piece, None)


_OUTSIDE = re.compile(r'[{";]')
_QUOTED = re.compile(r'[\\"]')


def scan(text: str, in_note: bool) -> tuple[bool, int]:
    """Whether a `{` is still open at the end of `text`, and where the last unclosed `{` opened (-1 if none).

    Jumps from one character that matters to the next, so a long line costs little.
    """
    if not in_note and "{" not in text:
        return False, -1
    opened = -1
    i = 0
    while True:
        if in_note:
            close = text.find("}", i)
            if close < 0:
                return True, opened
            in_note, opened, i = False, -1, close + 1
            continue
        m = _OUTSIDE.search(text, i)
        if m is None or m.group() == ";":
            return False, -1
        if m.group() == "{":
            in_note, opened, i = True, m.start(), m.end()
            continue
        # a quoted tag value: `{` and `;` inside it are text; `\` escapes the next character
        i = m.end()
        while (q := _QUOTED.search(text, i)) is not None and q.group() == "\\":
            i = q.end() + 1
        if q is None:
            return False, -1
        i = q.end()


class _Lookahead:
    """Physical lines with a bounded window read ahead, knowing whether a `}` lies in the window."""

    def __init__(self, lines: Iterator[Physical], findings: list[Finding]) -> None:
        self.source = lines
        self.findings = findings
        self.window: deque[Physical] = deque()
        self.chars = 0
        self.closers = 0  # lines of the window holding a `}`

    def pop(self) -> Physical | None:
        """The next line; its problem, if any, is reported now (when the line is used)."""
        line: Physical | None
        if self.window:
            line = self.window.popleft()
            self.chars -= len(line.text)
            self.closers -= "}" in line.text
        else:
            line = next(self.source, None)
        if line is not None and line.problem is not None:
            self.findings.append(line.problem)
        return line

    def closes_soon(self) -> bool:
        """Whether a `}` comes within the next MAX_NOTE_LINES lines and MAX_NOTE_CHARS characters."""
        while not self.closers and len(self.window) < MAX_NOTE_LINES and self.chars < MAX_NOTE_CHARS:
            line = next(self.source, None)
            if line is None:
                break
            self.window.append(line)
            self.chars += len(line.text)
            self.closers += "}" in line.text
        return self.closers > 0


def logical_lines(lines: Iterator[Physical], findings: list[Finding]) -> Iterator[Logical]:
    """Join physical lines while an annotation is open; an annotation never closed ends at the end of its own line.

    "Never closed" means no `}` within MAX_NOTE_LINES lines (or MAX_NOTE_CHARS characters), so that
    a stray `{` costs bounded time and memory, however long the file.
    """
    ahead = _Lookahead(lines, findings)
    while (first := ahead.pop()) is not None:
        open_, at = scan(first.text, False)
        if not open_:
            yield Logical(first.number, first.text)
            continue
        group = [first.text]
        last, last_at = first, at
        while open_ and ahead.closes_soon():
            # the next `}` closes this annotation; the line holding it may open another
            while True:
                nxt = ahead.pop()
                assert nxt is not None
                group.append(nxt.text)
                if "}" in nxt.text:
                    break
            open_, at = scan(nxt.text, True)
            if open_:
                last, last_at = nxt, at
        if open_:
            findings.append(
                Finding("syntax", "`{` opens an annotation that is never closed with `}`", last.number, last_at + 1)
            )
            group[-1] += "}"
        yield Logical(first.number, "\n".join(group), closed=open_)
