"""The test kit: the people who use the fake Telegram (the top-level ``fake_telegram``), for tests and benchmarks.

Not shipped: the wheel holds the fake (the sandbox runs it), not this.

* ``launcher``       starts and stops the real bot process (``python -m bot``) against the fake
* ``people``         simulated people: players who read their chats and tap as a person would,
  friends with rooms and rematches, and the crowd the load benchmark plays with
* ``monitor``        reads the fake's transcript as it grows: deliveries, answers, latencies
* ``balancer``       a round-robin HTTP balancer in front of several webhook instances
* ``scenarios``      the reliability scenarios (crashes, faults, forged updates, concurrent
  taps, secrecy, several instances), each sized: small for the tests, large on demand

May import: ``engine`` (to replay records in audits), ``bot`` and ``storage`` only from
``scenarios`` (to read stored games as the bot wrote them); never imported by ``engine``,
``renderer``, ``storage`` or ``bot``.  ``fake_telegram`` imports nothing of the project.
"""
