"""Start-up: settings, logging, the database, the dispatcher with its routers, then long polling or a webhook."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import re
import signal
import sqlite3
import sys
import time
from dataclasses import dataclass
from functools import partial
from urllib.parse import urlsplit

import asyncpg
from aiogram import Bot, Dispatcher
from aiogram import methods as aiogram_methods
from aiogram.client.default import DefaultBotProperties
from aiogram.client.telegram import TelegramAPIServer
from aiogram.enums import ParseMode
from aiogram.exceptions import (
    TelegramAPIError,
    TelegramNetworkError,
    TelegramRetryAfter,
    TelegramUnauthorizedError,
)
from aiogram.methods.base import Response
from aiogram.types import BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats
from aiogram.webhook.aiohttp_server import SimpleRequestHandler
from aiohttp import web
from pydantic import ValidationError
from redis.asyncio import Redis
from redis.exceptions import RedisError

from bot.background.idle_close import IdleSweeper
from bot.background.wakeups import WakeSweeper
from bot.display.boards import BoardPainter
from bot.display.pictures import PictureMaker
from bot.display.presenter import Presenter, nobody_watching
from bot.display.replays import ReplayMaker
from bot.display.table_links import TableLinks
from bot.environment import Settings
from bot.handlers import all_routers
from bot.health import beat
from bot.model.clock import TurnClock
from bot.model.documents import Documents, stored_game
from bot.table import manners
from bot.table.lobbies import show_recent_lobbies
from bot.table.service import GameService
from bot.table.supergroup import on_migrate
from bot.telegram.answers import AnswerMiddleware
from bot.telegram.locks import GameLocks, SharedGameLocks
from bot.telegram.middlewares import InFlight, OncePerUpdate, PeopleMiddleware
from bot.telegram.outbox import Outbox
from bot.telegram.pacing import Pacer, PacingMiddleware, SharedPacer
from bot.telegram.quiet import QuietAnswers
from bot.telegram.session import OneWriteSession
from bot.webapp.hub import TablePages
from bot.webapp.relay import TableRelay
from bot.webapp.server import TableSite
from bot.words import command_texts
from bot.words.i18n import LANGUAGES, _, speaking
from bot.words.languages import LanguageMiddleware, Languages
from storage import Database

log = logging.getLogger("bot")

# The Bot API methods called on every move.
HOT_METHODS = (
    aiogram_methods.GetUpdates,
    aiogram_methods.AnswerCallbackQuery,
    aiogram_methods.SendMessage,
    aiogram_methods.SendPhoto,
    aiogram_methods.EditMessageMedia,
    aiogram_methods.EditMessageCaption,
    aiogram_methods.EditMessageText,
    aiogram_methods.EditMessageReplyMarkup,
    aiogram_methods.DeleteMessage,
)


def keep_response_models() -> list[object]:
    """Build aiogram's ``Response[T]`` model of every Bot API method once and keep it.

    aiogram asks for ``Response[method.__returning__]`` on every call; pydantic keeps such
    generic models only weakly, and rebuilding one under load costs milliseconds per call.
    """
    return [Response[method.__returning__] for method in HOT_METHODS]  # type: ignore[name-defined]


async def set_command_menus(bot: Bot) -> None:
    """The command menu of group chats and of private chats, in each language (English for everyone else)."""
    scopes = (
        (command_texts.GROUP_COMMANDS, BotCommandScopeAllGroupChats()),
        (command_texts.PRIVATE_COMMANDS, BotCommandScopeAllPrivateChats()),
    )
    for language in LANGUAGES:
        with speaking(language):
            for commands, scope in scopes:
                menu = [BotCommand(command=command, description=_(description)) for command, description in commands]
                await bot.set_my_commands(menu, scope=scope, language_code=None if language == "en" else language)


def load_settings() -> Settings:
    """The settings, or one clear line and exit status 2 (never a traceback)."""
    try:
        return Settings()  # type: ignore[call-arg]
    except ValidationError as error:
        problems = "; ".join(_problem(e["loc"], e["type"], e["msg"]) for e in error.errors())
        print(f"dominoes-bot: bad settings: {problems}", file=sys.stderr)
        raise SystemExit(2) from None


def _problem(location: tuple[int | str, ...], kind: str, message: str) -> str:
    name = ".".join(str(part) for part in location).upper() or "settings"
    if kind == "missing":
        return f"{name}: missing (set it in the environment or .env)"  # i18n: not shown
    message = message.removeprefix("Value error, ")
    # The validators' own messages name their setting ("BOT_TOKEN does not look like ..."): once is enough.
    return message if message.startswith(f"{name} ") else f"{name}: {message}"


def build_dispatcher(
    db: Database,
    service: GameService,
    outbox: Outbox,
    languages: Languages,
    quiet: QuietAnswers | None = None,
    replays: ReplayMaker | None = None,
) -> Dispatcher:
    """The dispatcher with its middlewares and routers; what a handler may ask for by name is
    given here: ``db``, ``service``, ``outbox``, ``languages``, ``quiet``, ``in_flight`` and ``replays``."""
    in_flight = InFlight()
    dispatcher = Dispatcher(
        db=db,
        service=service,
        outbox=outbox,
        languages=languages,
        quiet=quiet or QuietAnswers(every=0),
        in_flight=in_flight,
        replays=replays or ReplayMaker(workers=0),
    )
    dispatcher.update.outer_middleware(in_flight)
    dispatcher.update.outer_middleware(OncePerUpdate(db))
    people = PeopleMiddleware(db)
    speaking_to_reader = LanguageMiddleware(languages)
    for observer in (dispatcher.message, dispatcher.callback_query):
        observer.outer_middleware(people)
        observer.outer_middleware(speaking_to_reader)
    dispatcher.include_routers(*all_routers())
    return dispatcher


# How long shutdown waits for the updates being handled (a move, its answer, its messages).
SHUTDOWN_GRACE = 10.0


@dataclass
class Parts:
    """The running bot's parts, built once its token is known good (:func:`build`)."""

    db: Database
    outbox: Outbox
    pictures: PictureMaker
    boards: BoardPainter
    service: GameService
    sweeper: IdleSweeper
    wakeups: WakeSweeper
    replays: ReplayMaker
    dispatcher: Dispatcher
    table: TableSite | None


