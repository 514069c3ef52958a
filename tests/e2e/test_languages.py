"""The bot speaks each person's language: whole games in Russian and Ukrainian leave no English word.

Everything the bot put in front of the Russian- or Ukrainian-speaking people is collected from the
fake's transcript — message texts and captions, button labels, the answers to their taps, and the
command menu for their ``language_code`` — and read the way a person reads it: without HTML tags,
``/commands`` (with a rule set after them, "/rules fives"), links, @usernames and tiles ("[6|4]").
What is left must hold no Latin word. The people have Cyrillic names, so every Latin word is the
bot's. An English run checks the other way round, so the collecting is known to see the words.

Also: /language in a private chat switches that person's words, and /settings switches a group's.
The end of a game is read from the bot's database, not from its (translated) words.
"""

from __future__ import annotations

import html
import json
import os
import random
import re
import sqlite3
from collections.abc import Iterable
from typing import Any

import pytest

from bot.words.texts import PRESET_TITLES
from fake_telegram import Chat, FakeTelegram, Message, User
from tests.e2e.conftest import BotProcess, Checkpoint
from tests.kit.people import players
from tests.kit.people.players import (
    SHOWING,
    TURN_TIMEOUT,
    Table,
    join,
    open_lobby,
    open_private_game,
    set_seats,
    settle,
    start_game,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

LANGUAGE_TAP = "lg:{language}"
SETTINGS_LANGUAGE_TAP = "cs:lang:{language}"

# Read as a person reads: what is left once these are gone must be in the reader's language.
TAGS = re.compile(r"<[^>]*>")
LINKS = re.compile(r"(?:https?://|tg://)\S+|\bt\.me/\S+")
COMMANDS = re.compile(r"/[a-z_]+(?:@\w+)?(?:[ \u00a0]+(?:" + "|".join([*PRESET_TITLES, "wins"]) + r")\b)?")
USERNAMES = re.compile(r"@\w+")
TILES = re.compile(r"\[?\d\s*\|\s*\d\]?")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# A language is offered by its own name (the /language and /settings buttons): "English" stays English.
OWN_NAMES = re.compile(r"\bEnglish\b")
CYRILLIC = re.compile(r"[А-Яа-яЁёІіЇїЄєҐґ]")
ONLY_UKRAINIAN = re.compile(r"[ІіЇїЄєҐґ]")
ONLY_RUSSIAN = re.compile(r"[ЫыЭэЪъЁё]")

NAMES: dict[str, list[tuple[str, str | None]]] = {
    "ru": [("Борис", "Петров"), ("Светлана", None), ("Кирилл", None)],
    "uk": [("Богдана", "Шевченко"), ("Олексій", None), ("Ярина", None)],
    "en": [("Борис", None), ("Олексій", None), ("Ярина", None)],
}


# --------------------------------------------------------------------------- reading what was shown


def _parsed(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _buttons(params: dict[str, Any]) -> list[str]:
    markup = _parsed(params.get("reply_markup"))
    if not isinstance(markup, dict):
        return []
    rows = markup.get("inline_keyboard") or markup.get("keyboard") or []
    return [str(b.get("text", "")) for row in rows if isinstance(row, list) for b in row if isinstance(b, dict)]


def _words(params: dict[str, Any]) -> list[str]:
    found = [str(params[key]) for key in ("text", "caption") if params.get(key)]
    media = _parsed(params.get("media"))
    if isinstance(media, dict) and media.get("caption"):
        found.append(str(media["caption"]))
    return found


def shown(
    fake: FakeTelegram, chats: Iterable[Chat | User], readers: Iterable[User], language_code: str | None
) -> list[tuple[str, str]]:
    """(where, text) of everything shown in ``chats``, answered to ``readers``' taps, and the command
    menus for ``language_code`` (None: the menus every other language gets)."""
    chat_ids = {chat.id for chat in chats}
    reader_ids = {user.id for user in readers}
    found: list[tuple[str, str]] = []
    for entry in sorted(fake.transcript, key=lambda e: e.seq):
        if entry.kind != "request":
            continue
        where = f"#{entry.seq} {entry.method}"
        if entry.method in SHOWING and entry.chat_id in chat_ids:
            found += [(where, text) for text in _words(entry.params)]
            found += [(f"{where} button", text) for text in _buttons(entry.params)]
        elif entry.method == "answerCallbackQuery" and entry.params.get("text"):
            query = fake.world.callbacks.get(str(entry.params.get("callback_query_id")))
            if query is not None and query.user_id in reader_ids:
                found.append((where, str(entry.params["text"])))
        elif entry.method == "setMyCommands" and entry.params.get("language_code") == language_code:
            commands = _parsed(entry.params.get("commands")) or []
            found += [(f"{where} /{c.get('command')}", str(c.get("description", ""))) for c in commands]
    return found


def as_read(text: str) -> str:
    """The words a person reads, without what is never translated (tags, commands, links, tiles …)."""
    text = html.unescape(TAGS.sub("", text))
    for pattern in (LINKS, COMMANDS, USERNAMES, TILES, OWN_NAMES):
        text = pattern.sub(" ", text)
    return text


def latin_left(texts: list[tuple[str, str]]) -> list[str]:
    """Each distinct text that still holds a Latin word once read, with those words (and where first)."""
    found: dict[str, str] = {}
    for where, text in texts:
        words = LATIN_WORD.findall(as_read(text))
        if words and text not in found:
            found[text] = f"{where}: {sorted(set(words))} in {text!r}"
    return list(found.values())


def assert_all_in(language: str, texts: list[tuple[str, str]], shown_at_most: int = 40) -> None:
    assert texts, "nothing was collected"
    if os.environ.get("SHOW_TRANSCRIPT"):  # for a person to read: SHOW_TRANSCRIPT=1 pytest -s …
        print("\n".join(f"{where}: {text}" for where, text in texts))
    leftovers = latin_left(texts)
    words = sorted({word for _, text in texts for word in LATIN_WORD.findall(as_read(text))})
    assert leftovers == [], (
        f"English words shown to {language} readers: {words}\n{len(leftovers)} texts, the first {shown_at_most}:\n"
        + "\n".join(leftovers[:shown_at_most])
    )
    assert any(CYRILLIC.search(text) for _, text in texts)


def assert_in_language(language: str, text: str) -> None:
    """``text`` is in ``language`` (en, ru or uk), as far as its letters tell."""
    read = as_read(text)
    if language == "en":
        assert LATIN_WORD.search(read), f"no English in {text!r}"
        return
    assert not LATIN_WORD.search(read), f"English words in a {language} text: {text!r}"
    own, other = (ONLY_RUSSIAN, ONLY_UKRAINIAN) if language == "ru" else (ONLY_UKRAINIAN, ONLY_RUSSIAN)
    assert own.search(read) and not other.search(read), f"not {language}: {text!r}"


# --------------------------------------------------------------------------- the end of a game


def game_status(bot: BotProcess, game_id: int) -> str | None:
    connection = sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True, timeout=10)
    try:
        row = connection.execute("SELECT status FROM games WHERE id = ?", (game_id,)).fetchone()
    finally:
        connection.close()
    return str(row[0]) if row else None


def end_by_status(monkeypatch: pytest.MonkeyPatch, bot: BotProcess, game_id: int) -> None:
    """Make :class:`players.Table` see the end of the game in the database: its words for the end
    ("wins the game!") are English, and here the bot speaks other languages."""

    def final(fake: FakeTelegram, chat: Chat | User) -> Message | None:
        if game_status(bot, game_id) != "finished":
            return None
        return fake.last_message(chat)

    monkeypatch.setattr(players, "final_result", final)


def has_button(fake: FakeTelegram, chat: Chat | User, prefix: str) -> bool:
    return any(
        str(button.get("callback_data", "")).startswith(prefix)
        for message in fake.messages(chat, from_bot=True)
        for row in message.inline_keyboard
        for button in row
    )


def people(fake: FakeTelegram, language: str, codes: list[str]) -> list[User]:
    return [
        fake.add_user(first, last_name=last, language_code=code)
        for (first, last), code in zip(NAMES[language], codes, strict=False)
    ]


async def say(fake: FakeTelegram, user: User, text: str, chat: Chat | None = None) -> Message:
    """``user`` writes ``text`` (in their private chat, or ``chat``); returns the bot's answer."""
    where: Chat | User = chat if chat is not None else user
    floor = fake.last_message(where)
    fake.send(user, text, chat=chat)
    return await fake.wait_for_message(where, after=floor, timeout=TURN_TIMEOUT)


# --------------------------------------------------------------------------- whole games


@pytest.mark.parametrize("language", ["ru", "uk"])
async def test_a_private_game_in_the_players_language(
    shared_fake: FakeTelegram, shared_bot: BotProcess, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    (person,) = people(fake, language, [language])
    await open_private_game(fake, person, "draw", 2)
    (game,) = [g for g in bot.games() if g.data["seats"][0]["user_id"] == person.id]
    end_by_status(monkeypatch, bot, game.id)

    await Table(fake, [person], results=person, rng=random.Random(f"language-{language}")).play_to_end()
    await fake.wait_for(lambda: has_button(fake, person, "s:menu") or None, TURN_TIMEOUT, what="Play again")
    for command in ("/help", "/rules", "/rules fives", "/settings", "/language"):
        await say(fake, person, command)
    await settle(fake)

    check.assert_clean()
    assert game_status(bot, game.id) == "finished"
    assert_all_in(language, shown(fake, [person], [person], language))


@pytest.mark.parametrize("language", ["ru", "uk"])
async def test_a_group_game_in_its_first_creators_language(
    shared_fake: FakeTelegram, shared_bot: BotProcess, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    """The creator of the group's first game speaks ``language``, and so does the group from then on,
    whatever the others speak: the third person's Telegram is in English (their own chat stays English)."""
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    creator, friend, stranger = people(fake, language, [language, language, "en"])
    group = fake.add_group("Доміно" if language == "uk" else "Домино", members=[creator, friend, stranger])
    for person in (creator, friend, stranger):
        fake.start_bot(person)
    await settle(fake)

    lobby = await open_lobby(fake, creator, group, "block")
    await set_seats(fake, lobby, creator, 4)  # the free seat gets a computer player
    for person in (friend, stranger):
        await join(fake, lobby, person)
    end_by_status(monkeypatch, bot, lobby.game_id)
    await start_game(fake, lobby, creator)
    await Table(fake, [creator, friend, stranger], results=group, rng=random.Random(f"group-{language}")).play_to_end()
    await fake.wait_for(lambda: has_button(fake, group, "rm:") or None, TURN_TIMEOUT, what="the Rematch button")
    # Whoever writes now, the group answers in its language.
    await say(fake, stranger, "/help", chat=group)
    await say(fake, stranger, "/rules", chat=group)
    await say(fake, creator, "/settings", chat=group)
    await settle(fake)

    check.assert_clean()
    assert game_status(bot, lobby.game_id) == "finished"
    assert_all_in(language, shown(fake, [group, creator, friend], [creator, friend], language))
    english = shown(fake, [stranger], [stranger], "en")
    assert latin_left(english), "the English speaker's own chat should be in English"


async def test_an_english_game_is_in_english(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    """The other way round: for an English reader the collected words are English (the reading works)."""
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    (person,) = people(fake, "en", ["en"])
    await open_private_game(fake, person, "classic", 1)
    await Table(fake, [person], results=person, rng=random.Random("language-en")).play_turns(2)
    await say(fake, person, "/help")
    await settle(fake)
    check.assert_clean()
    texts = shown(fake, [person], [person], None)
    assert latin_left(texts), texts
    assert any(re.search(r"\bplay\b", as_read(text)) for _, text in texts), texts


# --------------------------------------------------------------------------- choosing a language


async def test_language_in_a_private_chat(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    """A person whose Telegram is in English chooses Русский: /help comes in Russian from then on."""
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    (person,) = people(fake, "en", ["en"])
    fake.start_bot(person)
    await settle(fake)
    assert_in_language("en", (await say(fake, person, "/help")).shown_text)

    menu = await say(fake, person, "/language")
    labels = [b.get("text", "") for row in menu.inline_keyboard for b in row]
    assert any("English" in label for label in labels) and any("Русский" in label for label in labels), labels
    assert any("Українська" in label for label in labels), labels
    query = fake.tap(person, menu, data=LANGUAGE_TAP.format(language="ru"))
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    await settle(fake)

    assert_in_language("ru", (await say(fake, person, "/help")).shown_text)
    answer = str((query.answer or {}).get("text") or "")
    assert not LATIN_WORD.search(as_read(answer)), answer
    check.assert_clean()


async def test_settings_language_switches_the_group(shared_fake: FakeTelegram, shared_bot: BotProcess) -> None:
    """A group that speaks its first creator's English switches to Ukrainian from /settings."""
    fake, bot = shared_fake, shared_bot
    check = Checkpoint(fake, bot)
    admin, member = people(fake, "en", ["en", "en"])
    group = fake.add_group("Dominoes club", members=[admin, member])
    fake.start_bot(admin)
    await settle(fake)
    lobby = await open_lobby(fake, admin, group, "classic")
    assert_in_language("en", lobby.message.shown_text)
    assert_in_language("en", (await say(fake, member, "/help", chat=group)).shown_text)

    settings = await say(fake, admin, "/settings", chat=group)
    query = fake.tap(admin, settings, data=SETTINGS_LANGUAGE_TAP.format(language="uk"))
    await fake.wait_answered(query, timeout=TURN_TIMEOUT)
    await settle(fake)

    live = fake.world.message(group.id, settings.message_id)
    assert live is not None
    assert_in_language("uk", live.shown_text)
    assert_in_language("uk", (await say(fake, member, "/help", chat=group)).shown_text)
    assert_in_language("uk", (await say(fake, admin, "/new", chat=group)).shown_text)  # a game is open here
    check.assert_clean()
