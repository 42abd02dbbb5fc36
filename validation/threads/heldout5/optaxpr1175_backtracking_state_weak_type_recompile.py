# source: https://github.com/google-deepmind/optax/pull/1175
# expect: shape-churn at line 55
# runtime: COMPILES 2 CALLS 3
# why: the line search's init still returns info.num_linesearch_steps as the Python int 0 (weak-typed) while update returns a strong int32, so the opt_state given to the jitted update changes type after the first step and update is compiled twice (the PR fixed value and decrease_error, the weak_type mismatch it was about, but not this field).
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


def value_fn(params):  # scaffolding
    return jnp.sum((params - 1.0) ** 2)  # scaffolding


solver = optax.chain(  # scaffolding
    optax.sgd(learning_rate=1.0),  # scaffolding
    optax.scale_by_backtracking_linesearch(max_backtracking_steps=15, store_grad=True),
)  # scaffolding
params = jnp.zeros((4,))  # scaffolding
opt_state = solver.init(params)
value_and_grad = optax.value_and_grad_from_state(value_fn)


@jax.jit
def update(params, opt_state):
    value, grad = value_and_grad(params, state=opt_state)
    updates, opt_state = solver.update(
        grad, opt_state, params, value=value, grad=grad, value_fn=value_fn
    )
    return optax.apply_updates(params, updates), opt_state


for _ in range(3):  # scaffolding
    params, opt_state = update(params, opt_state)
_report({"jit(update)"}, 3)  # scaffolding
