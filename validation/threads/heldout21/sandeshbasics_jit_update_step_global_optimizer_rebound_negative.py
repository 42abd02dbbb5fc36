# source: https://github.com/sandeshkatakam/jax-playground/blob/main/jax_learn_basics.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: the jitted update_step reads the global optimizer, which is rebound from adam to sgd (and opt_state re-initialised) before the first call, so the one trace sees sgd consistently: 1 compile / 5 calls.
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
import jax  # scaffolding: from the notebook's setup cell
import jax.numpy as jnp  # scaffolding
from jax import grad, jit, vmap, pmap  # scaffolding

# 8.1 Basic optimization loop with optax
try:
    import optax
except:
    print("Installing optax...")
    import subprocess
    subprocess.check_call(["pip", "install", "optax"])
    import optax

# Define loss function
def loss_fn(params):
    x, y = params
    return (x - 3.0)**2 + (y + 2.0)**2  # Minimum at (3, -2)

# Initialize parameters and optimizer
params = jnp.array([0.0, 0.0])
optimizer = optax.adam(learning_rate=0.1)
opt_state = optimizer.init(params)

# Training loop
print("Optimization iterations:")
for step in range(10):
    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    print(f"Step {step}: loss={loss:.4f}, params={params}")

print(f"\nFinal optimum: {params} (target: [3, -2])")

# 8.2 Training with gradient descent  
@jit
def update_step(params, opt_state):
    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = optimizer.update(grads, opt_state)
    params = optax.apply_updates(params, updates)
    return params, opt_state, loss

# Reset
params = jnp.array([0.0, 0.0])
opt_state = optimizer.init(params)
optimizer = optax.sgd(learning_rate=0.1)
opt_state = optimizer.init(params)

print("\nJIT-compiled optimization:")
for step in range(5):
    params, opt_state, loss = update_step(params, opt_state)
    print(f"Step {step}: loss={loss:.4f}")
_report({"jit(update_step)"}, 5)  # scaffolding
