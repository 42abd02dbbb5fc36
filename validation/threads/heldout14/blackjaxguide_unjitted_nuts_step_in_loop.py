# source: https://blackjax-devs.github.io/blackjax/examples/speed_up_guide.html
# expect: jit-in-loop-or-body at line 45
# runtime: COMPILES 5 CALLS 5
# why: the guide's "slow" loop calls the un-jitted nuts.step every iteration, so the while loop inside the kernel is rebuilt from fresh closures and compiled again on every call.

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

# ✗ slow — recompiles on every call
for i in range(5):  # scaffolding: 1000 in the guide
    state, info = nuts.step(key, state)
    calls += 1  # scaffolding
_report({"jit(while)"}, calls)  # scaffolding
