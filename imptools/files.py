"""Writing users' files safely: atomic replacement, and refusing a file that changed since it was read.

Every command that writes a record (`fmt --write`, `import -o`, `simulate -o`,
`replay --html`, `record`) goes through `write_atomically`: a crash leaves the
old file or the new one, never half of each.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path


def shown(path: str) -> str:
    """A path as text that can always be printed and put in JSON (bytes that are not UTF-8 become U+FFFD)."""
    return path.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a file was when it was read: a writer refuses to replace a file that no longer matches."""

    mtime_ns: int
    size: int
    digest: str

    @classmethod
    def of(cls, path: str | Path, data: bytes | None = None) -> Snapshot | None:
        """The file as it is now (None when there is none); `data`, when given, is its content just read."""
        try:
            st = os.stat(path)
            if data is None:
                data = Path(path).read_bytes()
        except FileNotFoundError:
            return None
        return cls(st.st_mtime_ns, st.st_size, hashlib.sha256(data).hexdigest())


class ChangedError(Exception):
    """The file to replace changed since it was read; nothing was written."""


def write_atomically(path: str, text: str | Iterable[str], guard: bool = False, expect: Snapshot | None = None) -> None:
    """Replace `path` with `text` in one step: a crash leaves the old file or the new one, never half of each.

    `text` may come in pieces (an iterable of strings), written as they come.

    The new file keeps the old one's permissions (a new file gets the usual ones), a symbolic link
    stays a link to the file replaced, and the data is on disk before the rename. With `guard`,
    `expect` is what the file was when read (a `Snapshot`, or None for "there was no file"): a
    file that changed since is left alone and `ChangedError` is raised.
    """
    target = Path(path)
    if target.is_symlink():
        target = target.resolve()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as out:
            for piece in [text] if isinstance(text, str) else text:
                out.write(piece)
            out.flush()
            os.fsync(out.fileno())
        try:
            mode = target.stat().st_mode & 0o7777
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(tmp, mode)
        if guard and Snapshot.of(target) != expect:
            raise ChangedError(f"{shown(path)} changed since it was read")
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    with contextlib.suppress(OSError):  # the rename itself on disk, where the system allows it
        dirfd = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)
