"""The HTTP kit that the table's pages (``table_app.web``) and the parlour's pages (``parlour``)
share: the bounded intake (``intake``), the places per address (``admission``), the server, its
routes and streams (``server``), and JSON replies and refusals (``replies``)."""
