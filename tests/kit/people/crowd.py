"""Simulated people for ``bench/bot.py``: they look at their chats and tap as soon as there is something to tap.

A table is one game's worth of people: a private player against one computer, or two people in
a group playing ``block`` against each other. A table wakes when a request of the bot touches one
of its chats (or answers one of its taps), looks at what the people see now, and taps:

- a playable tile (🟢 or ⭐) in the hand of whoever has one, chosen with a seeded random;
- an end (⬅ left, right ➡, ⬆ up, ⬇ down) when the bot asks which;
- in private: "Block" in the menu, "1 computer", "Play again" when the match is over;
- in the group: "Seats: N" until there are 2 seats, "Join" for the second person, "Start";
  a new ``/new block`` when the group shows the match's final result.

Nobody taps the same view twice (a view is a message id and its edit count). A table that has
seen nothing happen for ``STUCK_AFTER`` seconds (plus the longest think time) forgets what it
tapped and looks again. With ``think`` > 0 each tap waits ``think`` x uniform(0.5, 1.5) seconds.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from typing import Any

from fake_telegram import FakeTelegram, FakeTelegramError
from fake_telegram.state import Chat, Message, User
from tests.kit.monitor import Monitor

PLAYABLE = ("🟢", "⭐")
ENDS = ("⬅ left", "right ➡", "⬆ up", "⬇ down")
FINAL = ("wins the game!", "Game over.")
PRESET = "block"
PRESET_BUTTON = "Block"
STUCK_AFTER = 5.0


def buttons(message: Message | None) -> list[dict[str, Any]]:
    if message is None:
        return []
    return [button for row in message.inline_keyboard for button in row if isinstance(button, dict)]


def view_of(message: Message) -> tuple[int, int, int]:
    return (message.chat_id, message.message_id, message.edits)


class Table:
    """One game: its people, its chats, and what they have tapped."""

    kind = "table"

    def __init__(self, fake: FakeTelegram, monitor: Monitor, index: int, seed: int, think: float = 0.0) -> None:
        self.fake = fake
        self.think = think
        self.monitor = monitor
        self.index = index
        self.rng = random.Random(f"{seed}:{index}")
        self.wakeup = asyncio.Event()
        self.seen: set[tuple[Any, ...]] = set()  # views (and other things) already acted on
        self.counts: Counter[str] = Counter()
        self.acting = True

    def watch(self, chat_id: int) -> None:
        self.monitor.watch_chat[chat_id] = self.wakeup.set

    async def run(self, deadline: float, after: float = 0.0) -> None:
        loop = asyncio.get_running_loop()
        if after > 0:
            await asyncio.sleep(after)
        self.begin()
        while self.acting:
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            self.wakeup.clear()
            self.step()
            try:  # asyncio.timeout, not wait_for: no extra task per wait
                async with asyncio.timeout(min(STUCK_AFTER + self.think * 1.5, remaining)):
                    await self.wakeup.wait()
            except TimeoutError:
                if loop.time() < deadline:
                    self.counts["stuck"] += 1
                    self.seen.clear()
        self.acting = False

    def begin(self) -> None:
        raise NotImplementedError

    def step(self) -> None:
        raise NotImplementedError

    def tap(self, user: User, message: Message, button: dict[str, Any], what: str) -> bool:
        key = view_of(message)
        if key in self.seen:
            return False
        self.seen.add(key)
        self.counts[what] += 1
        if self.think > 0:  # spread out, so that the tables do not tap in step
            delay = self.think * self.rng.uniform(0.5, 1.5)
            asyncio.get_running_loop().call_later(delay, self._tap, user, message, button)
        else:
            self._tap(user, message, button)
        return True

    def _tap(self, user: User, message: Message, button: dict[str, Any]) -> None:
        if not self.acting:
            return
        try:
            query = self.fake.tap(user, message, data=button["callback_data"])
        except FakeTelegramError:  # deleted or redrawn in between: look again on the next change
            self.counts["tap failed"] += 1
            return
        self.monitor.watch_callback[query.id] = self.wakeup.set

    def play(self, user: User, message: Message | None) -> bool:
        """Tap a playable tile, or an end when asked for one; False if the hand offers neither."""
        if message is None:
            return False
        shown = buttons(message)
        tiles = [b for b in shown if str(b.get("text", "")).startswith(PLAYABLE)]
        if tiles:
            return self.tap(user, message, self.rng.choice(tiles), "tile taps")
        ends = [b for b in shown if str(b.get("text", "")).startswith(ENDS)]
        if ends:
            return self.tap(user, message, self.rng.choice(ends), "end taps")
        return False


class PrivateTable(Table):
    """One person against one computer in their private chat."""

    kind = "private"

    def __init__(self, fake: FakeTelegram, monitor: Monitor, index: int, seed: int, think: float = 0.0) -> None:
        super().__init__(fake, monitor, index, seed, think)
        self.user = fake.add_user(f"Solo {index}")

    def begin(self) -> None:
        self.watch(self.user.id)
        self.fake.start_bot(self.user)

    def step(self) -> None:
        message = self.fake.last_message(self.user)
        if message is None or self.play(self.user, message):
            return
        for button in buttons(message):
            text = button.get("text")
            if text in ("Play again", PRESET_BUTTON, "1 computer"):
                if self.tap(self.user, message, button, "menu taps"):
                    if text == "Play again":
                        self.counts["matches finished"] += 1
                    elif text == "1 computer":
                        self.counts["matches started"] += 1
                return


class GroupTable(Table):
    """Two people in a group playing ``block`` against each other; their hands are in private chats."""

    kind = "group"
    preset = PRESET  # what the host's /new asks for

    def __init__(self, fake: FakeTelegram, monitor: Monitor, index: int, seed: int, think: float = 0.0) -> None:
        super().__init__(fake, monitor, index, seed, think)
        self.host = fake.add_user(f"Ann {index}")
        self.guest = fake.add_user(f"Bob {index}")
        self.group: Chat = fake.add_group(f"Table {index}", members=[self.host, self.guest])

    def begin(self) -> None:
        for chat_id in (self.host.id, self.guest.id, self.group.id):
            self.watch(chat_id)
        self.fake.start_bot(self.host)  # both may then be written to privately: Join seats them at once
        self.fake.start_bot(self.guest)

    def step(self) -> None:
        fake = self.fake
        board = fake.last_message(self.group)
        if board is None:
            if fake.last_message(self.host) is not None and fake.last_message(self.guest) is not None:
                self.new_game(0)
            return
        shown = buttons(board)
        if any(b.get("text") == "Join" for b in shown):
            self.lobby(board, shown)
            return
        if any(word in board.shown_text for word in FINAL):
            self.new_game(board.message_id)
            return
        for user in (self.host, self.guest):
            self.play(user, fake.last_message(user))

    def new_game(self, after: int) -> None:
        key = ("new", after)
        if key in self.seen:
            return
        self.seen.add(key)
        if after:
            self.counts["matches finished"] += 1
        self.fake.send(self.host, f"/new {self.preset}", chat=self.group)
        self.counts["commands"] += 1

    def lobby(self, lobby: Message, shown: list[dict[str, Any]]) -> None:
        by_text = {str(b.get("text")): b for b in shown}
        seats = next((text for text in by_text if text.startswith("Seats: ")), None)
        if seats is not None and seats != "Seats: 2":
            self.tap(self.host, lobby, by_text[seats], "lobby taps")
        elif self.guest.first_name not in lobby.shown_text:
            self.tap(self.guest, lobby, by_text["Join"], "lobby taps")
        elif "Start" in by_text and self.tap(self.host, lobby, by_text["Start"], "lobby taps"):
            self.counts["matches started"] += 1


def tables(fake: FakeTelegram, monitor: Monitor, mode: str, games: int, seed: int, think: float) -> list[Table]:
    made: list[Table] = []
    for index in range(games):
        group = mode == "group" or (mode == "mixed" and index % 2 == 0)
        made.append((GroupTable if group else PrivateTable)(fake, monitor, index, seed, think))
    return made
