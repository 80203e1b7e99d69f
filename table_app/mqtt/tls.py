"""The broker's TLS: a certificate authority made on the table itself, and a server
certificate it signs for the names clients use — with Debian's ``openssl`` command.

    folder/ca.crt      the CA's certificate: give it to the clients (public)
    folder/ca.key      the CA's key: root only, it never leaves the table
    folder/server.crt  the broker's certificate, signed by the CA, for ``names``
    folder/server.key  its key: root and the broker (mosquitto reads it)
    folder/server.names  the names the certificate was made for (a new name makes a new one)

Elliptic-curve keys (P-256): small, fast on a Pi, understood by every MQTT client. The CA is
valid ten years, the server certificate two (what clients accept); ``xian-table install``
makes a new server certificate whenever the names change or it has less than 30 days left.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

CA_DAYS = 3650
SERVER_DAYS = 730
RENEW_S = 30 * 86400


class TlsError(RuntimeError):
    """openssl is missing or refused: nothing was replaced."""


def wanted_names(listeners: Iterable[str], extra: Iterable[str] = (), hostname: str | None = None) -> list[str]:
    """The names for the server certificate: this machine's name (and ``.local``), localhost,
    the loopback addresses, the listeners' IP addresses and ``extra`` — sorted, once each."""
    from table_app.mqtt.broker_setup import parse_listener

    host = hostname or socket.gethostname()
    names = {host, f"{host}.local", "localhost", "127.0.0.1", "::1", *extra}
    for spec in listeners:
        address = parse_listener(spec)[0]
        if address and not ipaddress.ip_address(address).is_unspecified:
            names.add(address)
    return sorted(names)


def _san(names: Sequence[str]) -> str:
    parts = []
    for n in names:
        try:
            parts.append(f"IP:{ipaddress.ip_address(n)}")
        except ValueError:
            parts.append(f"DNS:{n}")
    return ",".join(parts)


def _openssl(*args: str) -> None:
    tool = shutil.which("openssl")
    if tool is None:
        raise TlsError("openssl not found: sudo apt install openssl")
    proc = subprocess.run([tool, *args], capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise TlsError(f"openssl {args[0]} failed: {proc.stderr.strip()[-300:]}")


def needs_work(folder: Path, names: Sequence[str]) -> bool:
    files = [folder / f for f in ("ca.crt", "ca.key", "server.crt", "server.key", "server.names")]
    if not all(f.exists() for f in files):
        return True
    if (folder / "server.names").read_text(encoding="utf-8").split() != list(names):
        return True
    tool = shutil.which("openssl")
    if tool is None:
        return False
    expiring = subprocess.run([tool, "x509", "-checkend", str(RENEW_S), "-noout", "-in", str(folder / "server.crt")],
                              capture_output=True, timeout=60)
    return expiring.returncode != 0


def make(folder: Path, names: Sequence[str], *, broker_group: int | None = None) -> None:
    """Make the CA (if there is none) and a new server certificate for ``names``."""
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o750)
    if not (folder / "ca.crt").exists() or not (folder / "ca.key").exists():
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            t = Path(tmp)
            _openssl("req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                     "-keyout", str(t / "ca.key"), "-out", str(t / "ca.crt"), "-days", str(CA_DAYS),
                     "-subj", f"/CN=xian-table CA {socket.gethostname()}",
                     "-addext", "basicConstraints=critical,CA:TRUE",
                     "-addext", "keyUsage=critical,keyCertSign,cRLSign")
            os.chmod(t / "ca.key", 0o600)
            os.chmod(t / "ca.crt", 0o644)
            os.replace(t / "ca.key", folder / "ca.key")
            os.replace(t / "ca.crt", folder / "ca.crt")
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        t = Path(tmp)
        (t / "ext").write_text(f"subjectAltName={_san(names)}\nbasicConstraints=critical,CA:FALSE\n"
                               "keyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\n")
        _openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                 "-keyout", str(t / "server.key"), "-out", str(t / "server.csr"),
                 "-subj", f"/CN={socket.gethostname()}")
        _openssl("x509", "-req", "-in", str(t / "server.csr"), "-CA", str(folder / "ca.crt"),
                 "-CAkey", str(folder / "ca.key"), "-set_serial", str(int.from_bytes(os.urandom(16), "big") >> 1),
                 "-days", str(SERVER_DAYS), "-extfile", str(t / "ext"), "-out", str(t / "server.crt"))
        os.chmod(t / "server.key", 0o640)
        os.chmod(t / "server.crt", 0o644)
        if broker_group is not None and os.geteuid() == 0:
            os.chown(t / "server.key", 0, broker_group)
            os.chown(folder, 0, broker_group)
        (t / "server.names").write_text(" ".join(names) + "\n")
        for f in ("server.key", "server.crt", "server.names"):  # the key first: never a cert without its key
            os.replace(t / f, folder / f)
