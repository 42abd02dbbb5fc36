"""jitlint: find JAX jit anti-patterns that recompile on every call, before they cost hours."""

__version__ = "0.1.0"


def load_ipython_extension(ipython):  # ``%load_ext jitlint``; IPython and JAX load only now
    from jitlint.ipython import load_ipython_extension as load

    load(ipython)


def unload_ipython_extension(ipython):
    from jitlint.ipython import unload_ipython_extension as unload

    unload(ipython)
