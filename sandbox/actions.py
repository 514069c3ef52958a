"""What a person does on the page (``POST /api/<action>``), done through the fake as a Telegram client would.

Each action checks its whole request first and raises :class:`ActionError` with a sentence for
the page when something is wrong (a forged or stale request): nothing is changed then.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import quote

from fake_telegram import FakeTelegram, FakeTelegramError, User
from fake_telegram.shapes import user_json
from fake_telegram.state import LEFT, MEMBER, PRESENT
from fake_telegram.webapp import init_data

from .cast import Cast
from .hub import Hub
from .views import LANGUAGES, can_see

TEXT_LIMIT = 4096
NAME_LIMIT = 64


class ActionError(ValueError):
    """A request the page should not have made; its text is shown to the person."""


class Actions:
    def __init__(self, fake: FakeTelegram, cast: Cast, hub: Hub, *, webapp_origin: str = "") -> None:
        self.fake = fake
        self.cast = cast
        self.hub = hub
        self.webapp_origin = webapp_origin
        self.table: dict[str, Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]] = {
            "send": self.send,
            "tap": self.tap,
            "link": self.link,
            "start": self.start,
            "person": self.change_person,
            "group/add": self.join_group,
            "group/leave": self.leave_group,
            "group/supergroup": self.upgrade_group,
            "block": self.block,
            "webapp": self.open_webapp,
        }

    # ------------------------------------------------------------------ reading a request
    def _person(self, body: dict[str, Any]) -> User:
        person = self.cast.person(body.get("person"))
        if person is None:
            raise ActionError("There is no such person in the sandbox.")
        return person

    @staticmethod
    def _text(body: dict[str, Any], key: str, limit: int) -> str:
        value = body.get(key)
        if not isinstance(value, str) or not value.strip():
            raise ActionError(f"“{key}” must be some text.")
        if len(value) > limit:
            raise ActionError(f"“{key}” is longer than {limit} characters.")
        return value

    @staticmethod
    def _int(body: dict[str, Any], key: str) -> int:
        value = body.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise ActionError(f"“{key}” must be a number.")
        return value

    def _group(self) -> Any:
        group = self.cast.group
        if group is None:
            raise ActionError("The sandbox has no group.")
        return group

    # ------------------------------------------------------------------ actions
    async def send(self, body: dict[str, Any]) -> dict[str, Any]:
        person = self._person(body)
        chat_id = self._int(body, "chat_id")
        world = self.fake.world
        chat = world.private_chat(person) if chat_id == person.id else world.chats.get(chat_id)
        text = self._text(body, "text", TEXT_LIMIT)
        if chat is None or not can_see(chat, person):
            raise ActionError("You cannot write in that chat.")
        if chat.type == "private" and not person.started:
            raise ActionError("Press START first.")
        message = self.fake.send(person, text, chat=chat)
        return {"message_id": message.message_id}

    async def tap(self, body: dict[str, Any]) -> dict[str, Any]:
        person = self._person(body)
        chat_id, message_id = self._int(body, "chat_id"), self._int(body, "message_id")
        data = body.get("data")
        message = self.fake.world.message(chat_id, message_id)
        chat = self.fake.world.chats.get(chat_id)
        if message is None or message.deleted or chat is None or not can_see(chat, person):
            raise ActionError("That message is not there any more.")
        if not isinstance(data, str):
            raise ActionError("“data” must be the button's callback data.")
        try:
            query = self.fake.tap(person, message, data=data)
        except FakeTelegramError as error:
            raise ActionError("That button is not there any more.") from error
        return {"callback_id": query.id}

    async def link(self, body: dict[str, Any]) -> dict[str, Any]:
        person = self._person(body)
        url = self._text(body, "url", 2048)
        try:
            self.fake.open_link(person, url, group=self.cast.group)
        except FakeTelegramError as error:
            raise ActionError(f"That link does not lead to @{self.fake.bot.username}.") from error
        await self.hub.refresh()
        return {"chat_id": self.fake.world.private_chat(person).id}

    async def start(self, body: dict[str, Any]) -> dict[str, Any]:
        person = self._person(body)
        self.fake.start_bot(person)
        await self.hub.refresh()
        return {"chat_id": person.id}

    async def change_person(self, body: dict[str, Any]) -> dict[str, Any]:
        person = self._person(body)
        name = self._text(body, "name", NAME_LIMIT).strip() if "name" in body else None
        language = body.get("language")
        if language is not None and language not in LANGUAGES:
            raise ActionError(f"The language must be one of {', '.join(LANGUAGES)}.")
        if name is not None:
            person.first_name, person.last_name = name, None
        if language is not None:
            person.language_code = language
        self.fake.recorder.user_action("person", f"{person.id} is now {person.name!r}, {person.language_code}")
        await self.hub.refresh()
        return {}

    async def join_group(self, body: dict[str, Any]) -> dict[str, Any]:
        person = self._person(body)
        group = self._group()
        if group.members.get(person.id) in PRESENT:
            raise ActionError(f"{person.name} is in the group already.")
        self.fake.set_member(group, person, MEMBER)
        member = user_json(person)
        service = {"new_chat_participant": member, "new_chat_member": member, "new_chat_members": [member]}
        self.fake.factory.service_message(person, group, service)
        self.fake.recorder.user_action("join", f"{person.name} joined {group.title!r}", group.id)
        await self.hub.refresh()
        return {}

    async def leave_group(self, body: dict[str, Any]) -> dict[str, Any]:
        person = self._person(body)
        group = self._group()
        if group.members.get(person.id) not in PRESENT:
            raise ActionError(f"{person.name} is not in the group.")
        self.fake.factory.service_message(
            person, group, {"left_chat_participant": user_json(person), "left_chat_member": user_json(person)}
        )
        self.fake.set_member(group, person, LEFT)
        self.fake.recorder.user_action("leave", f"{person.name} left {group.title!r}", group.id)
        await self.hub.refresh()
        return {}

    async def upgrade_group(self, body: dict[str, Any]) -> dict[str, Any]:
        group = self._group()
        if group.type != "group":
            raise ActionError("The group is a supergroup already.")
        self.fake.migrate_to_supergroup(group)
        await self.hub.refresh()
        return {}

    async def open_webapp(self, body: dict[str, Any]) -> dict[str, Any]:
        """A ``web_app`` button was tapped: its page, with the ``initData`` a Telegram client hands it."""
        person = self._person(body)
        url = self._text(body, "url", 2048)
        if not self.webapp_origin or not url.startswith(self.webapp_origin + "/"):
            raise ActionError("That is not the bot's table page.")
        signed = init_data(self.fake.token, person, auth_date=int(time.time()))
        return {"url": f"{url}#tgWebAppData={quote(signed, safe='')}&tgWebAppVersion=8.0&tgWebAppPlatform=web"}

    async def block(self, body: dict[str, Any]) -> dict[str, Any]:
        person = self._person(body)
        blocked = body.get("blocked")
        if not isinstance(blocked, bool):
            raise ActionError("“blocked” must be true or false.")
        if blocked == person.blocked:
            raise ActionError(f"{person.name} has {'blocked' if blocked else 'not blocked'} the bot already.")
        if blocked:
            self.fake.block_bot(person)
        else:
            self.fake.unblock_bot(person)
        await self.hub.refresh()
        return {}
