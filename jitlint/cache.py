"""A content-addressed cache of per-file lint results, on by default.

An entry's key hashes everything that can change a file's findings: jitlint's version and
the size and mtime of its own source files, the Python version, the settings' fingerprint, the file's path and bytes, and, for results that
used the cross-module index, the summaries of the modules the file depends on.  So nothing is
ever invalidated explicitly: a changed input is simply a different key.

Entries are single files written atomically (a temporary file, then ``os.replace``), so
concurrent jitlint processes sharing a directory never see a half-written entry; an entry that
cannot be read or unpickled (truncated, corrupt, from another version) counts as a miss and is
rebuilt.  Unpickling is restricted to jitlint's own result types and plain builtins.
``ResultCache.shared`` builds an entry once for processes that need it at the same time (the
flake8 plugin's workers): the first builds it under a lock file, the others wait and read it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import os
import pickle
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Optional

from jitlint import __version__

CACHE_DIR_NAME = ".jitlint_cache"
_FORMAT = "2"  # bump when the pickled types change shape
_SAFE_BUILTINS = {"list", "dict", "tuple", "set", "frozenset", "str", "int", "float", "bool",
                  "NoneType", "bytes"}


def _code_fingerprint() -> str:
    """jitlint's own source files (path, size, mtime): a development checkout whose rules
    changed without a version bump must not serve results of the old rules."""
    package = Path(__file__).resolve().parent
    parts = []
    for path in sorted(package.rglob("*.py")):
        try:
            stat = path.stat()
        except OSError:
            continue
        parts.append(f"{path.relative_to(package)}:{stat.st_size}:{stat.st_mtime_ns}")
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=16).hexdigest()


class _ResultUnpickler(pickle.Unpickler):
    """Loads only classes: jitlint's dataclasses (whose constructors only store fields),
    plain builtins, and pathlib/collections types.  A dotted name (``pathlib`` + ``os.system``)
    or any other object is refused: a crafted entry must not be able to run code."""

    def find_class(self, module: str, name: str) -> Any:
        if "." not in name:
            if module == "builtins" and name in _SAFE_BUILTINS:
                return super().find_class(module, name)
            if module.startswith("jitlint.") or module in ("pathlib", "collections"):
                found = super().find_class(module, name)
                if isinstance(found, type) and found.__module__ == module \
                        and (dataclasses.is_dataclass(found) or not module.startswith("jitlint.")):
                    return found
        raise pickle.UnpicklingError(f"refusing to load {module}.{name} from the cache")


def loads(blob: bytes) -> Any:
    """Unpickle what ResultCache stores (jitlint's result types and plain builtins only)."""
    return _ResultUnpickler(io.BytesIO(blob)).load()


class ResultCache:
    def __init__(self, directory: Path, fingerprint: str) -> None:
        self.directory = directory
        self._salt = "\0".join((_FORMAT, __version__, _code_fingerprint(), sys.version,
                                fingerprint)).encode()
        self._ready = False

    def key(self, path: str, data: bytes, extra: bytes = b"") -> str:
        digest = hashlib.blake2b(self._salt, digest_size=20)
        for part in (os.path.abspath(path).encode(), extra, data):
            digest.update(len(part).to_bytes(8, "little"))
            digest.update(part)
        return digest.hexdigest()

    def _entry(self, key: str) -> Path:
        return self.directory / key[:2] / key[2:]

    def get(self, key: str) -> Optional[Any]:
        try:
            return loads(self._entry(key).read_bytes())
        except Exception:  # missing, truncated, corrupt, foreign: a miss, rebuilt by the caller
            return None

    def shared(self, key: str, build: Callable[[], Optional[Any]]) -> Optional[Any]:
        """The entry ``key``, built by ``build()`` once for all the processes that ask for it:
        the first takes a lock (``fcntl.flock`` on a file next to the entry, released by the
        system if the process dies), builds and stores it; the others wait for the lock, then
        read the entry.  None when ``build()`` gives None, or when no lock can be taken (no
        ``fcntl``, a read-only directory): the caller then does without, rather than every
        process building the same entry."""
        value = self.get(key)
        if value is not None:
            return value
        try:
            import fcntl

            self._prepare()
            entry = self._entry(key)
            entry.parent.mkdir(exist_ok=True)
            lock = entry.parent / f".lock-{entry.name}"
            handle = open(lock, "ab")
        except (ImportError, OSError):
            return None
        with handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            value = self.get(key)  # built while this process waited
            if value is None:
                value = build()
                if value is not None:
                    self.put(key, value)
                try:
                    # A process that opens the file after this finds the entry once it holds
                    # the lock of its own new file: put() came first.
                    lock.unlink()
                except OSError:
                    pass
            return value

    def put(self, key: str, value: Any) -> None:
        try:
            self._prepare()
            entry = self._entry(key)
            entry.parent.mkdir(exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=entry.parent, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as handle:
                    pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(tmp, entry)
            except BaseException:
                os.unlink(tmp)
                raise
        except Exception:  # a read-only or full disk, an unpicklable value: we just do not cache
            pass

    def _prepare(self) -> None:
        if self._ready:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        ignore = self.directory / ".gitignore"
        if not ignore.exists():
            ignore.write_text("# Automatically created by jitlint.\n*\n")
        tag = self.directory / "CACHEDIR.TAG"
        if not tag.exists():
            tag.write_text("Signature: 8a477f597d28d172789f06886806bc55\n"
                           "# This is a cache directory created by jitlint.\n")
        self._ready = True
