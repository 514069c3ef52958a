"""One router per part of the conversation; :func:`all_routers` lists them in the order they are tried."""

from __future__ import annotations

from aiogram import Router

from bot.routers import (
    common,
    errors,
    idle,
    language,
    lobby,
    manners,
    play,
    rematch,
    rooms,
    scores,
    settings,
    solo,
)


def all_routers() -> list[Router]:
    # rooms first: its /start r<code> links come before common's /start.
    # idle first: a tap on a game closed for being idle is answered so, whatever the button.
    return [
        idle.router,
        rooms.router,
        common.router,
        language.router,
        lobby.router,
        play.router,
        solo.router,
        rematch.router,
        settings.router,
        manners.router,
        scores.router,
        errors.router,
    ]
