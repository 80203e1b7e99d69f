"""Install the table as a Pi appliance, and take it away again.

:func:`~table_app.install.plan.plan_install` and :func:`~table_app.install.plan.plan_uninstall`
look at the system (or at a separate ``root`` for tests and images) and return the list of
:class:`~table_app.install.actions.Action` s that would bring it to the wanted state. Every
action knows whether it is already done, so running the plan twice changes nothing the second
time, and ``--dry-run`` prints exactly the list without doing any of it.

What an install puts in place (paths under ``root``):

- ``/etc/sysusers.d/xian-table.conf``, applied with ``systemd-sysusers``: the system user
  ``xian-table`` and the device groups it needs (gpio dialout video input render);
- ``/etc/xian-table/config.toml`` (written only if missing: a table owner's edits stay);
- ``/etc/xian-table/inputs.env``: ``XIAN_TABLE_INPUTS`` (``--gpio``, ``--panel DEVICE``),
  which the units append to ``ExecStart`` — kept from an earlier install unless given anew;
- ``/var/lib/xian-table`` (the journal and its backups; also the unit's StateDirectory);
- the unit — ``xian-table.service`` (touchscreen) or ``xian-table-headless.service`` —
  and ``xian-table-backup.service`` + ``.timer`` in ``/etc/systemd/system``, with
  ``ExecStart`` pointing at this very ``xian-table`` program, enabled;
- the broker, when mosquitto is installed: ``/etc/mosquitto/conf.d/xian-table.conf`` and
  ``/etc/mosquitto/xian-table/{passwd,acl}`` with generated passwords (the MQTT work's
  ``broker_setup.setup``), and the table's own password in ``/etc/xian-table/mqtt.env``
  (read by the units, never on a command line);
- this guide as ``/usr/share/doc/xian-table/raspberry-pi.md`` (the units link to it).

The modules: :mod:`.system` (where things go, the :class:`~.system.Target`, what the system
already has), :mod:`.actions` (the steps and :func:`~.actions.execute`), :mod:`.contents`
(the files' text), :mod:`.broker` (the broker's users, config and TLS) and :mod:`.plan`.
"""
