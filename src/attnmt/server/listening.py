"""The server's listening sockets, bound before uvicorn starts, so that an address that cannot be
listened on (no such host, a port in use, a port that needs privileges) is one line naming the host
and port: uvicorn's own binding logs the system's error alone ("Name or service not known", or a
Python tuple for the address) and ends the process with its own exit status."""

from __future__ import annotations

import socket

from attnmt.errors import ConfigError


def listening_sockets(host: str, port: int) -> list[socket.socket]:
    """Sockets bound to every address ``host`` resolves to, on ``port`` (0: one the system chooses), as
    asyncio's ``create_server(host=..., port=...)`` binds them; uvicorn listens on them.  An address
    whose socket cannot be made is skipped, as asyncio skips it: ``""`` resolves to ``::`` as well as
    ``0.0.0.0``, and a kernel without IPv6 refuses the IPv6 socket.  Raises ConfigError naming
    ``host:port`` (an IPv6 address in brackets) and the system's reason when an address cannot be
    bound, or when no address had a socket."""
    sockets: list[socket.socket] = []
    try:
        for family, kind, protocol, _, address in dict.fromkeys(
                socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)):
            try:
                sock = socket.socket(family, kind, protocol)
            except OSError as error:
                unmade = error  # this address's family is not available here; the others may be
                continue
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart reuses a port left in TIME_WAIT
            if family == socket.AF_INET6:  # an IPv6 socket would otherwise take the IPv4 address as well
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
        if not sockets:
            raise unmade
    except OSError as error:
        for sock in sockets:
            sock.close()
        where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        raise ConfigError(f"cannot listen on {where}: {error.strerror or error}") from None
    return sockets
