"""The read-only seat pages for phones (plain HTTP + Server-Sent Events)."""
