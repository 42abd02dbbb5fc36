# source: https://github.com/mathisgerdes/iaifi-generative-models/blob/86acc8431ff0f48b2b7ca7bf418102252e010818/notebooks/nb1_core.ipynb
# expect: none
# runtime: COMPILES 8 CALLS 48
# why: Cell 5 builds jax.jit(lambda x, net=net: ...) and jax.jit(fwd_and_div) inside a loop over four dimensions, but each wrapper belongs to a new network and input width and is reused for its warm-up and timed calls, and the net=net default binds each iteration's model (no late-binding closure), so each compiles once.
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


# --- end harness ---
import time
from functools import partial

import jax
import jax.numpy as jnp
import flax.nnx as nnx


# scaffolding: iaifi_gm.models.TimeMLP (the repository's helper package, src/iaifi_gm/models.py), inlined
def sinusoidal_time_embedding(t, dim):  # scaffolding
    half = dim // 2
    freqs = jnp.exp(-jnp.log(10000.0) * jnp.arange(half) / half)
    ang = t[..., None] * freqs
    return jnp.concatenate([jnp.sin(ang), jnp.cos(ang)], axis=-1)


class TimeMLP(nnx.Module):  # scaffolding
    def __init__(self, dim=2, hidden=128, depth=3, time_dim=32, *, rngs):
        self.time_dim = time_dim
        widths = [dim + time_dim] + [hidden] * depth
        self.layers = nnx.List(
            nnx.Linear(n_in, n_out, rngs=rngs)
            for n_in, n_out in zip(widths[:-1], widths[1:])
        )
        self.out = nnx.Linear(hidden, dim, rngs=rngs)

    def __call__(self, x, t):
        t = jnp.broadcast_to(jnp.asarray(t, x.dtype), x.shape[:-1])
        emb = sinusoidal_time_embedding(t, self.time_dim)
        h = jnp.concatenate([x, emb], axis=-1)
        for layer in self.layers:
            h = jax.nn.silu(layer(h))
        return self.out(h)


class gm:  # scaffolding: namespace standing in for `import iaifi_gm as gm`
    class models:
        TimeMLP = TimeMLP


# %% cell 5
# ⭐ Optional timing: divergence cost vs dimension (the "why not CNFs" demo).
def _mean_ms(f, x, reps=5):
    jax.block_until_ready(f(x))  # compile
    t0 = time.perf_counter()
    for _ in range(reps):
        jax.block_until_ready(f(x))
    return (time.perf_counter() - t0) / reps * 1e3


for dim in (2, 16, 64, 128):
    net = gm.models.TimeMLP(dim=dim, hidden=64, depth=2, rngs=nnx.Rngs(params=0))
    fwd = jax.jit(lambda x, net=net: net(x, 0.5))

    def fwd_and_div(x, net=net):  # divergence = trace of the Jacobian
        jac = jax.vmap(jax.jacfwd(lambda xi: net(xi, 0.5)))(x)
        return net(x, 0.5), jnp.trace(jac, axis1=-2, axis2=-1)

    x = jnp.zeros((256, dim))
    t_fwd, t_div = _mean_ms(fwd, x), _mean_ms(jax.jit(fwd_and_div), x)
    print(
        f"D = {dim:3d}:  forward {t_fwd:6.2f} ms   "
        f"forward + divergence {t_div:7.2f} ms   ratio {t_div / t_fwd:5.1f}x"
    )
print("(wall-clock understates the ~D FLOP cost at these tiny sizes -- the trend is what matters)")
_report({"jit(<lambda>)", "jit(fwd_and_div)"}, 4 * 12)  # scaffolding
