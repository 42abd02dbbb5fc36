import jax


def compiled(fn):
    return jax.jit(fn)
