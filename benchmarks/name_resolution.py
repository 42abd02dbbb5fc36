"""What name resolution costs: jitlint's semantic model against libcst's metadata providers.

    python benchmarks/name_resolution.py /tmp/jaxcorpus/corpus/jax/jax/_src/numpy

Times, over the same already-parsed modules: jitlint's one-pass semantic model
(jitlint/semantic.py: scopes, bindings, frames, call sites), libcst's ScopeProvider, and
libcst's ScopeProvider + QualifiedNameProvider (the naive design), plus the parse itself.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, QualifiedNameProvider, ScopeProvider

from jitlint.semantic import build_model


def main(argv: list[str]) -> int:
    files = sorted(p for arg in argv for p in (Path(arg).rglob("*.py") if Path(arg).is_dir() else [Path(arg)]))
    sources = [p.read_text(encoding="utf-8", errors="replace") for p in files]
    lines = sum(s.count("\n") for s in sources)

    start = time.perf_counter()
    modules = [cst.parse_module(s) for s in sources]
    parse = time.perf_counter() - start

    start = time.perf_counter()
    for module in modules:
        build_model(module)
    model = time.perf_counter() - start

    start = time.perf_counter()
    for module in modules:
        MetadataWrapper(module, unsafe_skip_copy=True).resolve(ScopeProvider)
    scope = time.perf_counter() - start

    start = time.perf_counter()
    for module in modules:
        wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        wrapper.resolve_many([ScopeProvider, QualifiedNameProvider])
    qualified = time.perf_counter() - start

    print(f"{len(files)} files, {lines} lines")
    print("| step | seconds | vs parse |")
    print("| --- | ---: | ---: |")
    for name, secs in (("libcst parse", parse), ("jitlint semantic model", model),
                       ("libcst ScopeProvider", scope),
                       ("libcst ScopeProvider + QualifiedNameProvider", qualified)):
        print(f"| {name} | {secs:.2f} | {secs / parse:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
