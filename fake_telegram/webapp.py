"""What a Telegram client hands a Mini App it opens: ``initData``, signed as Telegram signs it.

https://core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app: the fields
(``auth_date``, ``user`` as JSON, ``start_param``, ...) sorted by name as ``key=value`` lines are
signed with HMAC-SHA-256 under the key HMAC-SHA-256("WebAppData", bot token); the hex digest is
the ``hash`` field. Written here from the documentation, not from the bot's library, so that the
bot's check is tested against an independent signer.

>>> from urllib.parse import parse_qsl
>>> from fake_telegram.state import User
>>> raw = init_data("123:abc", User(7, "Ann"), auth_date=1700000000, start_param="g12")
>>> sorted(key for key, _ in parse_qsl(raw))
['auth_date', 'hash', 'start_param', 'user']
"""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import urlencode

from .shapes import user_json
from .state import User


def init_data(
    token: str,
    user: User | None,
    *,
    auth_date: int,
    start_param: str | None = None,
    query_id: str | None = None,
    extra: dict[str, str] | None = None,
) -> str:
    fields: dict[str, str] = {"auth_date": str(auth_date), **(extra or {})}
    if user is not None:
        # A WebAppUser: a User without is_bot (sent only for a receiver), with allows_write_to_pm.
        person = {key: value for key, value in user_json(user).items() if key != "is_bot"}
        person["allows_write_to_pm"] = True
        fields["user"] = json.dumps(person, ensure_ascii=False, separators=(",", ":"))
    if start_param is not None:
        fields["start_param"] = start_param
    if query_id is not None:
        fields["query_id"] = query_id
    fields["hash"] = signature(token, fields)
    return urlencode(fields)


def signature(token: str, fields: dict[str, str]) -> str:
    check = "\n".join(f"{key}={value}" for key, value in sorted(fields.items()) if key != "hash")
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    return hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
