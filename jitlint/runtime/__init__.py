"""Runtime side of jitlint: count real JAX compiles (``--confirm``, ``count_compiles()``).

Static linting imports only ``command.py`` (the CLI options).  No module here imports JAX at
import time: ``--confirm``'s parent side only runs subprocesses (``bootstrap.py`` runs in the
user's interpreter), and ``count_compiles()`` imports JAX when it is entered.
"""


def __getattr__(name):
    if name in ("count_compiles", "CompileCounts", "CompileEvent"):
        from jitlint.runtime import counting
        return getattr(counting, name)
    raise AttributeError(name)
