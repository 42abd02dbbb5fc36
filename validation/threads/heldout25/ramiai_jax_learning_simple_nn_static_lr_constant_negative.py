# source: https://github.com/RamiAI/jax-learning/blob/98df114333bb363282463c70256252298ce0cc2e/src/jax_learning/simple_nn.py
# expect: none
# runtime: COMPILES 1 CALLS 200
# why: lr is a static float, but it is the same constant 1e-2 on every call, so update compiles once for its 200 calls.
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


from functools import partial

import jax
import jax.numpy as jnp
# import matplotlib.pyplot as plt  # scaffolding: not installed; the plot at the end is left out
import numpy as np
from jax import tree_util


def init_mlp_params(layer_widths):
    params = []

    for n_in, n_out in zip(layer_widths[:-1], layer_widths[1:]):
        params.append({'weights': np.random.normal(size=(n_in, n_out)) * np.sqrt(2 / n_in),
                       'biases': np.random.normal(size=(n_out,))})
    return params


def forward(params, x):
    *hidden, last = params

    for layer in hidden:
        x = jax.nn.relu(x @ layer['weights'] + layer['biases'])

    return jnp.dot(x, last['weights']) + last['biases']


def loss_fn(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)


@partial(jax.jit, static_argnames=['lr'])
def update(params, x, y, lr):
    grads = jax.grad(loss_fn)(params, x, y)

    return tree_util.tree_map(
        lambda p, g: p - lr * g,
        params,
        grads,
    )


def main():
    lr = 1e-2

    params = init_mlp_params([1, 64, 64, 1])
    print(tree_util.tree_map(lambda x: x.shape, params))

    xs = np.random.normal(size=(128, 1))
    ys = np.sin(3 * xs)

    num_epochs = 200  # scaffolding: 5_000 in the repo
    for _ in range(num_epochs):
        params = update(params, xs, ys, lr)

    # plt.scatter(xs, ys)  # scaffolding
    # plt.scatter(xs, forward(params, xs), label="Model prediction")  # scaffolding
    # plt.legend()  # scaffolding
    # plt.show()  # scaffolding
    print(float(loss_fn(params, xs, ys)))  # scaffolding


if __name__ == '__main__':
    main()
    _report({"jit(update)"}, 200)  # scaffolding
