# source: https://blackjax-devs.github.io/blackjax/examples/speed_up_guide.html
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the guide's "fast" version wraps nuts.step in jax.jit once outside the loop, so the step is compiled once and reused.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import blackjax  # scaffolding


def logdensity(x):  # scaffolding: the guide does not define a model
    return -0.5 * jnp.sum(x**2)  # scaffolding


nuts = blackjax.nuts(logdensity, step_size=0.1, inverse_mass_matrix=jnp.ones(2))  # scaffolding
state = nuts.init(jnp.zeros(2))  # scaffolding
key = jax.random.key(0)  # scaffolding
calls = 0  # scaffolding

# ✓ fast — compile once, run many
step = jax.jit(nuts.step)
for i in range(5):  # scaffolding: 1000 in the guide
    state, info = step(key, state)
    calls += 1  # scaffolding
_report({"jit(step_fn)", "jit(while)"}, calls)  # scaffolding
