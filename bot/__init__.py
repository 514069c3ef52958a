"""The Telegram bot (aiogram 3): routers, the game service, and sending within Telegram's limits."""
