"""``memorelay serve | check-config | memories …`` (also ``python -m gateway``)."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence

import yaml

from gateway.config import DEFAULT_CONFIG_PATH, Config, ConfigError, load_config, masked_dump


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args))
    except ConfigError as exc:
        print(f"memorelay: invalid config\n{exc}", file=sys.stderr)
        return 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="memorelay", description="memorelay gateway")
    sub = parser.add_subparsers(dest="command")

    serve = sub.add_parser("serve", help="run the gateway")
    serve.add_argument("--config", default=DEFAULT_CONFIG_PATH)
    serve.add_argument("--host")
    serve.add_argument("--port", type=int)
    serve.add_argument("--log-level", default="info")
    serve.set_defaults(run=_serve)

    check = sub.add_parser("check-config", help="validate and print the effective config")
    check.add_argument("--config", default=DEFAULT_CONFIG_PATH)
    check.set_defaults(run=_check_config)

    from gateway.memory_cli import add_memory_commands

    add_memory_commands(sub)
    return parser


def _load(path: str) -> Config:
    from gateway.filter_loader import validate_filters

    config = load_config(path)
    validate_filters(config)
    return config


def _check_config(args: argparse.Namespace) -> int:
    config = _load(args.config)
    print(f"# {config.source}: valid")
    print(yaml.safe_dump(masked_dump(config), sort_keys=False, allow_unicode=True), end="")
    return 0


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from gateway.app import create_app
    from gateway.server_protocol import http_protocol

    config = _load(args.config)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    app = create_app(config)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=args.host or config.server.host,
            port=args.port if args.port is not None else config.server.port,
            loop="uvloop",
            http=http_protocol(config.server),
            access_log=False,  # memorelay's own access log leaves out queries and credentials
            server_header=False,
            timeout_graceful_shutdown=int(config.server.shutdown_grace_s),
            log_level=args.log_level,
        )
    )
    server.run()
    return 0
