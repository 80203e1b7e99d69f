"""The journal: every accepted event durable in one SQLite file (``journal``), its hash chain
(``chain``), its safe opening (``file``), its ``-wal`` reader (``wal``), the state and the
session's history replayed from it (``state``, ``session_history``), its records' wire form for
the parlour (``wire``), the last record known on disk (``synced_mark``) and consistent copies
(``backup``)."""
