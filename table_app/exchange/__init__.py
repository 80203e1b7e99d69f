"""Export and import (docs/export.md), Kivy-free: a session as CSV for a spreadsheet
(:mod:`.sheet`), the journal's sessions as mjai-style JSONL (:mod:`.mjai`, :mod:`.write`),
and such a file read back, every line checked, for ``xian-table import`` (:mod:`.read`)."""
