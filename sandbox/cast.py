"""Who is in the sandbox: four people, their group, and finding them again after a restart."""

from __future__ import annotations

from fake_telegram import Chat, FakeTelegram, User

PEOPLE = ("Ann", "Bob", "Cat", "Dan")
IN_GROUP = ("Ann", "Bob", "Cat")  # Dan stays outside, so that adding a person can be tried
GROUP_TITLE = "Domino night"
BOT_USERNAME = "dominoes_sandbox_bot"
BOT_NAME = "Dominoes"


class Cast:
    """The people of the sandbox and its one group (a new chat id once it became a supergroup)."""

    def __init__(self, fake: FakeTelegram) -> None:
        self.fake = fake

    def create(self) -> None:
        """A first run: the people, then the group, created by Ann with the bot in it."""
        people = [self.fake.add_user(name) for name in PEOPLE]
        members = [person for person in people if person.first_name in IN_GROUP]
        self.fake.add_group(GROUP_TITLE, members=members, announce=True)

    @property
    def people(self) -> list[User]:
        world = self.fake.world
        return [user for user in world.users.values() if not user.is_bot]

    def person(self, user_id: object) -> User | None:
        if not isinstance(user_id, int) or isinstance(user_id, bool):
            return None
        user = self.fake.world.users.get(user_id)
        return None if user is None or user.is_bot else user

    @property
    def group(self) -> Chat | None:
        """The group as it is now: the newest group chat that has not moved to a supergroup."""
        groups = [chat for chat in self.fake.world.chats.values() if chat.is_group and chat.migrated_to is None]
        return groups[-1] if groups else None
