# source: https://github.com/jax-ml/jax/issues/4472
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: the jitted one_step is built once and called with a Python int step j and fixed-size batches, so it compiles once for all 20 steps (the thread's slowness is not a recompile).
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
import jax
import jax.numpy as jnp
import numpy as np

relu = lambda x : jnp.maximum(x, 0)

def factory(key, model_sizes):
    key1, key2, key3 = jax.random.split(key, 3)
    h1, h2, h3, h4 = model_sizes
    m1 = jax.random.normal(key1, (h1, h2))
    m2 = jax.random.normal(key2, (h2, h3))
    m3 = jax.random.normal(key3, (h3, h4))
    params = (m1, m2, m3)

    def model(params, x):
        m1, m2, m3 = params
        y1 = relu(x @ m1)
        y2 = relu(y1 @ m2)
        y3 = relu(y2 @ m3)
        return y3

    def loss(params, x, y):
        y_pred = model(params, x)
        return .5 * jnp.mean((y - y_pred) ** 2)

    return params, model, loss

def train(params, loss, x, y, batch_size=100,
          learning_rate=.05, steps=200):
    grad_fn = jax.grad(loss)

    from jax.example_libraries.optimizers import sgd  # scaffolding: was jax.experimental.optimizers
    opt = sgd(learning_rate)
    opt_state = opt.init_fn(params)

    @jax.jit
    def one_step(j, opt_state, x, y):
        grads = grad_fn(opt.params_fn(opt_state), x, y)
        return opt.update_fn(j, grads, opt_state)

    n = x.shape[0]  # scaffolding: the batch loop below is cut off in the stored text
    for j in range(steps):
        i = (j * batch_size) % n
        opt_state = one_step(j, opt_state, x[i:i + batch_size], y[i:i + batch_size])
    return opt.params_fn(opt_state)


model_sizes = (500, 50, 50, 100)
params, model, loss = factory(jax.random.PRNGKey(0), model_sizes)
x = np.random.randn(400, 500).astype(np.float32)  # scaffolding
y = np.random.randn(400, 100).astype(np.float32)  # scaffolding
train(params, loss, x, y, steps=20)  # scaffolding: steps cut from 200
_report({"jit(one_step)"}, 20)
