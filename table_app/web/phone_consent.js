// The phone page's part for who decides: a win's confirmation, 诈胡, undo, another phone taking this seat (issue 27).
// Put in whole into phone.html's second <script>: it reads the page's globals (VIEW_HOOKS, ask, W, both, $).
