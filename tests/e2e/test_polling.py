"""Long polling against the fake Bot API: a ``getUpdates`` that hangs (the connection stays open,
nothing comes) is given up and asked again, and the updates waiting meanwhile are answered."""

from __future__ import annotations

from pathlib import Path

from fake_telegram import FakeTelegram
from tests.e2e.conftest import running_bot

# Generous: the bot gives a hung long poll up a few seconds after its own timeout (1 s in tests).
RECOVERY_TIMEOUT = 60.0


async def test_a_long_poll_that_hangs_is_given_up_and_the_bot_polls_again(fake: FakeTelegram, tmp_path: Path) -> None:
    # Uploads may take long (REQUEST_TIMEOUT); a long poll still may not.
    async with running_bot(fake, tmp_path, REQUEST_TIMEOUT="300") as bot:
        fake.inject("hang", method="getUpdates")
        await fake.wait_for(
            lambda: not fake.pipeline.injector.scripted, RECOVERY_TIMEOUT, what="the bot's next getUpdates to hang"
        )
        ann = fake.add_user("Ann")
        fake.start_bot(ann)  # waits in the fake while the bot's poll hangs
        await fake.wait_for(lambda: fake.last_message(ann), RECOVERY_TIMEOUT, what="the bot to answer /start")

        hung = [call for call in fake.calls("getUpdates") if call.fault == "hang"]
        assert len(hung) == 1 and not hung[0].ok  # never answered: the bot gave it up
        assert any(call.seq > hung[0].seq for call in fake.calls("getUpdates", ok=True))  # and polled again
        assert fake.violations == []
        assert bot.returncode is None
