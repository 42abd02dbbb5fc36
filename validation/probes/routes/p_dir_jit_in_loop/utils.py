import jax


def run_jitted(fn, x):
    return jax.jit(fn)(x)
