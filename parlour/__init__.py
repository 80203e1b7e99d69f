"""The parlour: many tables' journals mirrored over mosquitto bridges into one database.

- :mod:`parlour.records` — a journal record as it travels (``xian/T/journal``), its
  checks (shape, bounds, the hash chain);
- :mod:`parlour.db` — the parlour database, SQLite or PostgreSQL, one schema with
  numbered migrations;
- :mod:`parlour.ingest` — records stored idempotently by (table, journal, seq), each
  checked against the record before it, held while that one is missing;
- :mod:`parlour.gaps` — what is missing, asked of the table (``journal_replay``);
- :mod:`parlour.service` — ``xian-table parlour serve``: the MQTT session and the worker;
- :mod:`parlour.broker` — the parlour mosquitto's users and ACL (``tables add|retire``).

docs/parlour-service.md tells the whole of it.
"""