async def run(settings: Settings) -> None:
    response_models = keep_response_models()  # noqa: F841 - held for the life of the bot
    # Redis first: the database, once open, keeps a thread that must be closed before exit.
    redis = await open_redis(settings.redis_url) if settings.redis_url else None
    db = await open_database(settings)
    if db.shared and redis is None:
        log.warning("a shared database without REDIS_URL: game locks and send budgets are this process's alone")
    pacer = open_pacer(settings, redis)
    session = open_session(settings, pacer)
    bot = Bot(
        settings.bot_token.get_secret_value(),
        session=session,
        default=DefaultBotProperties(parse_mode=ParseMode.HTML),
    )
    parts: Parts | None = None
    try:
        username = await check_token(bot, settings)
        log.info("running as @%s", username)
        parts = build(settings, db, redis, bot, pacer, username)
        await start_up(bot, parts)
        await serve(bot, parts, settings)
    finally:
        if parts is not None:
            await close(parts)
        await db.close()
        await session.close()
        if redis is not None:
            await redis.aclose()


def open_pacer(settings: Settings, redis: Redis | None) -> Pacer:
    """Telegram's send budgets: this process's own, or shared through Redis by every instance."""
    budgets = (settings.group_messages_per_minute, settings.chat_messages_per_second, settings.messages_per_second)
    return Pacer(*budgets) if redis is None else SharedPacer(redis, *budgets)


def open_session(settings: Settings, pacer: Pacer) -> OneWriteSession:
    """The Bot API session: every send waits for its budget, and a tap's answer that fails never
    fails its handler."""
    session = OneWriteSession(
        api=TelegramAPIServer.from_base(settings.telegram_api_url), timeout=settings.request_timeout
    )
    session.middleware(PacingMiddleware(pacer))
    session.middleware(AnswerMiddleware())
    return session


async def check_token(bot: Bot, settings: Settings) -> str:
    """The bot's username (getMe); one line and exit status 2 for a bad token, 1 for a bad server."""
    try:
        me = await bot.get_me()
    except TelegramUnauthorizedError:
        print("dominoes-bot: Telegram rejected BOT_TOKEN (401 Unauthorized)", file=sys.stderr)
        raise SystemExit(2) from None
    except TelegramNetworkError as error:
        # aiohttp may quote the whole request URL, which carries the token: never print it.
        problem = redact(error.message, settings.bot_token.get_secret_value())
        print(f"dominoes-bot: cannot reach {settings.telegram_api_url}: {problem}", file=sys.stderr)
        raise SystemExit(1) from None
    except TelegramAPIError as error:  # e.g. 404: TELEGRAM_API_URL is not a Bot API server
        problem = redact(error.message, settings.bot_token.get_secret_value())
        print(f"dominoes-bot: {settings.telegram_api_url} answered getMe: {problem}", file=sys.stderr)
        raise SystemExit(1) from None
    return me.username or ""


