"""The Mini App table's server, with the real bot: who may connect, what each is shown, a move from the page."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from fake_telegram import FakeTelegram, User
from fake_telegram.webapp import init_data
from tests.e2e.conftest import running_bot
from tests.kit.launcher import free_port
from tests.kit.people.players import hand_message, open_private_game, play_from_hand, tile_buttons

pytestmark = pytest.mark.asyncio(loop_scope="function")


def _web_app_url(fake: FakeTelegram, user: User) -> str | None:
    message = hand_message(fake, user)
    if message is None:
        return None
    for row in message.inline_keyboard:
        for button in row:
            if "web_app" in button:
                return str(button["web_app"]["url"])
    return None


async def _frames(socket: aiohttp.ClientWebSocketResponse, timeout: float = 5.0) -> list[dict[str, Any]]:
    seen = []
    try:
        while True:
            seen.append(json.loads(await asyncio.wait_for(socket.receive_str(), timeout)))
            timeout = 0.5
    except TimeoutError:
        return seen


async def test_the_table_page_shows_each_reader_their_own_and_takes_a_move(fake: FakeTelegram, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}/webapp"
    async with running_bot(fake, tmp_path, WEBAPP_URL=base, WEBAPP_PORT=str(port), WEBAPP_HOST="127.0.0.1"):
        ann, eve = fake.add_user("Ann"), fake.add_user("Eve")
        await open_private_game(fake, ann, "block", 1)
        page_url = await fake.wait_for(lambda: _web_app_url(fake, ann), what="the Open the table button")
        assert page_url.startswith(f"{base}/?game=")
        game = int(page_url.rsplit("=", 1)[1])
        # The private chat's menu button opens the same table.
        menu = await fake.wait_for(lambda: fake.private_chat(ann).menu_button, what="the chat's menu button")
        assert menu == {"type": "web_app", "text": "🎲 Open the table", "web_app": {"url": page_url}}
        async with aiohttp.ClientSession() as session:
            async with session.get(page_url) as page:
                assert page.status == 200 and "default-src 'self'" in page.headers["Content-Security-Policy"]
            # The page's own words before its first frame, from the bot's catalogues.
            for code, expected in (("uk-UA", "Ваш хід!"), ("ru", "Ваш ход!"), ("xx", "Your turn!")):
                async with session.get(f"{base}/words/{code}.json") as answer:
                    words = await answer.json()
                    assert answer.status == 200 and words["your_turn"] == expected and words["rematch"]

            def url(user: User | None, *, token: str = fake.token, age: float = 0) -> str:
                signed = init_data(token, user, auth_date=int(time.time() - age))
                return f"{base}/ws?game={game}&init_data={aiohttp.helpers.quote(signed, safe='')}"

            # Forged, expired, and without initData: 401 before any WebSocket, and nothing else; the
            # answer's reason tells the page which (a forged link is not told it expired).
            nowhere = url(ann).replace(f"game={game}", "game=999999")
            for address, status, reason in (
                (url(ann, token="987:forged"), 401, "forged"),
                (url(ann, age=2 * 86400), 401, "expired"),
                (f"{base}/ws?game={game}", 401, "missing"),
                (nowhere, 404, "no_game"),
            ):
                async with session.get(address) as answer:
                    assert answer.status == status, address
                    assert (await answer.json())["reason"] == reason, address
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await session.ws_connect(url(ann), headers={"Origin": "https://evil.example"})

            spectator = await session.ws_connect(url(eve))
            # The computer may move while the spectator connects: every frame it is sent shows no hand.
            seen = await _frames(spectator)
            assert seen and all(f["you"] is None and f["hand"] == [] for f in seen)
            socket = await session.ws_connect(url(ann), headers={"Origin": f"http://127.0.0.1:{port}"})
            frame = (await _frames(socket))[-1]
            assert frame["type"] == "table" and frame["you"] == 0 and frame["game"] == game
            while frame["turn"] != 0:
                frame = (await _frames(socket))[-1]
            playable = next(entry for entry in frame["hand"] if entry["ends"])
            end = None if playable["ends"] == ["lead"] else playable["ends"][0]

            await socket.send_str(
                json.dumps({"type": "move", "version": frame["version"] - 1, "tile": playable["tile"]})
            )
            refused = (await _frames(socket))[0]
            assert refused["type"] == "refused" and refused["reason"] == "stale"
            await socket.send_str("not json")
            assert (await _frames(socket))[0]["reason"] == "broken"

            before = len(frame["hand"])
            move = {"type": "move", "version": frame["version"], "tile": playable["tile"], "end": end}
            await socket.send_str(json.dumps(move))
            after = [f for f in await _frames(socket) if f["type"] == "table"]
            assert after and len(after[0]["hand"]) == before - 1  # the move, shown to the page
            assert after[0]["last"]["tile"] == playable["tile"] or after[-1]["last"] is not None
            watched = [f for f in await _frames(spectator) if f["type"] == "table"]
            assert watched and all(f["hand"] == [] for f in watched)  # the spectator saw it, and no hand
            # While Ann plays at the table her hand message waits; once she closes it, the chat
            # shows the game as it is now: her move in the caption, and her hand without the tile.
            # The caption names the last three events, so her move is gone from it only behind three
            # later ones (the computer played, she had to pass, the computer played again).
            tile = f"[{playable['tile'][0]}|{playable['tile'][1]}]"
            code = f"{playable['tile'][0]}{playable['tile'][1]}"
            await socket.close()
            await spectator.close()

            def shown_now() -> bool:
                message = hand_message(fake, ann)
                if message is None:  # the round is over: the result says what was played
                    last = fake.last_message(ann)
                    return last is not None and tile in last.shown_text
                recent = message.shown_text.splitlines()[-1]
                in_hand = any(button.tile == code for button in tile_buttons(message.inline_keyboard))
                return not in_hand and (tile in recent or recent.count(". ") >= 2)

            await fake.wait_for(shown_now, 10, what="the move in the chat once the page closed")

            # A move made with a chat button shows in a page at once.
            socket = await session.ws_connect(url(ann))
            frame = (await _frames(socket))[-1]
            while frame["turn"] != 0:
                frame = (await _frames(socket))[-1]
            await play_from_hand(fake, ann, 10)
            moved = [f for f in await _frames(socket) if f["type"] == "table"]
            assert moved and moved[0]["version"] > frame["version"]
            await socket.close()
        fake.assert_no_violations()


async def test_without_a_webapp_url_nothing_of_the_table_appears(fake: FakeTelegram, tmp_path: Path) -> None:
    async with running_bot(fake, tmp_path):
        ann = fake.add_user("Ann")
        await open_private_game(fake, ann, "block", 1)
        await fake.wait_for(lambda: hand_message(fake, ann), what="Ann's hand")
        assert _web_app_url(fake, ann) is None
        assert fake.private_chat(ann).menu_button is None


async def test_rematch_from_the_result_at_the_table_deals_again(fake: FakeTelegram, tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}/webapp"
    async with running_bot(fake, tmp_path, WEBAPP_URL=base, WEBAPP_PORT=str(port), WEBAPP_HOST="127.0.0.1"):
        ann = fake.add_user("Ann")
        await open_private_game(fake, ann, "quickblock", 1)
        page_url = await fake.wait_for(lambda: _web_app_url(fake, ann), what="the Open the table button")
        game = int(page_url.rsplit("=", 1)[1])
        signed = aiohttp.helpers.quote(init_data(fake.token, ann, auth_date=int(time.time())), safe="")
        async with aiohttp.ClientSession() as session:
            socket = await session.ws_connect(f"{base}/ws?game={game}&init_data={signed}")
            await socket.send_str(json.dumps({"type": "rematch"}))  # not finished yet: refused, nothing changes
            frames = await _frames(socket)
            assert any(f["type"] == "refused" and f["reason"] == "rematch_closed" for f in frames), frames
            frame = next(f for f in reversed(frames) if f["type"] == "table")
            while frame["status"] != "finished":
                if frame["turn"] == frame["you"] and frame["result"] is None:
                    playable = next(entry for entry in frame["hand"] if entry["ends"])
                    end = None if playable["ends"] == ["lead"] else playable["ends"][0]
                    move = {"type": "move", "version": frame["version"], "tile": playable["tile"], "end": end}
                    await socket.send_str(json.dumps(move))
                tables = [f for f in await _frames(socket) if f["type"] == "table"]
                frame = tables[-1] if tables else frame
            await socket.send_str(json.dumps({"type": "rematch"}))
            moved = next(f for f in await _frames(socket) if f["type"] == "moved")
            assert moved["game"] > game
            fresh = await session.ws_connect(f"{base}/ws?game={moved['game']}&init_data={signed}")
            (first, *_) = await _frames(fresh)
            assert first["type"] == "table" and first["game"] == moved["game"] and first["status"] == "playing"
            await fake.wait_for(
                lambda: (url := _web_app_url(fake, ann)) is not None and url.endswith(f"={moved['game']}"),
                what="the new game's hand in the chat",
            )


async def test_junk_at_the_table_is_refused_and_changes_nothing(fake: FakeTelegram, tmp_path: Path) -> None:
    """An oversized frame closes its socket; a burst of frames is told to slow down; broken frames,
    a move by a spectator and a move for another turn are each refused with a reason; the game and
    its record are as they were."""
    port = free_port()
    base = f"http://127.0.0.1:{port}/webapp"
    async with running_bot(fake, tmp_path, WEBAPP_URL=base, WEBAPP_PORT=str(port), WEBAPP_HOST="127.0.0.1") as bot:
        ann, eve = fake.add_user("Ann"), fake.add_user("Eve")
        await open_private_game(fake, ann, "block", 1)
        page_url = await fake.wait_for(lambda: _web_app_url(fake, ann), what="the Open the table button")
        game = int(page_url.rsplit("=", 1)[1])

        def url(user: User) -> str:
            signed = aiohttp.helpers.quote(init_data(fake.token, user, auth_date=int(time.time())), safe="")
            return f"{base}/ws?game={game}&init_data={signed}"

        async with aiohttp.ClientSession() as session:
            socket = await session.ws_connect(url(ann))
            frame = (await _frames(socket))[-1]
            while frame["turn"] != 0:  # Ann's turn, so that only the junk decides what happens
                frame = (await _frames(socket))[-1]
            (before,) = [g for g in bot.games() if g.id == game]

            await socket.send_str("x" * 5000)  # over the 4 KB a frame may have
            closing = await socket.receive(timeout=5)
            assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
            assert socket.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG

            socket = await session.ws_connect(url(ann))
            await _frames(socket)
            for _ in range(25):  # at once: more than a person taps in a second
                await socket.send_str("not json")
            reasons = [f["reason"] for f in await _frames(socket) if f["type"] == "refused"]
            assert len(reasons) == 25 and "slow_down" in reasons and set(reasons) == {"broken", "slow_down"}
            await asyncio.sleep(1.2)  # the allowance comes back
            playable = next(entry for entry in frame["hand"] if entry["ends"])
            wrong = [
                {"type": "move", "version": frame["version"] + 5, "tile": playable["tile"]},  # another turn
                {"type": "move", "version": frame["version"], "tile": [9, 9]},  # no such tile
                {"type": "move", "version": "1", "tile": playable["tile"]},  # wrong types
                {"type": "jump"},
                [1, 2, 3],
            ]
            for junk in wrong:
                await socket.send_str(json.dumps(junk))
            refused = [f for f in await _frames(socket) if f["type"] == "refused"]
            assert [f["reason"] for f in refused] == ["stale", "broken", "broken", "broken", "broken"], refused
            assert all(f["text"] for f in refused)

            spectator = await session.ws_connect(url(eve))
            await _frames(spectator)
            await spectator.send_str(
                json.dumps({"type": "move", "version": frame["version"], "tile": playable["tile"]})
            )
            (seen,) = [f for f in await _frames(spectator) if f["type"] == "refused"]
            assert seen["reason"] == "not_your_game", seen
            await socket.close()
            await spectator.close()
        (after,) = [g for g in bot.games() if g.id == game]
        # No move made, the record as it was (closing a page stores the hand message it brings up to date).
        assert (after.moves, after.data["record"]) == (before.moves, before.data["record"])
        fake.assert_no_violations()
