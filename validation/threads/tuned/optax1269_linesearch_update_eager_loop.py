# source: https://github.com/google-deepmind/optax/issues/1269
# expect: jit-in-loop-or-body at line 52
# runtime: COMPILES 5 CALLS 5
# why: Each eager solver.update runs scale_by_backtracking_linesearch's lax.while_loop with cond/body functions defined afresh inside update_fn, so jit(while) is traced and compiled again on every iteration of the Python loop (5 compiles for 5 steps); jitting the step (or the whole loop) compiles it once.

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
import optax
import jax.numpy as jnp

def fn(x, y): 
    return jnp.sum((x+y) ** 2)
    
solver = optax.chain(
    optax.sgd(learning_rate=1.),
     optax.scale_by_backtracking_linesearch(
        max_backtracking_steps=15, store_grad=True
     )
    )
value_and_grad = optax.value_and_grad_from_state(fn)
params = jnp.array([1., 2., 3.])
y = jnp.array([4, 5, 6])

print('Objective function: {:.2E}'.format(fn(params, y)))

opt_state = solver.init(params)

try:  # scaffolding
    for _ in range(5):
        value, grad = value_and_grad(params, y, state=opt_state)
        updates, opt_state = solver.update(
          grad, opt_state, params, value=value, grad=grad, value_fn=fn, y=y
          )
        params = optax.apply_updates(params, updates)
        print('Objective function: {:.2E}'.format(fn(params, y)))
    _report({"jit(while)"}, 5)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