def build(settings: Settings, db: Database, redis: Redis | None, bot: Bot, pacer: Pacer, username: str) -> Parts:
    """Every part, each given at construction what it tells or asks of the others."""
    pages, relay = open_table_pages(settings, db, redis)
    links = TableLinks(settings.webapp_url, username, settings.webapp_short_name) if settings.webapp_mode else None
    # The open table pages are told of every commit, before its messages wait for Telegram's
    # budgets (with several instances, through Redis: a page may be connected to any of them).
    listeners = [] if pages is None else [pages.publish] if relay is None else [pages.publish, relay.announce]
    documents = Documents(db, listeners)
    outbox = Outbox(bot)
    pictures = PictureMaker(settings.render_workers)
    pictures.start()
    locks = GameLocks() if redis is None else SharedGameLocks(redis)
    languages = Languages(db)
    boards = BoardPainter(db, outbox, pictures, locks, pacer, languages, links=links)
    watching = nobody_watching if pages is None else pages.watching
    presenter = Presenter(documents, outbox, pictures, boards, languages, links=links, watching=watching)
    service = GameService(
        documents,
        presenter,
        outbox,
        locks,
        group_delay=settings.computer_delay,
        private_delay=settings.private_computer_delay,
        clock=partial(TurnClock, scale=settings.turn_clock_scale),
        manners=manners.Manners(),  # the turn clock's run-outs, and hands that cannot be delivered
    )
    outbox.on_migrate = on_migrate(service)
    replays = ReplayMaker(settings.render_workers)  # its own worker: a replay never delays a board
    replays.start()
    quiet = QuietAnswers(pacer, every=settings.quiet_answer_seconds)  # refusals never hold up a game
    table = None
    if pages is not None:
        table = open_table_site(settings, db, service, languages, pages, relay)
    return Parts(
        db=db,
        outbox=outbox,
        pictures=pictures,
        boards=boards,
        service=service,
        sweeper=IdleSweeper(db, locks, idle_days=settings.idle_close_days, every=settings.idle_sweep_seconds),
        wakeups=WakeSweeper(service, every=settings.wake_sweep_seconds, lease=settings.wake_grace_seconds),
        replays=replays,
        dispatcher=build_dispatcher(db, service, outbox, languages, quiet, replays),
        table=table,
    )


async def start_up(bot: Bot, parts: Parts) -> None:
    """The command menus, idle games closed, running games resumed, recent lobbies shown; then the
    sweepers run."""
    await set_command_menus(bot)
    await parts.sweeper.sweep()  # before resuming: an idle game is closed, not woken
    resumed = await parts.service.resume()
    lobbies = await show_recent_lobbies(parts.service, time.time())
    log.info("resumed %d running games, showed %d lobbies", resumed, lobbies)
    settle_heap()
    parts.sweeper.start()
    parts.wakeups.start()


async def serve(bot: Bot, parts: Parts, settings: Settings) -> None:
    """Take updates (by webhook or long polling) until stopped, then let those being handled finish."""
    heartbeat = asyncio.create_task(beat(), name="heartbeat")
    table_runner: web.AppRunner | None = None
    try:
        if settings.webhook_mode:
            await serve_webhook(bot, parts.dispatcher, settings, parts.table)
        else:
            if parts.table is not None:
                table_runner = await serve_table(parts.table, settings)
            # getUpdates is refused while a webhook is set: a bot moved back from webhook mode
            # takes its updates by polling again (those waiting for the webhook included).
            await bot.delete_webhook(drop_pending_updates=False)
            await poll_until_stopped(bot, parts.dispatcher, settings)
        heartbeat.cancel()
        if not await parts.dispatcher["in_flight"].drained(SHUTDOWN_GRACE):
            log.warning("stopping with updates still being handled")
    finally:
        if parts.table is not None:
            await parts.table.close()
        if table_runner is not None:
            await table_runner.cleanup()


async def close(parts: Parts) -> None:
    """Every part stopped, in the reverse order of their use (the database and session are the caller's)."""
    await parts.wakeups.close()
    await parts.sweeper.close()
    await parts.service.close()
    parts.boards.close()
    parts.pictures.close()
    parts.replays.close()


