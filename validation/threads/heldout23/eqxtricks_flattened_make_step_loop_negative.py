# source: https://docs.kidger.site/equinox/tricks/
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the page's flattened variant closes over the treedefs (global, fixed) and passes leaf lists across filter_jit; the loop compiles once.
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

import equinox as eqx  # scaffolding
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import optax  # scaffolding

optim = optax.sgd(1e-2)  # scaffolding

def loss_and_update(model, opt_state, x, y):  # scaffolding: the '...' of make_step
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)  # scaffolding
    updates, opt_state = optim.update(grads, opt_state)  # scaffolding
    return eqx.apply_updates(model, updates), opt_state  # scaffolding

def dataloader(n):  # scaffolding
    for i in range(n):  # scaffolding
        yield jnp.ones((8, 2)) * i, jnp.zeros((8, 1))  # scaffolding

@eqx.filter_jit
def make_step(flat_model, flat_opt_state, x, y):
    model = jax.tree_util.tree_unflatten(treedef_model, flat_model)
    opt_state = jax.tree_util.tree_unflatten(treedef_opt_state, flat_opt_state)
    update_model, update_opt_state = loss_and_update(model, opt_state, x, y)  # scaffolding: '...'
    flat_update_model = jax.tree_util.tree_leaves(update_model)
    flat_update_opt_state = jax.tree_util.tree_leaves(update_opt_state)
    return flat_update_model, flat_update_opt_state

model = eqx.nn.MLP(2, 1, 8, 1, key=jax.random.PRNGKey(0))  # scaffolding: 'model = ...'
opt_state = optim.init(eqx.filter(model, eqx.is_array))  # scaffolding: 'opt_state = ...'
flat_model, treedef_model = jax.tree_util.tree_flatten(model)
flat_opt_state, treedef_opt_state = jax.tree_util.tree_flatten(opt_state)

for batch_x, batch_y in dataloader(5):
    flat_model, flat_opt_state = make_step(flat_model, flat_opt_state, batch_x, batch_y)
model = jax.tree_util.tree_unflatten(treedef_model, flat_model)
_report({"jit(make_step)"}, 5)  # scaffolding
