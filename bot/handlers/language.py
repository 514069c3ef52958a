"""/language: the language a person reads (their private chat with me, and their alerts everywhere)."""

from __future__ import annotations

from aiogram import Router
from aiogram.filters import Command
from aiogram.types import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message

from bot.table.service import GameService
from bot.telegram.callbacks import LanguageTap
from bot.telegram.outbox import Outbox
from bot.telegram.people import Person
from bot.words import room_texts, settings_texts
from bot.words.i18n import LANGUAGES, speaking
from bot.words.languages import Languages
from bot.words.refusals import Refusal

router = Router(name="language")


def language_markup(current: str) -> InlineKeyboardMarkup:
    row = [
        InlineKeyboardButton(
            text=room_texts.LANGUAGE_NAMES[language]
            + (f" {settings_texts.SETTINGS_MARK}" if language == current else ""),
            callback_data=LanguageTap(language=language).pack(),
        )
        for language in LANGUAGES
    ]
    return InlineKeyboardMarkup(inline_keyboard=[row])


@router.message(Command("language"))
async def language_command(message: Message, language: str) -> None:
    """In a group the reply is in the person's own language too: it is about them, not the group."""
    with speaking(language):
        await message.answer(settings_texts.language_prompt(), reply_markup=language_markup(language))


@router.callback_query(LanguageTap.filter())
async def language_tap(
    query: CallbackQuery,
    callback_data: LanguageTap,
    person: Person | None,
    service: GameService,
    languages: Languages,
    outbox: Outbox,
) -> None:
    chosen = callback_data.language
    if chosen not in LANGUAGES or person is None:
        await query.answer(Refusal.BROKEN.text, show_alert=True)
        return
    await languages.choose(person.user_id, person.name, chosen)  # again: harmless
    with speaking(chosen):
        await outbox.answer(query.id, settings_texts.language_chosen(chosen))
        message = query.message
        if isinstance(message, Message) and message.chat.id == person.user_id:  # a group's stays as it is
            await outbox.edit_text(
                message.chat.id, message.message_id, settings_texts.language_prompt(), language_markup(chosen)
            )