def open_table_pages(
    settings: Settings, db: Database, redis: Redis | None
) -> tuple[TablePages | None, TableRelay | None]:
    """The Mini App's open pages (WEBAPP_URL; none without it), and with several instances the relay
    that tells every instance's pages of a commit."""
    if not settings.webapp_mode:
        return None, None
    pages = TablePages()
    if redis is None:
        return pages, None
    relay = TableRelay(redis, partial(stored_game, db), pages.publish, pages.holds)
    relay.start()
    return pages, relay


def open_table_site(
    settings: Settings,
    db: Database,
    service: GameService,
    languages: Languages,
    pages: TablePages,
    relay: TableRelay | None,
) -> TableSite:
    """The Mini App table's routes (served by :func:`serve_table` or beside the webhook)."""
    return TableSite(
        settings.bot_token.get_secret_value(),
        db,
        service,
        languages,
        pages,
        public_url=settings.webapp_url,
        max_age=settings.webapp_auth_max_age,
        relay=relay,
    )


async def serve_table(table: TableSite, settings: Settings) -> web.AppRunner:
    """In polling mode the table page gets a server of its own, on WEBAPP_HOST:WEBAPP_PORT."""
    app = web.Application()
    table.add_routes(app)
    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, settings.webapp_host, settings.webapp_port).start()
    log.info(
        "the table page is served on %s:%d for %s", settings.webapp_host, settings.webapp_port, settings.webapp_url
    )
    return runner


def stop_on_signals(stop: asyncio.Event) -> None:
    """SIGTERM and SIGINT set ``stop``: the normal way a service manager (or Ctrl-C) stops the bot,
    so it is said at INFO (aiogram's own handler would call it a WARNING)."""
    loop = asyncio.get_running_loop()

    def stopping(signal_number: signal.Signals) -> None:
        log.info("stopping (%s received)", signal_number.name)
        stop.set()

    for signal_number in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signal_number, stopping, signal_number)


async def poll_until_stopped(bot: Bot, dispatcher: Dispatcher, settings: Settings) -> None:
    """Take updates by long polling until SIGTERM or SIGINT (or until polling fails, which raises)."""
    stop = asyncio.Event()
    stop_on_signals(stop)
    # The session stays open after polling stops: the updates still being handled need it.
    polling = asyncio.create_task(
        dispatcher.start_polling(
            bot, polling_timeout=settings.polling_timeout, handle_signals=False, close_bot_session=False
        ),
        name="polling",
    )
    stopped = asyncio.create_task(stop.wait(), name="stopping")
    try:
        await asyncio.wait({polling, stopped}, return_when=asyncio.FIRST_COMPLETED)
        while not polling.done():
            # stop_polling returns at once when polling has not begun yet: then ask again shortly.
            await dispatcher.stop_polling()
            await asyncio.wait({polling}, timeout=0.1)
        await polling
    finally:
        stopped.cancel()
        polling.cancel()  # done already, unless this wait itself was cancelled


async def serve_webhook(bot: Bot, dispatcher: Dispatcher, settings: Settings, table: TableSite | None = None) -> None:
    """Take updates by webhook until SIGTERM or SIGINT: serve the webhook's path (and ``/health``),
    then ask Telegram to post there.

    Each update is answered only once it has been handled (``handle_in_background=False``): an
    instance killed halfway leaves its request unanswered, and Telegram (or the load balancer,
    trying the next instance) delivers it again, where the game's version makes a repeat harmless.
    Several instances all ask for the same webhook, which Telegram treats as no change.
    """
    handler = SimpleRequestHandler(
        dispatcher, bot, handle_in_background=False, secret_token=settings.webhook_secret.get_secret_value()
    )
    app = web.Application()
    # Not handler.register(): its shutdown hook would close the bot's session under the updates
    # still being handled; run() drains them first and closes the session itself.
    app.router.add_post(urlsplit(settings.webhook_url).path or "/", handler.handle)
    app.router.add_get("/health", _health)
    if table is not None:  # the table page shares the webhook's server
        table.add_routes(app)
    runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=SHUTDOWN_GRACE)
    await runner.setup()
    site = web.TCPSite(runner, settings.webhook_host, settings.webhook_port)
    await site.start()
    stop = asyncio.Event()
    stop_on_signals(stop)
    try:
        await ask_for_webhook(bot, dispatcher, settings)
        log.info("taking updates by webhook on %s:%d", settings.webhook_host, settings.webhook_port)
        await stop.wait()
    finally:
        await site.stop()  # no new updates; the ones being handled finish (run() waits for them)
        if not await dispatcher["in_flight"].drained(SHUTDOWN_GRACE):
            log.warning("stopping with updates still being handled")
        await runner.cleanup()


