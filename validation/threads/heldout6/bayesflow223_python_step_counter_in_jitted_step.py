# source: https://github.com/bayesflow-org/bayesflow/issues/223
# expect: stale-closure at line 48
# runtime: COMPILES 1 CALLS 3
# why: the jitted training step advances the schedule with self.current_step += 1, a Python side effect that runs only while tracing; the compiled step is reused, so the counter stops at 1 and the discretization schedule stays at its first value for every later step.

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
from functools import partial

import jax
import jax.numpy as jnp


class ConsistencyModel:
    def __init__(self, total_steps=10, s0=2, s1=50):
        self.total_steps, self.s0, self.s1 = total_steps, s0, s1
        self.current_step = 0

    def _schedule(self):
        k = self.current_step / self.total_steps
        return jnp.floor(jnp.sqrt(k * ((self.s1 + 1) ** 2 - self.s0**2) + self.s0**2) - 1) + 1

    @partial(jax.jit, static_argnums=0)
    def train_step(self, params, x):
        n_disc = self._schedule()
        loss = jnp.mean((params * x) ** 2) / n_disc
        self.current_step += 1
        return params - 0.1 * jax.grad(lambda p: jnp.mean((p * x) ** 2))(params), loss, n_disc


model = ConsistencyModel()
params, x = jnp.ones(3), jnp.arange(3.0)
schedules = []
for _ in range(3):
    params, loss, n_disc = model.train_step(params, x)
    schedules.append(float(n_disc))
print("current_step:", model.current_step, "schedule:", schedules)
_report({"jit(train_step)"}, 3)
