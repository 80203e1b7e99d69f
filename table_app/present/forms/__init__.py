"""The forms, written once for every front end (issue 40, item 2): each form module says what it
offers now (from the engine's public state and what its phase ``accepts``), checks what was
entered, builds the command and names its refusals (word keys of ``present/words``). The
touchscreen's screens and the phones' pages render these models; neither keeps a copy.

- :mod:`~table_app.present.forms.result`: the score-only result (只记分, ``score_hand``);
- :mod:`~table_app.present.forms.decide`: a declared win (its wait, 诈胡) and an undo put up;
- :mod:`~table_app.present.forms.fee`: the table fee (``fee``);
- :mod:`~table_app.present.forms.new_session`: a new session (``new_session``: names, base,
  rules; how it begins now — at once, replacing an unplayed session, or over a played one);
- :mod:`~table_app.present.forms.roster_pick`: a roster name tapped into a new session's places;
- :mod:`~table_app.present.forms.bets`: the hand's bets (``bets``), from the phones and the panels' − and +;
- :mod:`~table_app.present.forms.seating`: seating (``seating``: the three methods; a phone's "I drew East");
- :mod:`~table_app.present.forms.end_session`: the end of the session (``end_session``: between hands only).

An amount as typed is read once (:mod:`~table_app.present.forms.typed`: full-width digits, commas).

No Kivy, no network: a refusal is a :class:`~table_app.present.forms.refused.Refused` (its word
key, its code, whether the input was malformed), which each front end says its own way.
"""
