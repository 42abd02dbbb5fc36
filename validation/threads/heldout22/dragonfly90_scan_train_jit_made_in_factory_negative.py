# source: https://github.com/dragonfly90/jax_learning/blob/a35a83d0b516112fa5111fb4424937a56d87ba2b/06_scan_and_control_flow.py
# expect: none
# runtime: COMPILES 1 CALLS 1
# why: make_train_step builds its @jax.jit scan_train once, and the single call compiles the whole 20-step lax.scan training loop once.
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
key = jax.random.PRNGKey(0)  # scaffolding (from section 3)

# ---- 4. Scan for training loops ----
# Avoids Python loop overhead, compiles the entire training as one XLA program

def make_train_step(loss_fn):
    @jax.jit
    def scan_train(params, data):
        def step(params, batch):
            x, y = batch
            loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
            new_params = jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)
            return new_params, loss
        return jax.lax.scan(step, params, data)
    return scan_train

def mse_loss(params, x, y):
    pred = x @ params['w'] + params['b']
    return jnp.mean((pred - y) ** 2)

params = {'w': jnp.zeros((3, 1)), 'b': jnp.float32(0.0)}
# Simulate 20 training steps with batched data
X_batches = jax.random.normal(key, (20, 8, 3))
Y_batches = jax.random.normal(key, (20, 8, 1))

train_fn = make_train_step(mse_loss)
final_params, losses = train_fn(params, (X_batches, Y_batches))
print(f"\nTraining losses (first 5): {losses[:5]}")
print(f"Training losses (last 5): {losses[-5:]}")
_report({"jit(scan_train)"}, 1)  # scaffolding
