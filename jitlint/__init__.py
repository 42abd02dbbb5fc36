"""jitlint: find JAX jit anti-patterns that recompile on every call, before they cost hours."""

__version__ = "0.1.0"
