"""A fake Telegram Bot API server: what the sandbox (``dominoes-bot sandbox``) runs, and what the end-to-end
tests run the bot against. It ships in the wheel; ``bot``, ``engine``, ``storage`` and ``renderer`` never import it.

Modules, one job each:

* ``spec``        the Bot API as data (``../shared/telegram/api.json`` or a built-in subset)
* ``errors``      Telegram's error answers and their exact texts
* ``formatting``  parse_mode (HTML, MarkdownV2, Markdown), trimming, entities, length counting
* ``media``       uploaded photos and documents: PNG header / Pillow checks, PhotoSize lists, file ids
* ``validation``  parameters against the spec, and DESIGN.md's Telegram rules
* ``state``       users, chats, members, messages, callback queries
* ``shapes``      JSON of User, Chat, ChatFullInfo, Message, ChatMember
* ``updates``     user actions as Update objects; the queue behind getUpdates and the webhook
* ``limits``      flood limits (429 retry_after) and fault injection
* ``context``     one call as handlers see it; chat access rules
* ``messaging``   send/edit/delete/chat action/answerCallbackQuery
* ``bot_methods`` getMe, getChat*, commands, descriptions, menu button, getFile
* ``webhook``     setWebhook/deleteWebhook/getWebhookInfo; POSTing updates to the webhook (aiohttp's client)
* ``transcript``  the transcript, violations, and their readable dump
* ``snapshot``    the world kept on disk and read back (the sandbox goes on after a restart)
* ``httpserver``  the HTTP layer on aiohttp's low-level server (100-continue, body limit, cancellation)
* ``body``        request bodies: query strings, urlencoded and multipart forms, JSON
* ``server``      routing and the request pipeline
* ``fake``        :class:`FakeTelegram`, the API tests use
"""

from .errors import ApiError
from .fake import Button, FakeTelegram, FakeTelegramError, MessageView
from .limits import Faults, Limits
from .spec import ApiSpec, builtin_spec, load_spec
from .state import CallbackQuery, Chat, Message, User
from .transcript import Entry, Violation

__all__ = [
    "ApiError",
    "ApiSpec",
    "Button",
    "CallbackQuery",
    "Chat",
    "Entry",
    "FakeTelegram",
    "FakeTelegramError",
    "Faults",
    "Limits",
    "Message",
    "MessageView",
    "User",
    "Violation",
    "builtin_spec",
    "load_spec",
]
