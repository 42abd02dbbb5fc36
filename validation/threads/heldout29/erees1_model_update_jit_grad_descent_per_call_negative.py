# source: https://github.com/erees1/jax-rl/blob/ee8fe81fbf4403afa7411703b4a5b30c5dd184a9/model.py
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: update() wraps the module-level grad_descent in jit(..., static_argnums=2) on every call, but the wrapper is keyed on the same function and the same static step_size, so it compiles once for 5 updates; the Python if on jnp.isnan(lo) runs under value_and_grad without jit and is concrete.
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
# ---- model.py ----
from jax import random, value_and_grad, jit, vmap
import jax.numpy as jnp
import logging

logger = logging.getLogger()


@jit
def predict(params, X):
    # per-example predictions
    activations = X
    for w, b in params[:-1]:
        outputs = jnp.dot(w, activations) + b
        activations = relu(outputs)

    final_w, final_b = params[-1]
    output = jnp.dot(final_w, activations) + final_b
    return output


def batch_func(predict_func):
    f = vmap(predict_func, in_axes=(None, 0))
    return f


def random_layer_params(m, n, key):
    w_key, b_key = random.split(key)
    return kaiming(w_key, m, n), jnp.zeros((n,))


def kaiming(key, m, n):
    return random.normal(key, (n, m)) * jnp.sqrt(2.0 / m)


# Initialize all layers for a fully-connected neural network with sizes "sizes"
def init_network_params(sizes, key):
    logger.info(f"Initializing model with layers {sizes}")
    keys = random.split(key, len(sizes))
    return [random_layer_params(m, n, k) for m, n, k in zip(sizes[:-1], sizes[1:], keys)]


def relu(x):
    return jnp.maximum(0, x)


def mse_loss(func, params, X, Y):
    preds = func(params, X)
    lo = jnp.mean(jnp.square(preds - Y))
    # if (lo > 50).all():
    #     print()
    if jnp.isnan(lo):
        raise ValueError(f"Loss went to nan, the predictions were {preds} and the target was {Y}")
    return lo


def update(func, params, X, Y, step_size=0.001, grad_clip=2):
    l, grads = value_and_grad(mse_loss, argnums=1)(func, params, X, Y)
    if jnp.isnan(grads[0][0]).any():
        raise ValueError(f"gradient went to nan, the inputs were {X} and the target was {Y}")

    grads = [
        (
            jnp.clip(dw, max=grad_clip, min=-grad_clip),  # scaffolding: a_max=/a_min= were removed from jnp.clip; same bounds
            jnp.clip(db, max=grad_clip, min=-grad_clip),  # scaffolding: same change
        )
        for (dw, db) in grads
    ]
    return l, jit(grad_descent, static_argnums=2)(params, grads, step_size)


def grad_descent(params, grads, step_size):
    return [(w - step_size * dw, b - step_size * db) for (w, b), (dw, db) in zip(params, grads)]


# ---- scaffolding: agent.py's Agent.update (erees1/jax-rl@858f18a) calls update() like this, once per training step ----
params = init_network_params([4, 16, 2], random.PRNGKey(0))  # scaffolding
key = random.PRNGKey(1)  # scaffolding
for step in range(5):  # scaffolding: five DQN updates on batches of 8
    key, k1, k2, k3 = random.split(key, 4)  # scaffolding
    observations = random.normal(k1, (8, 4))  # scaffolding
    actions = random.randint(k2, (8,), 0, 2)  # scaffolding
    target_Q_values = random.normal(k3, (8,))  # scaffolding

    def get_Q_for_actions(params, observations):  # scaffolding: agent.py's closure, verbatim body
        pred_Q_values = batch_func(predict)(params, observations)  # scaffolding
        idx = jnp.expand_dims(actions, -1)  # scaffolding
        pred_Q_values = jnp.take_along_axis(pred_Q_values, idx, -1).squeeze()  # scaffolding
        return pred_Q_values  # scaffolding

    loss, params = update(get_Q_for_actions, params, observations, target_Q_values, 0.001)  # scaffolding
print({n: _COMPILED.count(n) for n in ("jit(predict)", "jit(grad_descent)")})  # scaffolding
_report({"jit(grad_descent)"}, 5)  # scaffolding
