"""`imp record` when the file and the disk fail, as they do at a real table: each fault made for real.

A full file system and a read-only one (a small tmpfs mounted for the test), the file
moved or deleted while recording, another program writing the file (a real
subprocess), and a second recorder on the same file (a real second process). Each
test shows every entry kept: in the file once it can be written, or in a side file
whose path is told, and never a line of anyone else's overwritten.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from imptools.reader import read_games
from imptools.record import Game
from imptools.recorder import RecordBusy, Recorder, RecordLock

ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT / "tests" / "conformance" / "bottle-imp" / "rulebook-example.imp"
PLAYERS = "Adam Betty Christian Doris"


def _game(text: str) -> Game:
    return list(read_games(text))[-1]


def _entries() -> list[str]:
    """The rulebook example as typed at the table: its hand, deal, discard and pass lines, then card by card."""
    text = RULEBOOK.read_text()
    lines = [line for line in text.splitlines() if line.startswith(("hand", "deal", "discard", "pass"))]
    return lines + [p.card.text for t in _game(text).hands[0].tricks for p in t.plays]


ENTRIES = _entries()
FIRST_PLAY = ENTRIES.index("24") if ENTRIES else 0


def _plays(text: str) -> list[str]:
    game = _game(text)
    return [p.card.text for h in game.hands for t in h.tricks for p in t.plays]


def _cannot_mount(why: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"a small file system is needed and could not be mounted: {why}")
    pytest.skip(f"a small file system could not be mounted here: {why}")


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs of its own: it fills up, and it can be made read-only, for real."""
    mount = tmp_path / "table"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)], capture_output=True, text=True
    )
    if done.returncode != 0:
        _cannot_mount(done.stderr.strip() or f"mount exited {done.returncode}")
    try:
        yield mount
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(mount)], capture_output=True)
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def _fill(folder: Path) -> Path:
    """Fill the file system of `folder` to the last byte; the filler file, to remove to make room again."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as out:
        try:
            while True:
                out.write(b"x" * 1024)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def _started(path: Path, upto: int) -> Recorder:
    rec = Recorder.open(str(path), "bottle-imp", PLAYERS, "classic")
    for e in ENTRIES[:upto]:
        assert rec.enter(e) is not None
    assert rec.unwritten == [] and _plays(path.read_text()) == _plays(rec.text)
    return rec


def test_a_full_disk_keeps_every_entry_and_writes_them_when_there_is_room(small_fs: Path) -> None:
    path = small_fs / "night.imp"
    rec = _started(path, FIRST_PLAY + 2)
    before = path.read_text()
    filler = _fill(small_fs)
    for e in ENTRIES[FIRST_PLAY + 2 : FIRST_PLAY + 6]:  # trick 1 ends, trick 2 starts: the disk is full
        proposal = rec.propose(e)
        assert proposal is not None and proposal.refusal is None
        assert rec.accept(proposal) is False
    said = rec.news()
    assert said and all("No space left on device" in s and "Nothing is lost" in s for s in said), said
    assert "4 entries kept here" in said[-1]
    assert path.read_text() == before  # the file is the record as last written, whole
    assert rec.side is not None and not rec.side.startswith(str(small_fs))  # no room beside it: the temporary folder
    assert f"a copy is in {rec.side}" in said[-1]
    assert Path(rec.side).read_text() == rec.text
    assert _plays(rec.text) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 6]
    side = rec.side
    filler.unlink()  # room again
    assert rec.enter(ENTRIES[FIRST_PLAY + 6]) is not None
    assert rec.unwritten == []
    said = rec.news()
    assert said and "holds the whole record again" in said[-1], said
    assert _plays(path.read_text()) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 7]
    assert path.read_text() == rec.text
    assert not Path(side).exists() and rec.side is None  # the side copy has done its work


def test_a_read_only_file_system_keeps_the_entries_until_it_can_be_written(small_fs: Path) -> None:
    path = small_fs / "night.imp"
    rec = _started(path, FIRST_PLAY + 1)
    subprocess.run(["mount", "-o", "remount,ro", str(small_fs)], check=True)
    try:
        with pytest.raises(OSError):  # as root, only a real read-only mount stops a write
            (small_fs / "probe").write_text("x")
        for e in ENTRIES[FIRST_PLAY + 1 : FIRST_PLAY + 3]:
            rec.enter(e)
        said = rec.news()
        assert "Read-only file system" in said[-1] and "2 entries kept here" in said[-1], said
        assert rec.side is not None and Path(rec.side).read_text() == rec.text
        assert _plays(path.read_text()) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 1]
        assert rec.save() is False  # still read-only: still kept
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_fs)], check=True)
    assert rec.save() is True
    assert _plays(path.read_text()) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 3]
    assert rec.unwritten == [] and rec.side is None


def test_the_file_moved_or_deleted_while_recording_is_written_again_whole(tmp_path: Path) -> None:
    path = tmp_path / "night.imp"
    rec = _started(path, FIRST_PLAY + 2)
    moved = tmp_path / "elsewhere.imp"
    os.rename(path, moved)
    rec.enter(ENTRIES[FIRST_PLAY + 2])
    assert any("was moved or deleted" in s for s in rec.news())
    assert _plays(path.read_text()) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 3]  # nothing of the record lost
    assert _plays(moved.read_text()) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 2]  # the moved copy is left alone
    path.unlink()
    rec.enter(ENTRIES[FIRST_PLAY + 3])
    assert any("was moved or deleted" in s for s in rec.news())
    assert _plays(path.read_text()) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 4]
    assert _game(path.read_text()).tag("Variant") == "classic"


def test_the_folder_removed_keeps_the_entries_in_a_side_file(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    path = folder / "night.imp"
    rec = _started(path, FIRST_PLAY + 1)
    path.unlink()
    folder.rmdir()
    rec.enter(ENTRIES[FIRST_PLAY + 1])
    said = rec.news()
    assert any("cannot write" in s for s in said), said
    assert rec.side is not None and _plays(Path(rec.side).read_text()) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 2]
    folder.mkdir()
    rec.enter(ENTRIES[FIRST_PLAY + 2])
    assert _plays(path.read_text()) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 3]


def _other_program(path: Path, code: str) -> None:
    """Another program (a real process) changes the record: `code` gets `text` and sets `text`."""
    script = f"import pathlib; p = pathlib.Path({str(path)!r}); text = p.read_text(); {code}; p.write_text(text)"
    subprocess.run([sys.executable, "-c", script], check=True)
    time.sleep(0.01)


def test_a_line_written_by_another_program_is_kept_and_the_entry_added_to_it(tmp_path: Path) -> None:
    path = tmp_path / "night.imp"
    rec = _started(path, FIRST_PLAY + 2)
    _other_program(path, "text = text + '; the lamp went out here\\n'")
    proposal = rec.propose(ENTRIES[FIRST_PLAY + 2])
    assert proposal is not None
    rec.accept(proposal)
    said = rec.news()
    assert said and "changed by another program" in said[0] and f"`{ENTRIES[FIRST_PLAY + 2]}` added" in said[0]
    on_disk = path.read_text()
    assert "; the lamp went out here" in on_disk  # theirs kept
    assert _plays(on_disk) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 3]  # ours added
    assert rec.text == on_disk


def test_an_entry_that_no_longer_stands_is_not_forced_over_another_programs_change(tmp_path: Path) -> None:
    path = tmp_path / "night.imp"
    rec = _started(path, FIRST_PLAY + 2)
    card = ENTRIES[FIRST_PLAY + 2]
    _other_program(path, f"text = text.rstrip('\\n') + ' {card}\\n'")  # an editor already wrote the next card
    theirs = path.read_text()
    rec.enter(card)
    said = rec.news()
    assert len(said) == 1 and "is read again as it now is" in said[0] and f"not added there: `{card}`" in said[0]
    assert path.read_text() == theirs  # never overwritten
    assert rec.text == theirs  # and carried on from what is there
    kept = said[0].split("is in ")[-1]
    assert Path(kept).name.startswith("night.imp.kept-") and _plays(Path(kept).read_text()) == _plays(theirs)
    assert rec.status().prompt() == "trick 1, Doris: "


def test_a_change_made_between_entries_is_read_before_the_next_prompt(tmp_path: Path) -> None:
    path = tmp_path / "night.imp"
    rec = _started(path, FIRST_PLAY + 1)
    _other_program(path, f"text = text.rstrip('\\n') + ' {ENTRIES[FIRST_PLAY + 1]}\\n'")
    assert rec.refresh() is True
    assert "read again" in rec.news()[0]
    assert rec.status().prompt() == "trick 1, Christian: "
    assert rec.undo() == ENTRIES[FIRST_PLAY + 1]  # undo now takes back what the file shows last
    assert _plays(path.read_text()) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 1]


def test_undo_after_another_program_wrote_reads_again_and_takes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "night.imp"
    rec = _started(path, FIRST_PLAY + 2)
    _other_program(path, "text = text + '; scorer changed\\n'")
    assert rec.undo() is None
    assert path.read_text().endswith("; scorer changed\n") and rec.text == path.read_text()


def test_a_second_recorder_on_the_same_file_is_refused_and_a_dead_ones_lock_taken_over(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "night.imp"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"}
    command = f"exec {sys.executable} -m imptools record {path} --game bottle-imp --players '{PLAYERS}'"
    first = pexpect.spawn("/bin/sh", ["-c", command], env=env, encoding="utf-8", timeout=60, dimensions=(50, 120))
    try:
        first.expect("hand 1:")
        first.sendline("hand 1 dealer Doris")
        first.expect("trick 1, Adam:")
        before = path.read_bytes()
        second = subprocess.run(
            [sys.executable, "-m", "imptools", "record", str(path)], capture_output=True, text=True, env=env, timeout=60
        )
        assert second.returncode == 2
        assert f"{path} is being recorded by another process (pid {first.pid})" in second.stderr
        assert path.read_bytes() == before
        first.sendline("24")
        first.expect("trick 1, Betty:")
        first.kill(9)  # dies holding the lock: its lock file stays, with its pid
    finally:
        first.close(force=True)
    lock = tmp_path / ".night.imp.lock"
    assert lock.read_text().strip() == str(first.pid)
    again = pexpect.spawn(
        "/bin/sh", ["-c", f"exec {sys.executable} -m imptools record {path}"], env=env, encoding="utf-8", timeout=60
    )
    try:
        again.expect(f"the lock left by process {first.pid}, which is no longer running, is taken over")
        again.expect("trick 1, Betty:")
        assert lock.read_text().strip() == str(again.pid)
        again.sendline("15")
        again.expect("trick 1, Christian:")
        again.sendline("quit")
        again.expect(pexpect.EOF)
    finally:
        again.close(force=True)
    assert path.read_text().splitlines()[-1] == "1. Adam:24 15"
    assert not lock.exists()  # let go of at the end


def test_the_lock_itself(tmp_path: Path) -> None:
    path = tmp_path / "night.imp"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; sys.path.insert(0, sys.argv[2]); from imptools.recorder import RecordLock; "
            "lock = RecordLock.take(sys.argv[1]); print(lock.fd is not None, flush=True); time.sleep(60)",
            str(path),
            str(ROOT),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "True"
        with pytest.raises(RecordBusy, match=rf"is being recorded by another process \(pid {holder.pid}\)"):
            RecordLock.take(str(path))
    finally:
        holder.kill()
        holder.wait()
    mine = RecordLock.take(str(path))  # the holder is gone: its lock is taken over
    try:
        assert mine.fd is not None and mine.taken_over == holder.pid
    finally:
        mine.release()


def test_no_lock_on_a_read_only_folder_is_said_and_recording_goes_on(small_fs: Path) -> None:
    path = small_fs / "night.imp"
    Recorder.open(str(path), "bottle-imp", PLAYERS)
    subprocess.run(["mount", "-o", "remount,ro", str(small_fs)], check=True)
    lock = RecordLock.take(str(path))
    assert lock.fd is None and lock.why == "Read-only file system"
    rec = Recorder.open(str(path))
    rec.enter("hand 1 dealer Doris")
    assert "Read-only file system" in rec.news()[-1] and rec.unwritten and rec.side is not None
    assert "hand 1 dealer Doris" in Path(rec.side).read_text()
    Path(rec.side).unlink()


def test_a_full_disk_at_the_table_through_a_pty_is_told_and_nothing_is_lost(small_fs: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = small_fs / "night.imp"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"}
    command = f"exec {sys.executable} -m imptools record {path} --game bottle-imp --players '{PLAYERS}'"
    child = pexpect.spawn("/bin/sh", ["-c", command], env=env, encoding="utf-8", timeout=60, dimensions=(50, 200))
    try:
        child.expect("hand 1:")
        for e in ENTRIES[: FIRST_PLAY + 1]:
            child.sendline(e)
        child.expect("trick 1, Betty:")
        filler = _fill(small_fs)
        child.sendline(ENTRIES[FIRST_PLAY + 1])
        child.expect(f"cannot write {path}: No space left on device")
        child.expect("trick 1, Christian:")
        child.sendline(ENTRIES[FIRST_PLAY + 2])
        child.expect("2 entries kept here")
        child.expect("trick 1, Doris:")
        child.sendline("quit")
        child.expect(r"lacks the last 2 entries: the whole record is in ([^\s\x1b]+)")
        side = Path(child.match.group(1))
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 1
    assert _plays(path.read_text()) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 1]
    assert _plays(side.read_text()) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 3]
    side.unlink()
    filler.unlink()
    again = pexpect.spawn(
        "/bin/sh", ["-c", f"exec {sys.executable} -m imptools record {path}"], env=env, encoding="utf-8", timeout=60
    )
    try:
        again.expect("trick 1, Betty:")  # the file as written: the side copy holds the rest, as told
        again.sendline("quit")
        again.expect(pexpect.EOF)
    finally:
        again.close(force=True)


def test_a_file_another_program_wrote_as_something_else_than_utf8_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "night.imp"
    rec = _started(path, FIRST_PLAY + 1)
    _other_program(path, "p.write_bytes(text.encode() + '; Glòria\\n'.encode('latin-1')); raise SystemExit")
    theirs = path.read_bytes()
    assert rec.refresh() is False and "is not UTF-8 text: it is left as it is" in rec.news()[0]
    assert rec.refresh() is False and rec.news() == []  # said once
    rec.enter(ENTRIES[FIRST_PLAY + 1])
    said = rec.news()
    assert "not as UTF-8 text" in said[0] and "1 entry kept here" in said[0]
    assert path.read_bytes() == theirs  # not a byte of theirs changed
    assert rec.side is not None and _plays(Path(rec.side).read_text()) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 2]
    path.write_bytes(theirs.replace("ò".encode("latin-1"), "ò".encode()))  # mended by hand
    rec.enter(ENTRIES[FIRST_PLAY + 2])
    on_disk = path.read_text()
    assert "; Glòria" in on_disk and _plays(on_disk) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 3]
    assert rec.side is None


def test_another_program_writing_during_a_session_is_told_at_the_table_and_both_lines_kept(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    path = tmp_path / "night.imp"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1"}
    command = f"exec {sys.executable} -m imptools record {path} --game bottle-imp --players '{PLAYERS}'"
    child = pexpect.spawn("/bin/sh", ["-c", command], env=env, encoding="utf-8", timeout=60, dimensions=(50, 200))
    try:
        child.expect("hand 1:")
        for e in ENTRIES[: FIRST_PLAY + 1]:
            child.sendline(e)
        child.expect("trick 1, Betty:")
        _other_program(path, "text = text + '; the host phoned\\n'")  # while the prompt waits
        child.sendline(ENTRIES[FIRST_PLAY + 1])
        child.expect(f"{path} was changed by another program: read again, and `{ENTRIES[FIRST_PLAY + 1]}` added")
        child.expect("trick 1, Christian:")
        child.sendline("quit")
        child.expect(f"saved {path}")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    on_disk = path.read_text()
    assert "; the host phoned" in on_disk and _plays(on_disk) == ENTRIES[FIRST_PLAY : FIRST_PLAY + 2]
