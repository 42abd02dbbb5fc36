# source: https://github.com/mathisgerdes/iaifi-generative-models/blob/86acc8431ff0f48b2b7ca7bf418102252e010818/notebooks/nb2c_distillation_solution.ipynb
# expect: none
# runtime: COMPILES 2 CALLS 6
# why: make_pairs calls the nnx.jit-compiled ode_solve_span once per 4096-sample chunk in a Python loop; n_steps and kind are static and constant, t0/t1 are the same Python floats and every chunk has the same shape, so one compile serves all chunks (the second compile is the 2048-sample smoke test, a different shape), and the Python if on kind is on a static string.
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


rngs = nnx.Rngs(0)
# %% cell 1
teacher = gm.models.TimeMLP(
    dim=2, hidden=128, depth=3, time_dim=32, rngs=nnx.Rngs(params=0)
)
# (checkpoint load removed: scaffolding)
# %% cell 2
T_MIN = 1e-2
TEACHER_STEPS = 20  # scaffolding: 50 in the notebook

alpha = lambda t: jnp.sin(jnp.pi * t / 2)
sigma = lambda t: jnp.cos(jnp.pi * t / 2)


@partial(nnx.jit, static_argnums=(4, 5))
def ode_solve_span(model, x, t0, t1, n_steps, kind="eps"):
    """Fixed-step Euler integration of the PF-ODE from t0 to t1.

    x: (B, d) state at time t0  ->  (B, d) state at time t1.
    kind="eps": model predicts noise (diffusion; trig-VP conversion built in);
    kind="velocity": model output is dx/dt directly (flow matching).
    """
    ts = jnp.linspace(t0, t1, n_steps + 1)

    def euler_step(x, i):
        t, dt = ts[i], ts[i + 1] - ts[i]
        out = model(x, jnp.full(x.shape[0], t))
        if kind == "eps":
            a = (jnp.pi / 2) / jnp.tan(jnp.pi * t / 2)
            b = -(jnp.pi / 2) / jnp.sin(jnp.pi * t / 2)
            v = a * x + b * out
        else:
            v = out
        return x + dt * v, None

    x, _ = jax.lax.scan(euler_step, x, jnp.arange(n_steps))
    return x


def ode_solve(model, z, n_steps, kind="eps"):
    """Full generation z -> x; grid [T_MIN, 1 - T_MIN] for eps, [0, 1] for velocity."""
    t0, t1 = (T_MIN, 1 - T_MIN) if kind == "eps" else (0.0, 1.0)
    return ode_solve_span(model, z, t0, t1, n_steps, kind)


# Smoke test: the teacher still draws the spiral.
z_smoke = jax.random.normal(jax.random.key(0), (2048, 2))
x_smoke = ode_solve(teacher, z_smoke, TEACHER_STEPS)
# %% cell 3
N_PAIRS = 16384
CHUNK = 4096
keys_data = jax.random.split(jax.random.key(1), N_PAIRS // CHUNK)  # one key per chunk
keys_val = jax.random.split(jax.random.key(2), 1)  # held-out chunk for §3


def make_pairs(model, keys, chunk_size, n_steps, kind="eps"):
    """Generate (z, x) distillation pairs with the teacher.

    keys: (K,) PRNG keys, one per chunk -> z: (K * chunk_size, 2),
    x: (K * chunk_size, 2) with x[i] = ODESolve(z[i]).
    """
    # SOLUTION
    z_chunks, x_chunks = [], []
    for key in keys:
        z = jax.random.normal(key, (chunk_size, 2))
        z_chunks.append(z)
        x_chunks.append(ode_solve(model, z, n_steps, kind))
    return jnp.concatenate(z_chunks), jnp.concatenate(x_chunks)
    # END SOLUTION
# (cell 4, the 128-sample shape check, is skipped: scaffolding)
# %% cell 5
t0 = time.perf_counter()
z_data, x_data = make_pairs(teacher, keys_data, CHUNK, TEACHER_STEPS)
z_val, x_val = make_pairs(teacher, keys_val, CHUNK, TEACHER_STEPS)
n_total = z_data.shape[0] + z_val.shape[0]
print(f"{n_total} pairs in {time.perf_counter() - t0:.1f} s "
      f"(one-time teacher bill: {n_total * TEACHER_STEPS:,} NFE)")
_report({"jit(ode_solve_span)"}, 1 + 4 + 1)  # scaffolding
