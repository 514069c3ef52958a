"""The Mini App table (``WEBAPP_URL``): the page, its WebSocket, and the moves made there.

* ``server``  the routes: the page, its files, the WebSocket (initData checked), moves through the game service
* ``hub``     the open pages, and every committed change sent to them in order
* ``static/`` the page: plain HTML, CSS and JavaScript (``PROTOCOL.md``)
"""
