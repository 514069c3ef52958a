"""Simulated people: what they see is what the fake shows their chats, and they tap what a person would.

* ``players``  people at a table: find their hand, tap a playable tile, pick an end; audits of a
  finished game read from the transcript
* ``friends``  friend rooms and rematches: menus, links and buttons as a person meets them
* ``crowd``    many tables of people who tap as soon as there is something to tap (the load bench)
"""
