"""The parlour: many tables' journals mirrored over mosquitto bridges into one database.

- :mod:`table_app.parlour.records` — a journal record as it travels (``xian/T/journal``), its
  checks (shape, bounds, the hash chain);
- :mod:`table_app.parlour.db` — the parlour database, SQLite or PostgreSQL, one schema with
  numbered migrations;
- :mod:`table_app.parlour.ingest` — records stored idempotently by (table, journal, seq), each
  checked against the record before it, held while that one is missing;
- :mod:`table_app.parlour.gaps` — what is missing, asked of the table (``journal_replay``);
- :mod:`table_app.parlour.service` — ``xian-table parlour serve``: the MQTT session and the worker;
- :mod:`table_app.parlour.broker` — the parlour mosquitto's users and ACL (``tables add|retire``).

docs/parlour-service.md tells the whole of it.
"""
