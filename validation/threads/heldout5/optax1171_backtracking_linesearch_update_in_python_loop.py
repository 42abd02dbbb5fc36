# source: https://github.com/google-deepmind/optax/issues/1171
# expect: jit-in-loop-or-body at line 46
# runtime: COMPILES 3 CALLS 3
# why: the optimizer's update is called eagerly in a Python loop; scale_by_backtracking_linesearch's update_fn defines cond_fn/body_fn locally and runs jax.lax.while_loop on them, so each un-jitted update traces and compiles the line-search loop again (3 updates, 3 compiles of the while loop).
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


import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
import optax


def value_fn(params):  # scaffolding: 'a small value function' (the reporter's is in a zip)
    return jnp.sum((params - 1.0) ** 2) + jnp.sum(params ** 4)  # scaffolding


solver = optax.chain(  # scaffolding: the usual way the line search is chained
    optax.sgd(learning_rate=1.0),  # scaffolding
    optax.scale_by_backtracking_linesearch(max_backtracking_steps=15, store_grad=True),  # scaffolding
)  # scaffolding
params = jnp.zeros((4,))  # scaffolding
opt_state = solver.init(params)  # scaffolding
value_and_grad = optax.value_and_grad_from_state(value_fn)  # scaffolding

for _ in range(3):  # scaffolding: 3 optimisation steps
    value, grad = value_and_grad(params, state=opt_state)
    updates, opt_state = solver.update(
        grad, opt_state, params, value=value, grad=grad, value_fn=value_fn
    )
    params = optax.apply_updates(params, updates)
_report({"jit(while)"}, 3)  # scaffolding
