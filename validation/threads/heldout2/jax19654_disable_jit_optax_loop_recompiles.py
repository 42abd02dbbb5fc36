# source: https://github.com/jax-ml/jax/issues/19654
# expect: changing-static at line 45
# runtime: COMPILES 7 CALLS 5
# why: with jax_disable_jit on, optax's update runs eagerly and its step count is a concrete Python int, which becomes the static exponent of an integer_pow primitive; the exponent changes every step, so jit(integer_pow) compiles again on every iteration after the first (7 compiles in 5 iterations; a jitted loop compiles it once).

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


import jax
jax.config.update('jax_disable_jit', True)
import jax.numpy as jnp
import optax

x = jnp.ones(3)

def loss(x_):
    return jnp.sum(x_**2)

optimizer = optax.adam(1e-2)
opt_state = optimizer.init(x)
loss_vg = jax.grad(loss)
iterations = 500
for i in range(5):
    print('======', i, '======')
    grads = loss_vg(x)
    updates, opt_state = optimizer.update(grads, opt_state)
    x = optax.apply_updates(x, updates)
_report({"jit(integer_pow)"}, 5)  # scaffolding
