# source: https://github.com/patrick-kidger/equinox/issues/1097
# expect: unhashable-static at line 67
# runtime: ERROR ValueError
# why: The doc's MyModule keeps its layers in a list, so the non-array half from eqx.partition is a Module holding a list; jax.jit hashes it as static argument 1 and raises ValueError (non-hashable static argument: unhashable type 'list') on the first call.

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
import equinox as eqx  # scaffolding: the doc's model, x and y
import jax  # scaffolding


class MyModule(eqx.Module):  # scaffolding
    layers: list
    extra_bias: jax.Array

    def __init__(self, key):
        key1, key2, key3 = jax.random.split(key, 3)
        self.layers = [eqx.nn.Linear(2, 8, key=key1),
                       eqx.nn.Linear(8, 8, key=key2),
                       eqx.nn.Linear(8, 2, key=key3)]
        self.extra_bias = jax.numpy.ones(2)

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = jax.nn.relu(layer(x))
        return self.layers[-1](x) + self.extra_bias


x_key, y_key, model_key = jax.random.split(jax.random.PRNGKey(0), 3)  # scaffolding
model = MyModule(model_key)  # scaffolding
x = jax.random.normal(x_key, (100, 2))  # scaffolding
y = jax.random.normal(y_key, (100, 2))  # scaffolding

import functools as ft  # scaffolding


@ft.partial(jax.jit, static_argnums=1)  # `static` must be a PyTree of non-arrays.
@jax.grad  # differentiates with respect to `params`, as it is the first argument
def loss(params, static, x, y):
    model = eqx.combine(params, static)
    pred_y = jax.vmap(model)(x)
    return jax.numpy.mean((y - pred_y) ** 2)

params, static = eqx.partition(model, eqx.is_array)
try:  # scaffolding
    loss(params, static, x, y)
    _report({"jit(loss)"}, 1)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
