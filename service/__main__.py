"""Command line: `python -m service serve | spec [--rulesets DIR] | simulate <file> | verify <audit file> | receipt-key <file>
| apikey create <tenant>`."""
from __future__ import annotations

import sys
from typing import Any


def main(argv: list[str]) -> int:
    """Dispatch to a sub-command."""
    command = argv[0] if argv else "help"
    if command == "spec":
        from service.app import create_app
        from service.config import Config
        from service.spec import spec_yaml, write_ruleset_specs

        app = create_app(Config(testing=True))
        if argv[1:2] == ["--rulesets"] and len(argv) == 3:  # one file per ruleset in a folder
            from pathlib import Path

            for path in write_ruleset_specs(app, Path(argv[2])):
                print(path)
            return 0
        sys.stdout.write(spec_yaml(app))
        return 0
    if command == "serve":
        from service.devserver import serve

        return serve()
    if command == "simulate":
        from service.sim.cli import main as simulate

        return simulate(argv[1:])
    if command == "verify":
        from service.verify import main as verify

        return verify(argv[1:])
    if command == "receipt-key" and len(argv) in (2, 3) and argv[-1] in (argv[1], "--if-missing"):
        from service.api.kit.receipt_keys import rotate_file

        print(rotate_file(argv[1], if_missing=argv[-1] == "--if-missing"))
        return 0
    if command == "apikey" and len(argv) == 3 and argv[1] == "create" and argv[2].strip():
        from service.api.http.auth import create_key

        print(create_key(_redis_of_app(), argv[2].strip()))
        return 0
    print("usage: python -m service serve | spec [--rulesets DIR] | simulate <file> [--trials N] | verify <audit file> "
          "| receipt-key <file> [--if-missing] | apikey create <tenant>",
          file=sys.stderr)
    return 2


def _redis_of_app() -> Any:
    """The Redis client of an app built from the environment (for the `apikey` command)."""
    from service.app import create_app

    return create_app().extensions["referee.redis"].redis()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
