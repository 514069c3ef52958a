"""The sandbox: the real bot in a browser, against the test kit's fake Telegram (``dominoes-bot sandbox``).

* ``cli``          the command: starts the fake, the page's server and the bot; keeps ``./data``; Ctrl-C
* ``bot_process``  the bot, unmodified, as a child process pointed at the fake
* ``cast``         the four people and their group
* ``web``          the page's HTTP server: page, WebSocket, actions, files (``PROTOCOL.md``)
* ``hub``          what changed, pushed to the open pages
* ``actions``      what a person does on the page, done through the fake
* ``views``        chats and messages as the page's JSON (entities as HTML)
* ``static/``      the page: plain HTML, CSS and JavaScript
"""
