"""Where the source of an installed package's module is, found without importing anything.

``importlib.machinery.PathFinder`` searches ``sys.path`` (and a package's own directory for
its submodules) on the file system only: nothing is imported or executed, so the static path
never imports JAX or the package.  Only plain ``.py`` source is returned (no extension
modules, no zip imports); packages installed with a custom import hook (some editable
installs) are not found.
"""

from __future__ import annotations

import functools
import os
import sys
from importlib.machinery import PathFinder
from typing import Optional

# Packages whose jits and classes jitlint knows by name (jitnames, jaxfacts), the standard
# library, and large numeric libraries that define no jit wrapper: never read.
NOT_READ = frozenset(sys.stdlib_module_names) | frozenset({
    "jax", "jaxlib", "numpy", "scipy", "flax", "equinox", "optax", "chex", "haiku", "torch",
    "tensorflow", "pandas", "matplotlib", "jitlint", "__main__",
})
MAX_SOURCE_BYTES = 2_000_000  # a generated module this large holds no jit wrapper worth reading


@functools.lru_cache(maxsize=4096)
def module_source(name: str) -> Optional[str]:
    """The path of the ``.py`` file of installed module ``name`` (``pkg.sub``), or None."""
    parts = name.split(".")
    if not all(part.isidentifier() for part in parts) or parts[0] in NOT_READ:
        return None
    search = None
    spec = None
    for depth in range(len(parts)):
        try:
            spec = PathFinder.find_spec(".".join(parts[:depth + 1]), search)
        except (ImportError, OSError, ValueError):
            return None
        if spec is None:
            return None
        if depth < len(parts) - 1:
            search = spec.submodule_search_locations
            if not search:
                return None
    origin = spec.origin if spec is not None else None
    if not origin or not origin.endswith(".py"):
        return None
    try:
        if os.path.getsize(origin) > MAX_SOURCE_BYTES:
            return None
    except OSError:
        return None
    return origin
