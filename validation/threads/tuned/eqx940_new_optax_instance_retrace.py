# source: https://github.com/patrick-kidger/equinox/issues/940
# expect: changing-static at line 73
# runtime: ERROR RuntimeError
# why: eqx.filter_jit treats the optax GradientTransformation as static, and two optax.adam(...) objects with identical settings hash by the identity of their fresh closures, so step is traced and compiled again for the second optimizer (assert_max_traces(max_traces=1) raises on that call, as in the reporter's unit test).

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
from jaxtyping import Array, Float
import equinox as eqx
import optax
from jax import numpy as jnp
import jax


class Simple(eqx.Module):
    layer: eqx.nn.Linear

    def __init__(self, key):
        self.layer = eqx.nn.Linear(10, 1, key=key)

    def __call__(self, x: Float[Array, "10"]) -> Float[Array, "1"]:
        x = self.layer(x)
        return x


def loss_fn(model, x, y):
    y_pred = model(x)
    return jnp.mean((y - y_pred) ** 2)


loss_grad = eqx.filter_jit(eqx.filter_value_and_grad(eqx.debug.assert_max_traces(loss_fn, max_traces=1), has_aux=False))

def test_no_closure_two_opts():

    key = jax.random.PRNGKey(0)
    key1, key2 = jax.random.split(key)
    model = Simple(key)

    @eqx.filter_jit
    @eqx.debug.assert_max_traces(max_traces=1)
    def step(model, opt_state, x, y, optim):  # scaffolding: body below
        loss, grads = loss_grad(model, x, y)
        updates, opt_state = optim.update(grads, opt_state, model)
        return eqx.apply_updates(model, updates), opt_state

    x = jax.random.normal(key1, (10,))  # scaffolding
    y = jax.random.normal(key2, (1,))  # scaffolding
    opt1 = optax.adam(1e-3)  # scaffolding
    opt2 = optax.adam(1e-3)  # scaffolding
    opt_state = opt1.init(eqx.filter(model, eqx.is_array))  # scaffolding
    model, opt_state = step(model, opt_state, x, y, opt1)  # scaffolding
    model, opt_state = step(model, opt_state, x, y, opt2)

try:  # scaffolding
    test_no_closure_two_opts()
    _report({"jit(step)"}, 2)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
