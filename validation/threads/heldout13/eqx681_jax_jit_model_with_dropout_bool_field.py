# source: https://github.com/patrick-kidger/equinox/issues/681
# expect: trace-time-error at line 54
# runtime: ERROR TracerBoolConversionError
# why: make_step is wrapped in plain jax.jit, so the model pytree passed as a traced argument carries the Dropout layer's Python bool/float fields as tracers, and Dropout's `inference` check then raises TracerBoolConversionError while tracing.

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
from functools import partial
from typing import Callable, List, Tuple
import jax, jax.numpy as jnp, equinox as eqx, optax  # scaffolding
from jaxtyping import Array, PyTree, PRNGKeyArray  # scaffolding


class Net(eqx.Module):  # scaffolding: stand-in model with a Dropout layer
    lin: eqx.nn.Linear
    drop: eqx.nn.Dropout

    def __init__(self, key):
        self.lin = eqx.nn.Linear(4, 3, key=key)
        self.drop = eqx.nn.Dropout(p=0.1)

    def __call__(self, x, key):
        return self.drop(self.lin(x), key=key)


def compute_loss(model, x, y, pad_mask, n, k, num_classes, keys):  # scaffolding: stand-in
    def loss_fn(model):
        logits = jax.vmap(model)(x, keys)
        return jnp.mean(optax.softmax_cross_entropy(logits, jax.nn.one_hot(y, num_classes)))
    return eqx.filter_value_and_grad(loss_fn)(model)


@partial(jax.jit, static_argnums=(6, 8))
def make_step(model: eqx.Module, # replicated across devices
              x: Array, y: Array, pad_mask: Array, n: Array, k: Array, # Arrays
              optim: Callable, # static
              opt_state: Tuple[PyTree], # cannot be static marked static as tuple
              num_classes: int, # static
              keys: List[PRNGKeyArray]):
    
    loss, grads = compute_loss(model, x, y, pad_mask, n, k, num_classes, keys)
    updates, opt_state = optim.update(grads, opt_state, model)
    
    model = eqx.apply_updates(model, updates)
    
    return loss, model, opt_state


model = Net(jax.random.PRNGKey(0))  # scaffolding
optim = optax.adamw(1e-3)  # scaffolding
opt_state = optim.init(eqx.filter(model, eqx.is_array))  # scaffolding
x = jnp.ones((8, 4))  # scaffolding
y = jnp.zeros(8, jnp.int32)  # scaffolding
calls = 0  # scaffolding
try:  # scaffolding
    for step in range(3):  # scaffolding
        keys = jax.random.split(jax.random.PRNGKey(step), 8)  # scaffolding
        loss, model, opt_state = make_step(model, x, y, None, None, None, optim, opt_state, 3, keys)  # scaffolding
        calls += 1  # scaffolding
    _report({"jit(make_step)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
