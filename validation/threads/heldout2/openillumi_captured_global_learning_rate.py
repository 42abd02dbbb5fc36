# source: https://openillumi.com/en/en-jax-jit-external-variable-implicit-argument-jaxpr
# expect: stale-closure at line 46
# runtime: COMPILES 1 CALLS 2
# why: step reads the global extra_learning_rate, which is baked into the compiled step as a constant at the first trace; setting it to 0.01 before the second call changes nothing (no retrace, 1 compile for 2 calls), so the second step still scales by 0.1: a stale result.

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
import jax.numpy as jnp
import optax

optimizer = optax.adam(1e-2)  # scaffolding: the optax docs' training loop
params = {'w': jnp.ones(3)}  # scaffolding
opt_state = optimizer.init(params)  # scaffolding
batch, labels = jnp.ones((4, 3)), jnp.zeros(4)  # scaffolding

def loss(params, batch, labels):  # scaffolding
    return jnp.mean((batch @ params['w'] - labels) ** 2)  # scaffolding

extra_learning_rate = 0.1

@jax.jit
def step(params, opt_state, batch, labels):
    loss_value, grads = jax.value_and_grad(loss)(params, batch, labels)  # scaffolding
    updates, opt_state = optimizer.update(grads, opt_state, params)
    updates = jax.tree.map(lambda u: u * extra_learning_rate, updates)  # Using the external variable directly
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss_value

# Inside the loop
extra_learning_rate = 0.1
p1, _, _ = step(params, opt_state, batch, labels)
extra_learning_rate = 0.01 # Will this change affect the next step call?
p2, _, _ = step(params, opt_state, batch, labels)
print("second step used the old rate:", bool(jnp.allclose(p1['w'], p2['w'])))  # scaffolding
_report({"jit(step)"}, 2)  # scaffolding
