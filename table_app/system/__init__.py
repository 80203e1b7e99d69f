"""The table's footing on its machine and its wires: bounded reading of what arrives from outside
(``bounded``: stdin, MQTT, HTTP bodies, files), systemd's notify socket and watchdog
(``sdnotify``), and the fault log's one traceback per kind (``fault_log``)."""
