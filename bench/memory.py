"""Peak memory of `imp validate` streaming one large file, then the file is deleted.

    python bench/memory.py [--mb 1024] [--jobs N] [--dir /tmp]

Builds a file of about --mb megabytes by repeating a corpus of 5,000 hands
(bench/corpus.py), runs `imp validate --json` on it, samples the resident
memory of the whole process tree (the command and its workers, from /proc)
every 0.2 s, and prints the peak of that sum, the largest single process's
peak (wait4's ru_maxrss), the wall time and the throughput.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import corpus
from run import imp_command


def tree_rss_kb(root: int) -> int:
    """The resident memory of `root` and all its descendants, in kB."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        children.setdefault(ppid, []).append(pid)
        rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE") // 1024
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        total += rss.get(pid, 0)
        todo.extend(children.get(pid, []))
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=int, default=1024)
    ap.add_argument("--jobs", type=int)
    ap.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()))
    args = ap.parse_args()
    block = corpus("bottle-imp", 5000).encode()
    copies = max(1, args.mb * 1_000_000 // len(block))
    fd, name = tempfile.mkstemp(prefix="imp-large-", suffix=".imp", dir=args.dir)
    path = Path(name)
    try:
        with os.fdopen(fd, "wb") as out:
            for _ in range(copies):
                out.write(block + b"\n")
        size = path.stat().st_size
        cmd = [*imp_command(), "validate", "--json", *(["--jobs", str(args.jobs)] if args.jobs else []), name]
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        peak = 0
        shown = start
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            peak = max(peak, tree_rss_kb(proc.pid))
            if time.perf_counter() - shown > 60:
                shown = time.perf_counter()
                print(f"  {shown - start:,.0f} s: peak so far {peak / 1024:,.0f} MB", flush=True)
            time.sleep(0.2)
        wall = time.perf_counter() - start
        hands = copies * 5000
        print(
            f"file: {size / 1e6:,.0f} MB, {hands:,} hands; {' '.join(cmd[1:-1])}; "
            f"exit {os.waitstatus_to_exitcode(status)}"
        )
        print(f"peak resident memory of the process tree: {peak / 1024:,.0f} MB (sampled every 0.2 s)")
        print(f"largest single process (ru_maxrss): {usage.ru_maxrss / 1024:,.0f} MB")
        print(f"wall {wall:,.0f} s: {hands / wall:,.0f} hands/s, {size / 1e6 / wall:.2f} MB/s")
    finally:
        path.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
