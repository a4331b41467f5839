"""Keeping a record's file safe while `imp record` writes it: the lock, atomic writes, side copies, changes by others.

`RecordFile` is the file side of a record being kept: `save` writes the record
atomically and never loses an entry (a full disk, a read-only file system, a file
moved or deleted: the record stays in memory and in a side file, `NAME.unsaved`,
until the file takes it) and never overwrites what another program wrote (the
file is read again, and the entries not yet written are added to it when they
still stand, else the record as it was goes to `NAME.kept-TIME`); `refresh`
notices such a change before an entry is taken back. `RecordLock` keeps a second
recorder off the file. What an entry does to the text is the session's
(`imptools.recorder.Recorder`, through `carried`).
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

if sys.platform != "win32":
    import fcntl

from imptools.files import ChangedError, Snapshot, shown, write_atomically

Kept = tuple[str, tuple[tuple[object, ...], ...]]
"""An entry accepted and not yet written: its text, and the keys of the findings it brought."""


@dataclass(slots=True)
class RecordFile(ABC):
    """A record's lines and the file they are kept in: what was last read or written there, and what is not yet."""

    lines: list[str]
    path: str | None = None
    _known: bool = False
    """Whether `_disk` says what the file was when this recorder last read or wrote it."""
    _disk: Snapshot | None = None
    _written: list[str] | None = None
    """The lines last read from or written to the file."""
    unwritten: list[Kept] = field(default_factory=list)
    """The entries accepted since the file was last written (with the findings each brought): none are lost."""
    side: str | None = None
    """The side file holding the record as the recorder has it, when the file itself could not take it."""
    _said: list[str] = field(default_factory=list)
    _failing: bool = False
    _alien: Snapshot | None = None

    @property
    def text(self) -> str:
        """The file's text: its lines, each ended by a newline."""
        return "".join(line + "\n" for line in self.lines)

    def news(self) -> list[str]:
        """What happened to the file since last asked (a fault, a change by another program): for the screen."""
        out, self._said[:] = list(self._said), []
        return out

    def held(self, data: bytes) -> None:
        """The file holds `data`, the record's lines, as this recorder has just read or written it."""
        assert self.path is not None
        self._known, self._disk, self._written = True, Snapshot.of(self.path, data), list(self.lines)

    @abstractmethod
    def carried(self, text: str, entries: Sequence[Kept]) -> tuple[list[str], list[str]]:
        """`text` with `entries` entered on it in turn, as long as each brings the same findings as it did here.

        The lines that makes, and the entries carried (all of them, or those before the first that no longer stands).
        """

    def _on_disk(self) -> tuple[Snapshot | None, bytes | None]:
        """The file as it is now and its bytes (None, None when there is none); OSError when it cannot be read."""
        assert self.path is not None
        try:
            data = Path(self.path).read_bytes()
        except FileNotFoundError:
            return None, None
        return Snapshot.of(self.path, data), data

    def refresh(self) -> bool:
        """Read the file again when another program changed it; True when it had (what happened is in `news`).

        Entries not yet written are added to the text read, when they still stand
        there; else the record as this recorder had it goes to a side file.
        """
        if self.path is None or not self._known:
            return False
        try:
            now, data = self._on_disk()
        except OSError:
            return False  # unreadable now: the next write says why
        if now is None and self._disk is not None:
            self.save()  # moved or deleted: written there again at once
            return False
        if now == self._disk or now is None:
            return False
        if data is not None and data.decode("utf-8", "replace") == self._text_of(self._written):
            self._disk = now  # touched, not changed
            return False
        if not _utf8(data) and not self.unwritten:
            if self._alien != now:  # said once; entries typed meanwhile are kept aside by `save`
                self._alien = now
                self._said.append(
                    f"{shown(self.path)} was changed by another program and is not UTF-8 text: it is left as it "
                    "is, and what is entered now is kept here and in a side file until it is text again"
                )
            return False
        if self.unwritten:
            return not self.save()  # the entries added to it, or kept aside: `save` says which
        self._take(now, data)
        self._said.append(f"{shown(self.path)} was changed by another program: read again as it now is")
        return True

    def _take(self, now: Snapshot | None, data: bytes | None) -> None:
        text = (data or b"").decode("utf-8", "replace")
        self.lines = text.splitlines()
        self._disk, self._written, self._known = now, list(self.lines), True

    def save(self) -> bool:
        """Write the record to its file; True when the file now holds it (always, without a file).

        Nothing is lost and nothing raises: a file that cannot be written (disk full,
        read-only, folder gone) keeps the record here, and in a side file when one
        can be written, and the next save writes it all; a file moved or deleted is
        written again whole; a file another program changed is never overwritten: it
        is read again and the entries not yet written are added to it when they still
        stand, else kept in a side file. `news` says what happened.
        """
        if self.path is None:
            return True
        path = self.path
        for _ in range(3):  # another program may write between the look and the rename: look again
            expect: Snapshot | None = None
            if self._known:
                try:
                    now, data = self._on_disk()
                except OSError as exc:
                    return self._unsaved(exc)
                if now is None and self._disk is not None:
                    self._said.append(f"{shown(path)} was moved or deleted: the whole record is written there again")
                    self._disk = None
                elif now != self._disk and (data or b"").decode("utf-8", "replace") != self._text_of(self._written):
                    return self._merge(now, data)
                expect = now
            try:
                write_atomically(path, self.text, guard=self._known, expect=expect)
            except ChangedError:
                continue
            except OSError as exc:
                return self._unsaved(exc)
            break
        else:
            self._said.append(f"{shown(path)} keeps changing while it is written: not written this time")
            return self._unsaved(OSError(0, "another program keeps writing it"))
        try:
            self._disk = Snapshot.of(path, self.text.encode("utf-8"))
        except OSError:
            self._disk = None
        self._written, self._known = list(self.lines), True
        if self._failing:
            kept = _count(len(self.unwritten))
            self._said.append(f"written: {shown(path)} holds the whole record again ({kept} kept until now)")
        if self.side is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.side)
            self.side = None
        self._failing = False
        self.unwritten.clear()
        return True

    @staticmethod
    def _text_of(lines: Sequence[str] | None) -> str | None:
        return None if lines is None else "".join(line + "\n" for line in lines)

    def _merge(self, now: Snapshot | None, data: bytes | None) -> bool:
        """Another program wrote the file: take its text, and add the unwritten entries when they still stand."""
        assert self.path is not None
        path = shown(self.path)
        if not _utf8(data):  # nothing to carry on from, and nothing to overwrite: kept as if unwritable
            return self._unsaved(OSError(0, "another program wrote it, not as UTF-8 text; it is left as it is"))
        ours = self.text
        pending = list(self.unwritten)
        lines, added = self.carried((data or b"").decode("utf-8", "replace"), pending)
        if pending and len(added) == len(pending):
            self._take(now, data)
            self.lines = list(lines)
            self._said.append(f"{path} was changed by another program: read again, and {_listed(added)} added to it")
            return self.save()
        side = self._side_copy(ours, keep=True)
        kept = f"; the record as it was here, with them, is in {shown(side)}" if side else ""
        self._take(now, data)
        self.unwritten.clear()
        if self.side is not None:  # the copy of what was not yet written: in the kept copy now
            with contextlib.suppress(OSError):
                os.unlink(self.side)
            self.side = None
        self._failing = False
        if pending:
            self._said.append(
                f"{path} was changed by another program and is read again as it now is; "
                f"not added there: {_listed([e for e, _ in pending])} (enter again what still stands){kept}"
            )
        else:
            self._said.append(f"{path} was changed by another program: read again as it now is{kept}")
        return False

    def _unsaved(self, exc: OSError) -> bool:
        """The file cannot take the record now: keep it here and in a side file, and say so."""
        assert self.path is not None
        why = exc.strerror or str(exc)
        self._failing = True
        side = self._side_copy(self.text)
        where = f"; a copy is in {shown(side)}" if side else "; it could not be copied anywhere either"
        self._said.append(
            f"cannot write {shown(self.path)}: {why}. Nothing is lost: {_count(len(self.unwritten))} kept here "
            f"and written with the next entry (or `save`){where}"
        )
        return False

    def _side_copy(self, text: str, keep: bool = False) -> str | None:
        """Write `text` to a side file (beside the record, else in the temporary folder); its path, or None.

        The copy of a record not yet written (`NAME.unsaved`) is one file, rewritten as
        entries come and removed once the record itself is written; a copy that `keep`s
        a version another program's changes left out (`NAME.kept-TIME`) is never removed.
        """
        assert self.path is not None
        name = Path(self.path).name
        suffix = time.strftime("kept-%Y%m%d-%H%M%S") if keep else "unsaved"
        places = [
            str(Path(self.path).parent / f"{name}.{suffix}"),
            os.path.join(tempfile.gettempdir(), f"{name}.{os.getpid()}.{suffix}"),
        ]
        if not keep and self.side is not None and self.side in places:
            places.remove(self.side)
            places.insert(0, self.side)
        for place in places:
            try:
                write_atomically(place, text)
            except OSError:
                continue
            if not keep:
                if self.side is not None and self.side != place:
                    with contextlib.suppress(OSError):
                        os.unlink(self.side)
                self.side = place
            return place
        return None


