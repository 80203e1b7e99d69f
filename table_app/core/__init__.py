"""The table's core: the one writer (``service``) and its queue in lanes (``lanes``), what it says
(``notices``), whose step each event was (``steps``), proposals a second seat agrees to
(``consent``), what an undo goes back to (``undo_target``), where a command came from
(``sources``), the clocks, the house fee and the roster."""
