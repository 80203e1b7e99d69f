"""``xian-table doctor``: one screen of the table's health, each line ok / warning / error.

Every check looks at the real thing — the journal file, the disk, the firmware's power
flags, the serial ports, the broker's port, the fonts, the display driver, the unit — and
says what to do when it is not ok. A :class:`~table_app.doctor.check.Probe` says where to
look (``root`` for ``/dev``, ``/sys``, ``/proc``, fonts and units; the command runner), so
tests point it at a prepared folder and real helper programs.

The modules: :mod:`.check` (a :class:`~.check.Check`, the :class:`~.check.Probe`), the checks
by topic — :mod:`.storage` (journal, backups, disk), :mod:`.machine` (power, font, display,
service), :mod:`.panel`, :mod:`.broker` — and :mod:`.report` (all of them, as text or JSON).
"""
