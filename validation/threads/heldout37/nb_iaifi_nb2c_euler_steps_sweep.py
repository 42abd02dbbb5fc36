# source: https://github.com/mathisgerdes/iaifi-generative-models/blob/86acc8431ff0f48b2b7ca7bf418102252e010818/notebooks/nb2c_distillation_solution.ipynb
# expect: changing-static at line 116
# runtime: COMPILES 6 CALLS 6
# why: Cell 15 sweeps the teacher over n in (1, 2, 4, 8, 16, TEACHER_STEPS) Euler steps; n_steps is a static argument of the nnx.jit-compiled ode_solve_span (it sets the scan length), so every call of the sweep is a fresh trace and compile (6 compiles for 6 calls).
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


def energy_distance(x, y):  # scaffolding: stand-in for gm.metrics.energy_distance
    return jnp.mean(jnp.linalg.norm(x[:, None] - y[None], axis=-1)) - 0.5 * (
        jnp.mean(jnp.linalg.norm(x[:, None] - x[None], axis=-1)) + jnp.mean(jnp.linalg.norm(y[:, None] - y[None], axis=-1)))


gm.metrics = type("metrics", (), {"energy_distance": staticmethod(energy_distance)})  # scaffolding
teacher = gm.models.TimeMLP(dim=2, hidden=128, depth=3, time_dim=32, rngs=nnx.Rngs(params=0))  # scaffolding: checkpoint not loaded
z_eval = jax.random.normal(jax.random.key(3), (512, 2))  # scaffolding
x_target = jax.random.normal(jax.random.key(4), (512, 2))  # scaffolding
# %% cell 2
T_MIN = 1e-2
TEACHER_STEPS = 50  # comfortable default

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
# %% cell 15
# Baseline: the raw teacher at few Euler steps (NB1's naive way to cut NFE).
euler_ed = {n: float(gm.metrics.energy_distance(ode_solve(teacher, z_eval, n), x_target))
            for n in (1, 2, 4, 8, 16, TEACHER_STEPS)}
print(euler_ed)
_report({"jit(ode_solve_span)"}, 6)  # scaffolding
