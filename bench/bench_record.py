"""Time `imp record`'s answer to each entry, as the table waits for it.

PYTHONPATH=. python bench/bench_record.py              # every sample game's last hand, typed entry by entry
PYTHONPATH=. python bench/bench_record.py --rounds 5   # each hand typed five times over (the median of each entry)

Besides the samples, a game of `--long` hands (default 20) of each game, simulated
(`imp simulate`'s code, seed 1), has its last hand typed the same way: the late entry
of a long night.

For each sample record it keeps everything before the last hand, then types that hand
as a player would at the table (the `hand` line, its deals and bids as written, then
each card bare) and times what the recorder does for each entry: the proposal (the
entry read and the hand judged), accepting it (the file rewritten), the status line
and the cards that may come next. The first entry of a hand also judges the hands
before it once; it is listed apart. The file is written to a temporary folder, as
`imp record` writes its own after every card.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from imptools.reader import read_games
from imptools.record import Trick
from imptools.recorder import Recorder
from imptools.simulate import Options, simulate

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
TABLES = {
    "bottle-imp": "Adam Betty Christian Doris",
    "botifarra": "Ana Bernat Carles Dolors",
    "ninety-nine": "Al Bo Cy",
}


def long_games(hands: int) -> list[tuple[str, str]]:
    """A simulated game of `hands` hands of each game: (label, text)."""
    games = [(game, Options(game, tuple(players.split()), hands=hands, seed=1)) for game, players in TABLES.items()]
    return [(f"{game}, {hands} hands simulated", "".join(simulate(opts))) for game, opts in games]


def entries_of_last_hand(text: str) -> tuple[str, list[str], int]:
    """The text before the last hand of the file's last game, that hand's entries as typed at the table, and how
    many hands come before it."""
    game = list(read_games(text))[-1]
    last = game.hands[-1]
    lines = text.splitlines()
    before = "".join(line + "\n" for line in lines[: last.line - 1])
    entries = [lines[last.line - 1].split(";")[0].strip()]
    for element in last.lines:
        if isinstance(element, Trick):
            entries += [p.card.text for p in element.plays]
        else:
            written = lines[element.line - 1].split(";")[0].strip()
            if written and not written.startswith(("score", "total")):
                entries.append(written)
    return before, entries, len(game.hands) - 1


def type_hand(before: str, entries: list[str], folder: Path) -> tuple[float, list[float]] | None:
    """Seconds for the first entry and for each later one; None when the hand is not typed cleanly."""
    path = folder / "night.imp"
    path.write_text(before, encoding="utf-8")
    rec = Recorder.open(str(path))
    seconds: list[float] = []
    for entry in entries:
        start = time.perf_counter()
        proposal = rec.propose(entry)
        if proposal is None or any(f.is_error for f in proposal.findings):
            return None
        rec.accept(proposal)
        rec.status()
        rec.choices()
        seconds.append(time.perf_counter() - start)
    return seconds[0], seconds[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="type each hand this many times (default 3)")
    parser.add_argument("--long", type=int, default=20, help="hands in each simulated game (default 20)")
    args = parser.parse_args()
    print("| Record | Hands before | Entries | First entry | Median entry | Slowest entry |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        records = [(p.name, p.read_text(encoding="utf-8")) for p in sorted(SAMPLES.glob("*.imp"))]
        for name, text in records + long_games(args.long):
            before, entries, hands_before = entries_of_last_hand(text)
            runs = [type_hand(before, entries, Path(tmp)) for _ in range(args.rounds)]
            if any(run is None for run in runs):
                print(f"| {name} | - | - | not typed cleanly (a record with mistakes) | - | - |")
                continue
            typed = [run for run in runs if run is not None]
            first = statistics.median(run[0] for run in typed)
            each = [statistics.median(run[1][i] for run in typed) for i in range(len(entries) - 1)]
            print(
                f"| {name} | {hands_before} | {len(entries)} | {first * 1e3:,.0f} ms"
                f" | {statistics.median(each) * 1e3:,.1f} ms | {max(each) * 1e3:,.1f} ms |"
            )


if __name__ == "__main__":
    main()
