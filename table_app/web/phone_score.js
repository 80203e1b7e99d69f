// The phone page's part for keeping score from phones: a new session's form, bets, result-only entry (issue 27).
// Put in whole into phone.html's second <script>: it reads the page's globals (VIEW_HOOKS, ask, W, both, $).
