"""`saltacavallo serve`: the web companion on its server (webui.server), its addresses, PIN and QR."""

from __future__ import annotations

import argparse
import ipaddress
import logging
import shutil
import signal
import socket
import sys
import tempfile
import threading
from pathlib import Path
from types import FrameType
from typing import Any

log = logging.getLogger("saltacavallo.serve")

DEFAULT_PORT = 8000
DEFAULT_DB = "saltacavallo.db"


def add_commands(subparsers: Any) -> None:
    """Register `serve` on the top-level parser's subcommands."""
    command = subparsers.add_parser(
        "serve", help="serve the table's web page (phones open it; a camera referees)",
        description="Serve the table companion's web page to every phone at the table. Changes "
        "(setup, corrections, undo, camera frames) need the table PIN printed at start.")
    command.add_argument("--camera", metavar="SOURCE", default=None,
                         help="a webcam number (0), a video, an image folder, an http:// MJPEG "
                         "or rtsp:// address; default: the phone camera page")
    command.add_argument("--demo", action="store_true",
                         help="replay the sample sequences as a live table (no camera needed)")
    command.add_argument("--host", default="0.0.0.0",
                         help="address to listen on (default 0.0.0.0: every network of this "
                         "computer; 127.0.0.1 for this computer only)")
    command.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default 8000)")
    command.add_argument("--db", type=Path, default=None,
                         help=f"the game file (default {DEFAULT_DB} here; with --demo a fresh "
                         "temporary one)")
    command.add_argument("--pin", default=None, help="the table PIN, 4 to 12 digits "
                         "(default: a random one, printed)")
    command.add_argument("--https", action="store_true",
                         help="serve HTTPS (phones allow their camera only over HTTPS) with a "
                         "self-signed certificate made on the first start and kept")
    command.add_argument("--cert", type=Path, default=None, help="your own certificate (PEM)")
    command.add_argument("--key", type=Path, default=None, help="its private key (PEM)")
    command.set_defaults(run=run_serve)


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses that other devices on the network can reach."""
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    candidates = [str(info[4][0]) for info in infos]
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # connect() on a datagram socket sends nothing: it only asks the kernel for the route's
        # source address (the documentation range is never contacted).
        probe.connect(("192.0.2.1", 9))
        candidates.append(probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    for text in candidates:
        address = ipaddress.ip_address(text)
        if not (address.is_loopback or address.is_unspecified or address.is_link_local) \
                and text not in found:
            found.append(text)
    return found


def _fail(message: str) -> int:
    print(f"saltacavallo serve: {message}", file=sys.stderr)
    return 2


def run_serve(args: argparse.Namespace) -> int:
    """Start the server and serve until Ctrl+C (or SIGTERM); 2 on a bad option."""
    from webui.guard import check_pin_text, new_pin

    try:
        pin = check_pin_text(args.pin) if args.pin is not None else new_pin()
    except ValueError as err:
        return _fail(str(err))
    if not 0 <= args.port <= 65535:
        return _fail(f"the port must be 0 to 65535, not {args.port}")
    if (args.cert is None) != (args.key is None):
        return _fail("give both --cert and --key, or neither")
    # the demo's own game (no --db) lives in a folder of its own, thrown away when the server stops
    scratch = Path(tempfile.mkdtemp(prefix="saltacavallo-demo-")) if args.demo and args.db is None else None
    try:
        return _serve_game(args, pin, (scratch / "demo.db") if scratch else (args.db or Path(DEFAULT_DB)),
                           scratch is not None)
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


def _serve_game(args: argparse.Namespace, pin: str, db: Path, throwaway: bool) -> int:
    """Serve the game kept in `db` (a `throwaway` one: the demo's) until asked to stop."""
    from tornado.netutil import bind_sockets

    from referee.store import StoreError
    from webui.app import create_app
    from webui.certs import ensure_certificate
    from webui.server import BackgroundServer, raise_open_files, tls_context

    db = db.resolve()
    if db.exists() and not db.is_file():
        return _fail(f"{db} is not a file")
    lan = lan_addresses() if args.host in ("0.0.0.0", "::", "") else []
    scheme = "https" if args.https or args.cert else "http"
    raise_open_files()
    try:  # the port first, to fail fast
        sockets = bind_sockets(args.port, args.host or None)
    except OSError as err:
        return _fail(f"cannot listen on {args.host}:{args.port}: {err.strerror or err} "
                     "(another server there? try --port 8080)")
    port = int(sockets[0].getsockname()[1])

    def _close_sockets() -> None:
        for sock in sockets:
            sock.close()

    public_host = lan[0] if lan else (args.host if args.host not in ("0.0.0.0", "::") else
                                      "127.0.0.1")
    tls = None
    if scheme == "https":
        if args.cert:
            cert, key = args.cert, args.key
            if not (cert.is_file() and key.is_file()):
                _close_sockets()
                return _fail(f"cannot read the certificate {cert} or its key {key}")
        else:
            cert, key, made = ensure_certificate(db.parent / "saltacavallo-tls",
                                                 ["127.0.0.1", *lan])
            if made:
                print(f"made a self-signed certificate: {cert}")
        try:
            tls = tls_context(str(cert), str(key))
        except (OSError, ValueError) as err:
            _close_sockets()
            return _fail(f"cannot use the certificate {cert}: {err}")
    try:
        app = create_app({"DATABASE": str(db), "PIN": pin,
                          "PUBLIC_URL": f"{scheme}://{public_host}:{port}"})
    except StoreError as err:
        _close_sockets()
        return _fail(str(err))
    service = app.extensions["saltacavallo.table"]
    # Ctrl+C or a stop request only sets a flag, from before the first page is answered: the main
    # thread then stops everything in order
    stopping = threading.Event()

    def _stop(signum: int, frame: FrameType | None) -> None:
        stopping.set()

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    server = BackgroundServer(app, sockets=sockets, tls=tls)
    loop = _start_camera(args, service)
    if loop is False:
        server.stop()
        service.close()
        return 2
    _banner(scheme, port, lan, args.host, pin, db, throwaway)

    try:
        while not stopping.wait(0.5):
            if not server.alive():  # the loop must never leave the process serving nothing
                log.error("the web server stopped")
                break
        print("\nstopping: " + ("the demo game is thrown away" if throwaway else "the game is saved"), flush=True)
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if loop is not None and loop is not False:
            loop.stop()
        server.stop()
        service.close()
    return 0


def _start_camera(args: argparse.Namespace, service: Any) -> Any:
    """The live loop on the chosen source; None without one, False when the source fails."""
    from vision.frames import PushedFrames, SourceError, open_source

    try:
        from live.loop import LiveLoop
        from webui.demo import DemoFilms, demo_loop
    except ImportError as err:
        print(f"note: the live camera loop is not available ({err}); the table works by hand")
        return None
    films: DemoFilms | None = None
    try:
        if args.demo:
            source = films = DemoFilms()
        elif args.camera in (None, "phone"):
            source = PushedFrames(on_status=lambda s: service.camera_status(s.to_json()))
            service.phone = source
        else:
            source = open_source(args.camera,
                                 on_status=lambda s: service.camera_status(s.to_json()))
    except SourceError as err:
        print(f"saltacavallo serve: {err}", file=sys.stderr)
        return False
    service.camera_status(source.status().to_json())
    loop = demo_loop(service, films) if films is not None else LiveLoop(service, source)
    loop.start()
    return loop


def _banner(scheme: str, port: int, lan: list[str], host: str, pin: str, db: Path, throwaway: bool) -> None:
    """What to open, the PIN, where the game is kept (a `throwaway` one: till the server stops),
    and a QR code of the address for the phones."""
    import segno

    local = f"{scheme}://{'localhost' if host in ('0.0.0.0', '::', '') else host}:{port}/"
    lines = ["", "Saltacavallo: il tavolo è pronto / the table is ready", "",
             f"  Su questo computer / on this computer:   {local}"]
    for address in lan:
        lines.append(f"  Sui telefoni / on the phones (same Wi-Fi): {scheme}://{address}:{port}/")
    camera = f"{scheme}://{lan[0] if lan else 'localhost'}:{port}/fotocamera"
    lines += [f"  Telefono come fotocamera / phone camera: {camera}",
              f"  PIN del tavolo / table PIN:  {pin}",
              f"  Partita di prova, cancellata alla fine / demo game, thrown away at the end: {db}" if throwaway
              else f"  Partita salvata in / game saved in: {db}", ""]
    if scheme == "http" and lan:
        lines.append("  (the phone camera page needs --https)")
    print("\n".join(lines), flush=True)
    if lan:
        segno.make(f"{scheme}://{lan[0]}:{port}/", error="m").terminal(compact=True)
    print("Ctrl+C per fermare / to stop", flush=True)


def __getattr__(name: str) -> Any:
    """`BackgroundServer` moved to webui.server; an import from here still finds it."""
    if name == "BackgroundServer":
        from webui.server import BackgroundServer

        return BackgroundServer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
