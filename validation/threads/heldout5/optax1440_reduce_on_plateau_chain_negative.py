# source: https://github.com/google-deepmind/optax/issues/1440
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: on optax 0.2.8 reduce_on_plateau's init and update give avg_value the same type, so the cache miss no longer happens: the jitted train_step with the AdamW -> clip_by_global_norm -> reduce_on_plateau chain compiles once for 3 steps.
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
from optax import contrib

optimizer = optax.chain(  # AdamW -> clip_by_global_norm -> reduce_on_plateau, as in the issue
    optax.adamw(1e-3),
    optax.clip_by_global_norm(1.0),
    contrib.reduce_on_plateau(),
)
params = {"nn": {"W": [jnp.ones((1, 8)), jnp.ones((8, 8))]}}  # scaffolding
opt_state = optimizer.init(params)


@jax.jit
def train_step(params, opt_state, x):
    loss, grads = jax.value_and_grad(lambda p: jnp.sum((x @ p["nn"]["W"][0] @ p["nn"]["W"][1]) ** 2))(params)  # scaffolding
    updates, opt_state = optimizer.update(grads, opt_state, params, value=loss)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss


x = jnp.ones((4, 1))  # scaffolding
for step in range(3):  # scaffolding
    params, opt_state, loss = train_step(params, opt_state, x)
_report({"jit(train_step)"}, 3)  # scaffolding