def _utf8(data: bytes | None) -> bool:
    try:
        (data or b"").decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _listed(entries: Sequence[str]) -> str:
    return ", ".join(f"`{e}`" for e in entries)


def _count(n: int) -> str:
    return "1 entry" if n == 1 else f"{n} entries"


class RecordBusy(Exception):
    """Another live process is recording the same file."""

    def __init__(self, path: str, pid: int | None) -> None:
        who = f" (pid {pid})" if pid is not None else ""
        super().__init__(f"{shown(path)} is being recorded by another process{who}")
        self.pid = pid


@dataclass(slots=True)
class RecordLock:
    """The lock that keeps a second recorder off a record: `.NAME.lock` beside it, held with `flock`.

    The lock file holds the pid of the recorder holding it. The system lets go of
    the lock when that process ends, however it ends, so a lock file left by a
    process that died is simply taken over (`taken_over` names that pid).
    `fd` is None when no lock could be made there (a read-only folder, say):
    `why` says why, and recording goes on without one.
    """

    path: str
    fd: int | None
    why: str | None = None
    taken_over: int | None = None

    @classmethod
    def take(cls, record: str) -> RecordLock:
        """Lock `record` for this process; `RecordBusy` when another live process holds it."""
        target = Path(os.path.realpath(record))
        path = str(target.parent / f".{target.name}.lock")
        if sys.platform == "win32":  # pragma: no cover - no flock there
            return cls(path, None, "locks are not supported on this system")
        for _ in range(5):
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                return cls(path, None, exc.strerror or str(exc))
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                pid = _pid_in(fd)
                os.close(fd)
                raise RecordBusy(record, pid) from None
            except OSError as exc:
                os.close(fd)
                return cls(path, None, exc.strerror or str(exc))
            try:  # the holder before may have removed the file between our open and our lock
                same = os.fstat(fd).st_ino == os.stat(path).st_ino
            except OSError:
                same = False
            if not same:
                os.close(fd)
                continue
            before = _pid_in(fd)
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
                os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
            return cls(path, fd, None, before if before != os.getpid() else None)
        return cls(path, None, "the lock file keeps changing")

    def release(self) -> None:
        """Let go of the lock and remove its file."""
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
            os.close(self.fd)
            self.fd = None


def _pid_in(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
