"""The short answers to a tap or a command: a :class:`Refusal` (nothing was changed) or a
:class:`Notice` (it worked). Each member's value is its English text, the catalogue's message id;
:attr:`~Answer.text` gives it in the reader's language.

>>> Refusal.NOT_YOUR_TURN.text
'It is not your turn yet.'
>>> Refusal.for_engine_code("forced_lead") is Refusal.FORCED_LEAD
True
"""

from __future__ import annotations

import enum

from bot.words.i18n import N_, _


class Answer(enum.Enum):
    """A member's value is its text in English, as the catalogue knows it."""

    @property
    def text(self) -> str:
        return _(self.value)


@enum.unique
class Refusal(Answer):
    """Why a request was refused; the request changed nothing."""

    NO_GAME = N_("This game is over or no longer exists.")
    STALE = N_("That was an older view of the game — here is the current one.")
    NOT_YOUR_GAME = N_("You are not playing in this game.")
    NOT_YOUR_TURN = N_("It is not your turn yet.")
    DOES_NOT_FIT = N_("That tile does not fit any open end.")
    NOT_IN_HAND = N_("That tile is not in your hand.")
    FORCED_LEAD = N_("This round must be led with the marked tile.")
    SEAT_TAKEN = N_("You are already seated.")
    LOBBY_FULL = N_("All seats are taken.")
    LOBBY_CLOSED = N_("This lobby is closed.")
    CREATOR_ONLY = N_("Only the player who opened the game can do that.")
    NEED_PRIVATE = N_("Open a private chat with me first, then tap Join again.")
    NOT_SEATED = N_("You are not seated in this game.")
    GAME_RUNNING = N_("A game is already running in this chat.")
    BROKEN = N_("Something went wrong; nothing was changed. Please try again.")
    UNKNOWN_LEVEL = N_("There is no such computer level.")
    LEVEL_PRIVATE_ONLY = N_("The computer's level can be changed only in a private game against the computer.")
    ROOM_UNKNOWN = N_("This invitation does not exist (any more).")
    ROOM_OLD_LINK = N_("This invitation link was replaced by a newer one. Ask your friend for the new link.")
    ROOM_TAKEN = N_("Sorry, someone else has already taken this seat. Ask your friend to invite you to a new game.")
    ROOM_CLOSED = N_("This room is closed. Ask your friend for a new invitation.")
    ROOM_RUNNING = N_("You are playing with a friend already; finish that game first.")
    ROOM_OWN_GAME_OVER = N_("That game is over. Start a new one with /start.")
    REMATCH_NOT_PLAYER = N_("Only the players of this game can ask for a rematch.")
    REMATCH_CLOSED = N_("This rematch is no longer open.")
    REMATCH_STARTED = N_("The rematch has already started.")
    SETTINGS_ADMINS_ONLY = N_("Only the chat's administrators can change the settings.")
    IDLE_CLOSED = N_("This game was closed after seven days without a move.")
    SEAT_AWAY = N_("A computer plays your seat now. Tap “Take my seat back” in our private chat first.")
    TAKE_BACK_OVER = N_("This game is over, so there is no seat to take back.")
    TAKE_BACK_KICKED = N_("Your seat was given to a computer player; it cannot be taken back.")
    ALREADY_BACK = N_("You are already playing your seat.")
    ALREADY_AWAY = N_("A computer already plays your seat.")
    KILL_REFUSED = N_("Only the player who opened the game or a chat administrator can end it.")
    KICK_REFUSED = N_("Only the player who opened the game or a chat administrator can give a seat to a computer.")
    KICK_NOT_PLAYER = N_("That person is not playing in this game.")
    NO_GAME_HERE = N_("There is no game here right now. Type /new to start one.")
    HINTS_OFF = N_("Hints are off in this game.")
    NO_TEAMS = N_("This game has no teams: tap Join to sit down.")
    TEAM_FULL = N_("That team has no free seat.")
    SAME_TEAM = N_("You are already in that team.")
    ROOM_TWO_SEATS = N_(
        "A friend room seats two. Goat and Partners need four players: play them in a group with /new, "
        "or here against the computer."
    )

    @classmethod
    def for_engine_code(cls, code: str) -> Refusal:
        """The refusal for an engine error's ``code`` (an illegal move); any other code is BROKEN."""
        return ENGINE_REFUSALS.get(code, cls.BROKEN)


@enum.unique
class Notice(Answer):
    """What a request did, when it did something."""

    JOINED = N_("You are in! Your hand will come to our private chat.")
    LEFT = N_("You left the lobby.")
    HAND_SENT = N_("Your hand is in our private chat.")
    CHOOSE_END = N_("This tile fits more than one end: choose one.")
    ROOM_SEAT_FREE = N_("Your friend has not opened the link yet.")
    ROOM_NEW_LINK = N_("Here is a new link; the old one no longer works.")
    SEAT_BACK = N_("Here is your hand again.")
    REMATCH_CONFIRMED = N_("You are in for a rematch; waiting for the others.")
    REMATCH_AGAIN = N_("You have already confirmed; waiting for the others.")
    REMATCH_GO = N_("Everyone is in: the rematch starts!")
    SETTINGS_SAME = N_("That is already the setting.")
    WELCOME_BACK = N_("Welcome back! Your seat is yours again.")
    TEAM_CHANGED = N_("You changed teams.")


# The engine's codes of an illegal move (engine/errors.py) that a person's tap can meet.
ENGINE_REFUSALS: dict[str, Refusal] = {
    "out_of_turn": Refusal.NOT_YOUR_TURN,
    "game_over": Refusal.NOT_YOUR_TURN,
    "not_in_hand": Refusal.NOT_IN_HAND,
    "does_not_fit": Refusal.DOES_NOT_FIT,
    "end_not_open": Refusal.DOES_NOT_FIT,
    "forced_lead": Refusal.FORCED_LEAD,
}
