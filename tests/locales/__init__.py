"""The catalogues (locales/) and the words of the bot: complete, correct, and all of them marked."""
