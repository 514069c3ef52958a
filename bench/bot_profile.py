"""Where the bot process spends its CPU, for ``bench/bot.py``; the bot itself is not changed.

Always: CPU per thread of the bot, from ``/proc/<pid>/task/*/stat`` at the start and the end of
the run (exact, cheap). The bot's threads: the event loop (``MainThread``), the default executor's
workers (``asyncio_N``: ``asyncio.to_thread``, i.e. pictures) and aiosqlite's connection thread.

``--profile py-spy``: ``py-spy record --pid`` on the running bot (install it with
``.venv/bin/pip install py-spy``), raw stacks of every thread. Samples are only used as shares
*within* a thread group, and those shares are multiplied by the group's measured CPU: py-spy
counts a thread that is runnable but waiting for a core (or the GIL) as busy, so raw sample
counts overstate CPU when more threads want to run than there are cores. Stacks that end in a
waiting frame (the selector, an executor worker's queue) are dropped as idle. Every busy sample
is given to one "what": the first frame, from the leaf up, that belongs to a known library or
package, so the rows add up.

``--profile cprofile``: the bot started as ``python -m bench.bot_cprofile`` (the env var
``BENCH_CPROFILE`` names the output), ``bot.app.main`` under :mod:`cProfile`, event loop only.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import pstats
import re
import shutil
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

RATE = 100
TOP = int(os.environ.get("BENCH_PROFILE_TOP", "15"))
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

EVENT_LOOP = "event loop thread"
WORKERS = "executor threads (to_thread: pictures)"
SQLITE = "aiosqlite thread (SQL in C)"

# (what, needles in a frame's "function (path)"); the first match from the leaf frame up owns the sample.
OWNERS: list[tuple[str, tuple[str, ...]]] = [
    ("PNG encoding (renderer/png.py, zlib)", ("/renderer/png.py", "/PIL/PngImagePlugin.py", "/PIL/ImageFile.py")),
    ("palette mapping (Image.quantize)", ("Image.quantize (", "to_palette (")),
    ("drawing (renderer/, other Pillow)", ("/PIL/", "/renderer/")),
    ("JSON dumps/loads", ("/json/",)),
    ("SQLite calls (aiosqlite, storage/)", ("/aiosqlite/", "/sqlite3/", "/storage/")),
    ("game records, engine (engine/)", ("/engine/",)),
    ("pydantic (aiogram's types)", ("/pydantic/", "/pydantic_core/")),
    ("aiogram", ("/aiogram/",)),
    ("aiohttp client (+multidict, yarl)", ("/aiohttp/", "/multidict/", "/yarl/", "/http/")),
    ("the bot's own code (bot/)", ("/bot/",)),
    ("asyncio, sockets, threads", ("/asyncio/", "/selectors.py", "/socket.py", "/concurrent/", "/threading.py")),
]
IDLE_LEAVES = (
    re.compile(r"^EpollSelector\.select \("),
    re.compile(r"^_worker \(.*concurrent/futures/thread\.py\)$"),
    re.compile(r"^Condition\.wait \("),
    re.compile(r"^Queue\.get \("),
)
OURS = ("/bot/", "/engine/", "/renderer/", "/storage/")
_THREAD = re.compile(r"^thread \((\d+)\): (.*)$")


def thread_cpu(pid: int) -> dict[int, float]:
    """CPU seconds (user + system) of each thread of a process."""
    found: dict[int, float] = {}
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
                found[int(task.name)] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return found


def group_of(pid: int, tid: int, name: str) -> str:
    if tid == pid or name == "MainThread":
        return EVENT_LOOP
    if "_connection_worker_thread" in name:
        return SQLITE
    if name.startswith("asyncio_"):
        return WORKERS
    return f"other threads ({name})" if name else "other threads"


def py_spy() -> str | None:
    beside = Path(sys.executable).parent / "py-spy"
    return str(beside) if beside.exists() else shutil.which("py-spy")


class Profiler:
    def __init__(self, kind: str | None, workdir: Path, keep: Path | None) -> None:
        self.kind = kind
        self.keep = keep
        self.output = workdir / ("profile.txt" if kind == "py-spy" else "profile.pstats")
        self.spy: subprocess.Popen[bytes] | None = None
        self.problem = ""
        if kind == "py-spy" and py_spy() is None:
            raise SystemExit("py-spy is not installed: .venv/bin/pip install py-spy")

    def command(self, python: str) -> list[str]:
        return [python, "-m", "bench.bot_cprofile" if self.kind == "cprofile" else "bot"]

    def environment(self, env: dict[str, str]) -> dict[str, str]:
        return {**env, "BENCH_CPROFILE": str(self.output)} if self.kind == "cprofile" else env

    def attach(self, pid: int, seconds: float) -> None:
        if self.kind != "py-spy":
            return
        spy = py_spy()
        assert spy is not None
        self.spy = subprocess.Popen(
            [spy, "record", "--pid", str(pid), "--duration", str(max(1, round(seconds))), "--rate", str(RATE)]
            + ["--format", "raw", "--full-filenames", "--nolineno", "--threads", "--nonblocking"]
            + ["--output", str(self.output)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    async def finish(self) -> None:
        """Let py-spy write its file (it stops by itself after the run's length)."""
        spy = self.spy
        if spy is None:
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 15
        while spy.poll() is None and loop.time() < deadline:
            await asyncio.sleep(0.1)
        if spy.poll() is None:
            spy.terminate()
            spy.wait(5)
        if spy.returncode != 0 and spy.stderr is not None:
            self.problem = spy.stderr.read().decode(errors="replace").strip()[-500:]

    def report(self, pid: int, cpu: dict[int, float], moves: int) -> str:
        """The per-thread CPU table, and the profile's summary if one was taken."""
        raw = ""
        if self.kind == "py-spy" and self.output.exists():
            raw = self.output.read_text(errors="replace")
            if self.keep is not None:
                shutil.copyfile(self.output, self.keep)
        names = {int(m.group(1)): m.group(2) for m in map(_THREAD.match, _thread_frames(raw)) if m}
        if not names:  # without py-spy: the bot opens its database (aiosqlite's thread) before any other thread
            others = sorted(tid for tid in cpu if tid != pid)
            names = {tid: "asyncio_?" for tid in others[1:]}
            if others:
                names[others[0]] = "_connection_worker_thread (the first thread started)"
        groups: defaultdict[str, float] = defaultdict(float)
        for tid, seconds in cpu.items():
            groups[group_of(pid, tid, names.get(tid, ""))] += seconds
        per_move = 1000 / max(moves, 1)
        lines = [f"bot CPU by thread (from /proc), ms per move over {moves} moves:"]
        lines += [f"  {name:<44} {seconds * per_move:>7.2f}" for name, seconds in sorted(groups.items())]
        lines.append(f"  {'all threads':<44} {sum(groups.values()) * per_move:>7.2f}")
        loop_ms, all_ms = groups.get(EVENT_LOOP, 0.0) * per_move, sum(groups.values()) * per_move
        if moves and loop_ms and all_ms:
            cores = os.cpu_count() or 1
            lines.append(
                f"  ceilings at this cost: the event loop thread alone {1000 / loop_ms:.0f} moves/s; "
                f"all threads on {cores} idle cores {cores * 1000 / all_ms:.0f} moves/s"
            )
        if self.kind == "py-spy":
            if not raw:
                lines.append(f"profile: no output from py-spy {self.problem}".rstrip())
            else:
                lines.append(summarize_py_spy(raw, pid, groups, moves))
        elif self.kind == "cprofile":
            lines.append(summarize_cprofile(self.output) if self.output.exists() else "profile: no cProfile output")
        return "\n".join(lines)


def _thread_frames(raw: str) -> list[str]:
    return list({line.split(";", 1)[0] for line in raw.splitlines() if line.startswith("thread (")})


def _path(frame: str) -> str:
    start = frame.rfind(" (")
    return frame[start + 2 : -1] if start >= 0 and frame.endswith(")") else ""


def _short(frame: str) -> str:
    start = frame.rfind(" (")
    if start < 0:
        return frame
    path = frame[start + 2 : -1]
    for root in OURS:
        at = path.rfind(root)
        if at >= 0:
            return f"{frame[:start]} ({path[at + 1 :]})"
    return f"{frame[:start]} ({'/'.join(path.split('/')[-2:])})"


def owner(frames: list[str]) -> str:
    for frame in reversed(frames):
        for what, needles in OWNERS:
            if any(needle in frame for needle in needles):
                return what
    return "other"


def _telling(frame: str) -> bool:
    """A frame of this repository worth listing (not the entry points every stack of a thread shares)."""
    path = _path(frame)
    return any(root in path for root in OURS) and not frame.startswith(("<module> (", "main (", "run ("))


def summarize_py_spy(raw: str, pid: int, cpu: dict[str, float], moves: int) -> str:
    """py-spy's raw stacks as CPU ms per move: by thread group, by owner, and our functions inclusive."""
    owners: defaultdict[str, Counter[str]] = defaultdict(Counter)
    inclusive: defaultdict[str, Counter[str]] = defaultdict(Counter)
    nearest: defaultdict[str, Counter[str]] = defaultdict(Counter)
    busy: Counter[str] = Counter()
    idle = 0
    for line in raw.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = stack.split(";")
        head = _THREAD.match(frames[0])
        group = group_of(pid, int(head.group(1)), head.group(2)) if head else EVENT_LOOP
        frames = frames[1:] if head else frames
        if not frames or any(p.match(frames[-1]) for p in IDLE_LEAVES):
            idle += count
            continue
        busy[group] += count
        owners[group][owner(frames)] += count
        ours = [f for f in frames if _telling(f)]
        for frame in dict.fromkeys(ours):
            inclusive[group][frame] += count
        nearest[group][ours[-1] if ours else "(no frame of this repository)"] += count
    per_move = 1000 / max(moves, 1)
    lines = [
        f"profile (py-spy, {sum(busy.values())} busy samples, {idle} idle dropped): each thread group's measured "
        "CPU split by its samples, ms per move"
    ]
    total: defaultdict[str, float] = defaultdict(float)
    for group, samples in busy.most_common():
        if group == SQLITE:
            continue  # its work is the SQL itself, in C, invisible to py-spy without --native
        scale = cpu.get(group, 0.0) * per_move / samples
        lines.append(f"  {group} ({cpu.get(group, 0.0) * per_move:.2f} ms/move):")
        for what, n in owners[group].most_common():
            total[what] += n * scale
            if n * scale >= 0.05:
                lines.append(f"    {what:<42} {n * scale:>7.2f}")
        lines.append(f"    our functions, inclusive (top {TOP}):")
        lines += [f"      {n * scale:>7.2f}  {_short(frame)}" for frame, n in inclusive[group].most_common(TOP)]
        lines.append(f"    our function nearest the leaf: itself and the library calls it makes (top {TOP}):")
        lines += [f"      {n * scale:>7.2f}  {_short(frame)}" for frame, n in nearest[group].most_common(TOP)]
    if SQLITE in cpu:
        total["SQL statements and commits (aiosqlite thread)"] += cpu[SQLITE] * per_move
    lines.append("  all threads, by what (ms per move):")
    ranked = sorted(total.items(), key=lambda item: -item[1])
    lines += [f"    {what:<48} {ms:>7.2f}" for what, ms in ranked if ms >= 0.05]
    return "\n".join(lines)


def summarize_cprofile(path: Path) -> str:
    buffer = io.StringIO()
    stats = pstats.Stats(str(path), stream=buffer)
    stats.strip_dirs()
    buffer.write("profile (cProfile, the event loop thread only; pictures drawn in to_thread are not in it)\n")
    stats.sort_stats("cumulative").print_stats(TOP + 15)
    stats.sort_stats("tottime").print_stats(TOP + 5)
    return buffer.getvalue()
