"""``memorelay serve | check-config | memories …`` (also ``python -m gateway``)."""

from __future__ import annotations

import argparse
import logging
import socket
import sys
from collections.abc import Sequence

import yaml

from gateway.config import (
    Config,
    ConfigError,
    ConfigLocation,
    display_database,
    find_config,
    load_config,
    masked_dump,
)

CONFIG_HELP = "config file (default: $MEMORELAY_CONFIG, else ./config/memorelay.yaml, else ./memorelay.yaml)"
log = logging.getLogger("memorelay")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args))
    except ConfigError as exc:
        print(f"memorelay: {exc}", file=sys.stderr)
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memorelay", description="memorelay gateway")
    sub = parser.add_subparsers(dest="command")

    serve = sub.add_parser("serve", help="run the gateway")
    serve.add_argument("--config", help=CONFIG_HELP)
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--log-level", default="info")
    serve.set_defaults(run=_serve)

    check = sub.add_parser("check-config", help="validate and print the effective config")
    check.add_argument("--config", help=CONFIG_HELP)
    check.set_defaults(run=_check_config)

    health = sub.add_parser("healthcheck", help="exit 0 if the gateway of this config answers /healthz (Docker)")
    health.add_argument("--config", help=CONFIG_HELP)
    health.add_argument("--host", help="ask this host instead of the config's server.host")
    health.add_argument("--port", type=int, help="ask this port instead of the config's server.port")
    health.add_argument("--timeout", type=float, default=3.0, help="seconds (default 3)")
    health.set_defaults(run=_healthcheck)

    tenant_of = sub.add_parser(
        "tenant-of",
        help="print the pass-through tenant of an API key read from stdin (never from the command line)",
    )
    tenant_of.set_defaults(run=_tenant_of)

    from gateway.cli.memory import add_memory_commands

    add_memory_commands(sub)
    from gateway.cli.backup import add_backup_commands

    add_backup_commands(sub)
    return parser


def _load(location: ConfigLocation) -> Config:
    from gateway.filter_loader import validate_filters

    config = load_config(location)
    validate_filters(config)
    return config


def _origin(location: ConfigLocation) -> str:
    return {
        "--config": "from --config",
        "working directory": "found in the working directory",
        "bundled default": "the default memorelay comes with: no --config, no $MEMORELAY_CONFIG, none here",
    }.get(location.origin, f"from ${location.origin}")


def _check_config(args: argparse.Namespace) -> int:
    location = find_config(args.config)
    config = _load(location)
    print(f"# config: {config.source} ({_origin(location)}): valid")
    print(f"# database: {display_database(config.memory.database)}")
    print(yaml.safe_dump(masked_dump(config), sort_keys=False, allow_unicode=True), end="")
    return 0


def _healthcheck(args: argparse.Namespace) -> int:
    """GET /healthz on the configured host and port (a wildcard host is asked on loopback),
    so the check follows ``server.port`` wherever it is set (YAML or ``MEMORELAY_PORT``);
    ``--host``/``--port`` ask another (a gateway started with ``serve --port``)."""
    import urllib.request

    config = load_config(find_config(args.config))
    host = args.host or config.server.host
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    port = args.port if args.port is not None else config.server.port
    url = f"http://{f'[{host}]' if ':' in host else host}:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=args.timeout) as response:
            ok = response.status == 200
    except OSError as exc:  # refused, timed out, or an HTTP error status
        print(f"memorelay: {url}: {exc}", file=sys.stderr)
        return 1
    return 0 if ok else 1


def _tenant_of(args: argparse.Namespace) -> int:
    """The tenant pass-through mode gives a caller sending ``Authorization: Bearer <key>``.
    The key comes from stdin (hidden prompt on a terminal), so it stays out of shell history
    and process lists; a value already starting with ``Bearer `` (any case) is taken as the header."""
    from gateway.auth import is_bearer, pass_through_tenant

    if sys.stdin.isatty():
        import getpass

        key = getpass.getpass("API key (not echoed): ").strip()
    else:
        key = sys.stdin.readline().strip()
    if not key:
        print("memorelay: no API key on stdin (e.g. `printenv OPENAI_API_KEY | memorelay tenant-of`)", file=sys.stderr)
        return 2
    print(pass_through_tenant(key if is_bearer(key) else f"Bearer {key}"))
    return 0


def _serve(args: argparse.Namespace) -> int:
    location = find_config(args.config)
    config = load_config(location)
    if args.host:  # the app must know it too (console links on a wildcard address)
        config = config.model_copy(update={"server": config.server.model_copy(update={"host": args.host})})
    if not config.memory.is_postgres:
        from gateway.store.backend import DatabaseUnavailable, hold_database

        try:  # before anything slow: one line at once for a file this process cannot serve
            hold_database(config.memory.database)  # the lock is held until the process ends
        except DatabaseUnavailable as exc:
            print(f"memorelay cannot start: {exc}", file=sys.stderr)
            return 1
    host = config.server.host
    port = args.port if args.port is not None else config.server.port
    # bound before anything slow is imported or opened: a port in use fails in a moment
    try:
        sock = bind_socket(host, port)
    except OSError as exc:
        print(f"memorelay: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        from gateway.filter_loader import validate_filters

        validate_filters(config)
    except BaseException:
        sock.close()
        raise
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    log.info("config %s (%s); database %s", config.source, _origin(location), display_database(config.memory.database))
    try:
        return _run_server(config, sock, args.log_level)
    except KeyboardInterrupt:  # Ctrl-C: uvicorn has shut down gracefully already; no traceback
        return 0
    finally:
        sock.close()


def _run_server(config: Config, sock: socket.socket, log_level: str) -> int:
    import uvicorn

    from gateway.app import create_app
    from gateway.http.forwarded import proxy_options
    from gateway.http.server_protocol import http_protocol

    host, port = sock.getsockname()[:2]
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(config),
            host=host,
            port=port,
            loop="uvloop",
            http=http_protocol(config.server),
            **proxy_options(config.server),
            access_log=False,  # memorelay's own access log leaves out queries and credentials
            server_header=False,
            timeout_graceful_shutdown=int(config.server.shutdown_grace_s),
            log_level=log_level,
        )
    )
    shown = f"[{host}]" if ":" in host else host
    log.info("listening on http://%s:%d (Ctrl-C stops)", shown, port)
    server.run(sockets=[sock])
    return 0 if server.started else 1


def bind_socket(host: str, port: int) -> socket.socket:
    """A bound (not yet listening) TCP socket, as uvicorn would bind it."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock
