"""End-to-end tests: the real bot process against a fake Bot API server on loopback."""
