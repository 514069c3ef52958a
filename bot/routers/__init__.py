"""One router per part of the conversation; :func:`all_routers` lists them in the order they are tried."""

from __future__ import annotations

from aiogram import Router

from bot.routers import common, errors, lobby, play, solo


def all_routers() -> list[Router]:
    return [common.router, lobby.router, play.router, solo.router, errors.router]
