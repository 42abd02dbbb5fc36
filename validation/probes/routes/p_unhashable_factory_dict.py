# source: https://docs.jax.dev/en/latest/_autosummary/jax.jit.html (static_argnums: hashable)
# expect: JIT301 at line 19
# runtime: ERROR ValueError
import functools

import jax
import jax.numpy as jnp


def make_options(eps):
    return {"eps": eps, "axis": 0}


@functools.partial(jax.jit, static_argnames="options")
def normalize(x, options):
    return x / (jnp.linalg.norm(x, axis=options["axis"]) + options["eps"])


print(normalize(jnp.ones(3), options=make_options(1e-6)))
