"""``jitlint server``: a language server over stdio (the Language Server Protocol).

Editors get the findings of open documents as they are typed, the safe fixes and a
``# noqa: CODE`` as code actions, and each rule's explanation on hover.  The protocol side
(``jitlint/server/lsp.py``) needs the optional dependencies pygls and lsprotocol
(``pip install 'jitlint[server]'``); the linter's core never imports them, and nothing here
does until ``jitlint server`` runs.
"""

from __future__ import annotations

import sys

INSTALL_HINT = "pip install 'jitlint[server]'"
EXIT_ERROR = 2


def main() -> int:
    """Serve one editor on stdin/stdout until it says exit; the exit code is pygls's (0 after
    a shutdown request, as the protocol asks)."""
    try:
        from jitlint.server.lsp import serve
    except ImportError as exc:  # the extra is missing, or a pygls 1.x is installed
        if (exc.name or "").split(".")[0] not in ("pygls", "lsprotocol"):
            raise
        print(f"jitlint: error: `jitlint server` needs pygls>=2 and lsprotocol ({exc}); "
              f"install them with: {INSTALL_HINT}", file=sys.stderr)
        return EXIT_ERROR
    return serve()
