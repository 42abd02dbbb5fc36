# source: https://github.com/Farama-Foundation/Jumpy/issues/29
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: jumpy's random_split picks numpy or jax by the input's type, so the same function gives different keys eagerly (numpy) and under jit (traced, jax); each jitted function still compiles once.
# --- measurement harness: counts XLA backend compiles per jitted function name ---
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
from jax import monitoring as _monitoring

_COMPILED = []  # one entry per XLA compile, e.g. "jit(step)"


def _on_duration(event, duration_secs, **kwargs):
    if event == "/jax/core/compile/backend_compile_duration":
        _COMPILED.append(kwargs.get("fun_name"))


_monitoring.register_event_duration_secs_listener(_on_duration)


def _report(targets, calls):
    n = sum(1 for name in _COMPILED if name in targets)
    print(f"COMPILES {n} CALLS {calls}")
# Farama-Foundation/Jumpy issue #29: the reporter's script, with jumpy.py's random functions (89be4d0, the release the issue ran) inlined
import builtins  # jumpy.py
from typing import Any  # jumpy.py

import numpy as onp  # jumpy.py
import jax  # jumpy.py
from jax import numpy as jnp  # jumpy.py
from jax._src.interpreters.batching import BatchTracer  # scaffolding: jumpy.py imports it from jax.interpreters.batching, removed from the public module

tree_map = jax.tree_util.tree_map  # jumpy.py
_has_jax = True  # jumpy.py
ndarray = onp.ndarray  # scaffolding: annotation alias


def _which_np(*args: Any):
    if _has_jax is False:
        return onp

    checker = lambda a: (  # noqa: E731
        isinstance(a, (jnp.ndarray, BatchTracer)) and not isinstance(a, onp.ndarray)
    )
    if builtins.any(jax.tree_util.tree_leaves(tree_map(checker, args))):
        return jnp
    return onp


def random_prngkey(seed: int) -> ndarray:
    """Returns a PRNG key given a seed."""
    if _which_np() is jnp:
        return jax.random.PRNGKey(seed)
    else:
        rng = onp.random.default_rng(seed)
        return rng.integers(low=0, high=2**32, dtype="uint32", size=2)



def random_split(rng: ndarray, num: int = 2) -> ndarray:
    """Splits a PRNG key into num new keys by adding a leading axis."""
    if _which_np(rng) is jnp:
        return jax.random.split(rng, num=num)
    else:
        rng = onp.random.default_rng(rng)
        return rng.integers(low=0, high=2**32, dtype="uint32", size=(num, 2))



class jp:  # scaffolding: `import jumpy as jp` stand-in exposing the functions above
    random_split = staticmethod(random_split)
    random_prngkey = staticmethod(random_prngkey)


def jp_prng(rng):
	return jp.random_split(rng)   # jit --> uses jax, non-jit --> uses numpy.


def jax_prng(rng):
	return jax.random.split(rng)


jp_prng_jit = jax.jit(jp_prng)
jax_prng_jit = jax.jit(jax_prng)

seed = jp.random_prngkey(0)  # always returns a numpy array (regardless of input type).

jax_key_jit = jax_prng_jit(seed)
jax_key = jax_prng(seed)

jp_key_jit = jp_prng_jit(seed)
jp_key = jp_prng(seed)

print(f"jax: {onp.isclose(jax_key_jit, jax_key).all()}")   # --> jax: True
print(f"jumpy: {onp.isclose(jp_key, jp_key_jit).all()}")  # --> jumpy: False
_report({"jit(jp_prng)", "jit(jax_prng)"}, 2)  # scaffolding
