"""The handlers: one router per part of the conversation; :func:`all_routers` lists them in the order they are tried.

May import everything in ``bot`` below it (table, background, display, model, words, telegram).
"""

from __future__ import annotations

from aiogram import Router

from bot.handlers import (
    closed_games,
    errors,
    language,
    lobby,
    play,
    rematch,
    replays,
    rooms,
    scores,
    settings,
    solo,
    start,
    table_manners,
)


def all_routers() -> list[Router]:
    # closed_games first: a tap on a game closed for being idle is answered so, whatever the button.
    # rooms before start: its /start r<code> links come before the plain /start.
    return [
        closed_games.router,
        rooms.router,
        start.router,
        language.router,
        lobby.router,
        play.router,
        solo.router,
        rematch.router,
        settings.router,
        table_manners.router,
        scores.router,
        replays.router,
        errors.router,
    ]
