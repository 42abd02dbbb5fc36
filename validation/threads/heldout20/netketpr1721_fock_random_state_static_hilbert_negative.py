# source: https://github.com/netket/netket/pull/1721
# expect: none
# runtime: COMPILES 2 CALLS 10
# why: the jitted random-state helpers take the Hilbert space, shape and dtype as static arguments; equal (hashable) Hilbert objects and a fixed batch size hit the cache, so each helper compiles once for 5 draws.
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
# netket/netket PR #1721 (Rewrite random fock and spin in jax): netket/hilbert/random/fock.py as merged (580ea33d8)
import dataclasses  # scaffolding
from functools import partial

import jax
import numpy as np
from jax import numpy as jnp


@dataclasses.dataclass(frozen=True)  # scaffolding: netket's Fock hilbert space is hashable by value
class Fock:  # scaffolding
    n_max: int  # scaffolding
    N: int  # scaffolding
    n_particles: int | None = None  # scaffolding

    @property
    def size(self):  # scaffolding
        return self.N  # scaffolding

    @property
    def shape(self):  # scaffolding
        return (self.n_max + 1,) * self.N  # scaffolding


def random_state(hilb: Fock, key, batches: int, *, dtype=np.float32):
    shape = (batches,)

    # If unconstrained space, use fast sampling
    if hilb.n_particles is None:
        return _random_states_unconstrained(hilb, key, shape, dtype)
    else:
        return _random_states_with_constraint(hilb, key, shape, dtype)


@partial(jax.jit, static_argnames=("hilb", "shape", "dtype"))
def _random_states_unconstrained(hilb, key, shape, dtype):
    assert hilb.n_particles is None
    return jax.random.randint(
        key, shape=shape + (hilb.size,), minval=0, maxval=hilb.n_max + 1
    ).astype(dtype)


def _choice(key, p):
    """
    Replacement for jax.random.choice with the following differences:

    - p can only contain 0 or 1
    - the return value is not a number i, but a mask with a single 1 at index i,
      and the rest 0
    - it supports arbitrary leading batch axes for p

    Args:
        key: a jax.random.PRNGKey
        p: an integer/boolean vector of probabilities, can only contain 0 or 1
           and does not have to sum up to 1. Can have arbitrary many leading batch dimensions
    Returns:
        A mask with a single 1, selecting one of the 1's in every vector of p uniformly

    It is functionally equivalent to, but more efficient than the following function:

    import jax
    import jax.numpy as jnp

    def _choice_jax(key, p):
        p_flat = p.reshape(-1, p.shape[-1])
        @jax.vmap
        def _f(k,p):
            return jax.random.choice(k, len(p), p=p) == jnp.arange(len(p))
        keys = jax.random.split(key, len(p_flat))
        return _f(keys, p_flat).reshape(p.shape)
    """
    # p needs to be in [0, 1], of type integer or bool
    # in the following all the sites are indexed starting from 1
    # to distinguish between site 0 (now 1) and not selecting it
    # e.g  take p = [[1 0 0 1 0 1 1 0]]
    cs = jnp.cumsum(p, axis=-1)  # now  cs = [[1 1 1 2 2 3 4 4]]
    n_candidates = cs[..., -1]  # == p.sum(axis=-1, keepdims=True)
    # 1 is exlusive in random.uniform
    # +1 because we index starting from 1
    r = jax.random.uniform(key, p.shape[:-1]) * n_candidates + 1
    # now cs*p = [[1 0 0 2 0 3 4 0]] and floor(r) in [1,2,3,4]
    return (cs * p) == jax.lax.floor(r).astype(cs.dtype)[..., None]


@partial(jax.jit, static_argnames=("n_particles", "hilb_shape", "shape", "dtype"))
def _random_states_with_constraint_fock(n_particles, hilb_shape, key, shape, dtype):
    # Distribute hilb.n_particles onto hilb.size sites
    # and put at most hilb.shape-1 particles in every site.
    # Note that this is NOT a uniform distribution over the
    # basis states of the constrained hilbert space.

    assert n_particles is not None
    hilb_size = len(hilb_shape)

    # start with all sites empty
    init = jnp.zeros(shape + (hilb_size,), dtype=dtype)

    # if constrained and uniformly n_max == 2, use a trick to sample quickly
    if set(hilb_shape) == {2}:
        return jax.random.permutation(
            key, init.at[..., :n_particles].set(1), axis=-1, independent=True
        )

    # shape is per site n_max
    n_max = jnp.array(hilb_shape) - 1

    def body_fun(x, key):
        # select all sites which are not yet full
        p = x < n_max
        # uniformly select a site among the not yet full ones
        # and put a particle in it
        carry = x + _choice(key, p)
        return carry, None

    # iterate body_fun above n_particles times
    keys = jax.random.split(key, n_particles)
    return jax.lax.scan(body_fun, init, keys)[0]


@partial(jax.jit, static_argnames=("hilb", "shape", "dtype"))
def _random_states_with_constraint(hilb, key, shape, dtype):
    return _random_states_with_constraint_fock(
        hilb.n_particles, hilb.shape, key, shape, dtype
    )



# scaffolding: a sampler drawing initial chains for two Fock spaces, 5 times each (fresh keys, same batch size)
hilb_free = Fock(n_max=3, N=6)  # scaffolding
hilb_fixed = Fock(n_max=3, N=6, n_particles=4)  # scaffolding
key = jax.random.PRNGKey(0)  # scaffolding
for i in range(5):  # scaffolding
    key, k1, k2 = jax.random.split(key, 3)  # scaffolding
    s1 = random_state(hilb_free, k1, 16)  # scaffolding
    s2 = random_state(Fock(n_max=3, N=6, n_particles=4), k2, 16)  # scaffolding: a new but equal hilbert object each time
print(s1.shape, s2.sum(axis=-1)[:4])  # scaffolding
_report({"jit(_random_states_unconstrained)", "jit(_random_states_with_constraint)"}, 10)  # scaffolding
