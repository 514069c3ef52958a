"""Bot API errors with Telegram's own wording.

Texts come from the Bot API server's source (tdlib/telegram-bot-api, ``Client.cpp``: the
``fail_query`` calls and the MTProto-error translations in ``fail_query_with_error``) and from
error reports of real bots.  An :class:`ApiError` with ``violation`` set is a request Telegram
rejects because the bot broke a rule (a limit, a malformed markup); those are also recorded in
the fake's violation list.  Errors without ``violation`` are ordinary runtime conditions (a
message that is gone, a user who blocked the bot) that a correct bot must handle.
"""

from __future__ import annotations

from typing import Any

# Texts used in several places, spelled exactly as Telegram does.
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
MESSAGE_TO_EDIT_NOT_FOUND = "Bad Request: message to edit not found"
MESSAGE_TO_DELETE_NOT_FOUND = "Bad Request: message to delete not found"
MESSAGE_CANT_BE_EDITED = "Bad Request: message can't be edited"
MESSAGE_CANT_BE_DELETED = "Bad Request: message can't be deleted"
CHAT_NOT_FOUND = "Bad Request: chat not found"
USER_NOT_FOUND = "Bad Request: user not found"
TEXT_EMPTY = "Bad Request: message text is empty"
TEXT_MUST_BE_NON_EMPTY = "Bad Request: text must be non-empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
BUTTON_DATA_INVALID = "Bad Request: BUTTON_DATA_INVALID"
BUTTON_URL_INVALID = "Bad Request: BUTTON_URL_INVALID"
BUTTON_TYPE_INVALID = "Bad Request: BUTTON_TYPE_INVALID"  # a web_app button outside a private chat
TEXT_BUTTONS_UNALLOWED = (
    "Bad Request: can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
)
REPLY_MARKUP_TOO_LONG = "Bad Request: reply markup is too long"
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
CALLBACK_TEXT_TOO_LONG = "Bad Request: MESSAGE_TOO_LONG"
URL_INVALID = "Bad Request: URL_INVALID"
CANT_INITIATE = "Forbidden: bot can't initiate conversation with a user"
BLOCKED = "Forbidden: bot was blocked by the user"
GROUP_UPGRADED = "Bad Request: group chat was upgraded to a supergroup chat"
PHOTO_INVALID_DIMENSIONS = "Bad Request: PHOTO_INVALID_DIMENSIONS"
PHOTO_TOO_BIG = "Bad Request: PHOTO_SAVE_FILE_INVALID"
IMAGE_PROCESS_FAILED = "Bad Request: IMAGE_PROCESS_FAILED"
WRONG_FILE_ID = "Bad Request: wrong file identifier/HTTP URL specified"
URL_CONTENT_FAILED = "Bad Request: failed to get HTTP URL content"
NO_TEXT_TO_EDIT = "Bad Request: there is no text in the message to edit"
NO_CAPTION_TO_EDIT = "Bad Request: there is no caption in the message to edit"
NO_MEDIA_TO_EDIT = "Bad Request: there is no media in the message to edit"
UNAUTHORIZED = "Unauthorized"
NOT_FOUND = "Not Found"
INTERNAL = "Internal Server Error"
GET_UPDATES_CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running"
)
WEBHOOK_CONFLICT = (
    "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first"
)
# setWebhook (Client.cpp: process_set_webhook_query, do_set_webhook; td's parse_url; WebhookActor.cpp).
TERMINATED_BY_SET_WEBHOOK = "Conflict: terminated by setWebhook request"
WEBHOOK_URL_INVALID = "Bad Request: invalid webhook URL specified"
SECRET_TOKEN_TOO_LONG = "Bad Request: secret token is too long"
SECRET_TOKEN_CHARACTERS = "Bad Request: secret token contains unallowed characters"
BAD_WEBHOOK = "Bad Request: bad webhook: "  # + the reason WebhookActor gives, e.g. the two below
WEBHOOK_HTTPS_REQUIRED = "An HTTPS URL must be provided for webhook"
WEBHOOK_PORTS = "Webhook can be set up only on ports 80, 88, 443 or 8443"
# Webhook delivery errors as getWebhookInfo's last_error_message shows them.
WEBHOOK_REFUSED = "Connection refused"
WEBHOOK_TIMEOUT = "Read timeout expired"
WEBHOOK_CLOSED = "Webhook connection closed"
WEBHOOK_WRONG_RESPONSE = "Wrong response from the webhook: "  # + "502 Bad Gateway"


class ApiError(Exception):
    """An error answer: ``{"ok": false, "error_code": code, "description": description, ...}``."""

    def __init__(
        self,
        code: int,
        description: str,
        *,
        parameters: dict[str, Any] | None = None,
        violation: str | None = None,
        detail: str = "",
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters
        self.violation = violation
        self.detail = detail

    def payload(self) -> dict[str, Any]:
        body: dict[str, Any] = {"ok": False, "error_code": self.code, "description": self.description}
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(description: str, *, violation: str | None = None, detail: str = "") -> ApiError:
    """A 400; ``description`` without the ``Bad Request: `` prefix is given one."""
    if not description.startswith("Bad Request"):
        description = f"Bad Request: {description}"
    return ApiError(400, description, violation=violation, detail=detail)


def forbidden(description: str) -> ApiError:
    return ApiError(403, description)


def retry_after(seconds: int) -> ApiError:
    seconds = max(1, int(seconds))
    return ApiError(429, f"Too Many Requests: retry after {seconds}", parameters={"retry_after": seconds})


def migrated(to_chat_id: int) -> ApiError:
    return ApiError(400, GROUP_UPGRADED, parameters={"migrate_to_chat_id": to_chat_id})
