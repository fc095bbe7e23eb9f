"""Free loopback ports for the services the tests start."""

from __future__ import annotations

import socket


def free_port(pairs: bool = False) -> int:
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        if not pairs:
            return port
        with socket.socket() as s2:  # the controller listens on port + 1
            try:
                s2.bind(("127.0.0.1", port + 1))
                return port
            except OSError:
                continue
