"""Command line: `python -m service serve | spec | simulate`."""
from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    """Dispatch to a sub-command."""
    command = argv[0] if argv else "help"
    if command == "spec":
        from service.app import create_app
        from service.config import Config
        from service.spec import spec_yaml

        sys.stdout.write(spec_yaml(create_app(Config(testing=True))))
        return 0
    if command == "serve":
        from service.devserver import serve

        return serve()
    print("usage: python -m service serve | spec", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
