"""`python -m tango.urban.server --port P [--city DIR] [--token T]`: serve the stand-in city on 127.0.0.1.

Prints one line `listening on http://HOST:PORT` once it accepts requests (the harness waits for it).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys

from tango.lifetime import exit_with_parent
from tango.urban.server.http import ServerConfigError, UrbanServer, check_loopback
from tango.urban.server.standin import StandIn


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tango.urban.server", description=__doc__)
    parser.add_argument("--port", type=int, default=8081, help="0 picks a free port")
    parser.add_argument("--host", default="127.0.0.1", help="a loopback address (the server refuses others)")
    parser.add_argument("--city", default="", help="city folder (city.json + task/); empty: seed 0, no tasks")
    parser.add_argument("--seed", type=int, default=0, help="district seed when no --city is given")
    parser.add_argument(
        "--token", default=os.environ.get("URBAN_TOKEN", ""), help="require this bearer token"
    )
    parser.add_argument(
        "--parent-pid",
        type=int,
        default=0,
        help="exit once process PARENT_PID (the starter) is gone; 0: never",
    )
    args = parser.parse_args(argv)
    if args.parent_pid:
        exit_with_parent(args.parent_pid)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from tango.threads import pin_threads

    pin_threads()  # one compute thread, llvmpipe rasterising in the serving thread (before the GL context)
    try:
        check_loopback(args.host)
        standin = StandIn.from_folder(args.city) if args.city else StandIn(args.seed)
        server = UrbanServer(standin, args.host, args.port, args.token)
    except (ServerConfigError, ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    host, port = server.server_address[:2]
    name = host.decode() if isinstance(host, bytes) else str(host)
    print(f"listening on http://{name}:{port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