async def ask_for_webhook(bot: Bot, dispatcher: Dispatcher, settings: Settings, attempts: int = 5) -> None:
    """``setWebhook``, waiting out "Too Many Requests" (instances starting together all ask)."""
    for attempt in range(1, attempts + 1):
        try:
            await bot.set_webhook(
                settings.webhook_url,
                secret_token=settings.webhook_secret.get_secret_value(),
                max_connections=settings.webhook_max_connections,
                allowed_updates=dispatcher.resolve_used_update_types(),
                drop_pending_updates=False,
            )
            return
        except TelegramRetryAfter as error:
            if attempt == attempts:
                raise
            await asyncio.sleep(min(float(error.retry_after), 30.0))


async def _health(request: web.Request) -> web.Response:
    return web.Response(text="ok")  # i18n: not shown


async def open_database(settings: Settings) -> Database:
    """The database, migrated; one line and exit status 1 if it cannot be opened."""
    try:
        return await Database.open(settings.database_url, wake_grace=settings.wake_grace_seconds)
    except (OSError, TimeoutError, ValueError, asyncpg.PostgresError, sqlite3.Error) as error:
        problem = without_password(error)
        print(f"dominoes-bot: cannot open the database of DATABASE_URL: {problem}", file=sys.stderr)
        raise SystemExit(1) from None


async def open_redis(url: str) -> Redis:
    """A client of the Redis server that the instances share; one line and exit status 1 if it does not answer."""
    redis = Redis.from_url(url, socket_connect_timeout=10)
    try:
        await redis.ping()
    except (OSError, RedisError) as error:
        await redis.aclose()
        problem = without_password(error)
        print(f"dominoes-bot: the Redis server of REDIS_URL does not answer: {problem}", file=sys.stderr)
        raise SystemExit(1) from None
    return redis


def without_password(error: BaseException) -> str:
    """An error's words with any ``scheme://user:password@`` credentials blanked out."""
    return re.sub(r"(://[^:/@\s]*):[^@\s]*@", r"\1:***@", str(error))


def redact(text: str, token: str) -> str:
    """``text`` without the bot token (nor its secret half): error messages may quote request URLs."""
    for secret in (token, token.partition(":")[2]):
        if secret:
            text = text.replace(secret, "<BOT_TOKEN>")
    return text


class RedactingFormatter(logging.Formatter):
    """Log lines (tracebacks included) never carry the bot token."""

    def __init__(self, fmt: str, token: str) -> None:
        super().__init__(fmt)
        self.token = token

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record), self.token)


USAGE = """usage: dominoes-bot            run the bot (BOT_TOKEN and the other settings from the environment or .env)
       dominoes-bot sandbox    try it without Telegram: the real bot and a Telegram of its own, in a browser
"""  # i18n: not shown (the command line speaks English, as its settings do)


def settle_heap() -> None:
    """What start-up built (modules, aiogram's and pydantic's models, catalogues, fonts) lives as
    long as the bot: moved out of the garbage collector's sight. A full collection then walks only
    what games made since; walking the 230,000 objects that never die too stalled the event loop
    for 300-500 ms at a time under load (bench/webapp.py), which every open table page felt."""
    gc.collect()
    gc.freeze()


def main() -> None:
    arguments = sys.argv[1:]
    if arguments[:1] == ["sandbox"]:
        # The sandbox is a program of its own that runs this bot as a child process: the bot
        # imports nothing of it (nor of the test kit it stands on), it only hands over.
        os.execv(sys.executable, [sys.executable, "-m", "sandbox", *arguments[1:]])
    if arguments[:1] in (["-h"], ["--help"]):
        print(USAGE, end="")
        return
    if arguments:
        print(USAGE, end="", file=sys.stderr)
        raise SystemExit(2)
    settings = load_settings()
    token = settings.bot_token.get_secret_value()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s", token))
    logging.basicConfig(level=settings.log_level, handlers=[handler])
    # aiosqlite's debug lines print every statement with its parameters: whole game records, hands
    # included. The bot's own DEBUG lines never need them.
    logging.getLogger("aiosqlite").setLevel(max(logging.getLogger().level, logging.INFO))
    with contextlib.suppress(KeyboardInterrupt):
        try:
            asyncio.run(run(settings))
        except Exception:  # through the redacting log, not Python's bare traceback on stderr
            log.exception("the bot stopped on an unexpected error")
            raise SystemExit(1) from None
