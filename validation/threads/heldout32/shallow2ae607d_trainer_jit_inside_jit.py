# source: https://github.com/mdmould/shallow/commit/2ae607d60a5db08f9e2beb8ff076f6f86c83da4a
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: trainer jits value_and_grad(loss_fn) and then calls it inside the jitted update; the inner jit is inlined into update's trace, so twenty steps compile update once and the inner wrapper never compiles on its own (the commit, 'remove extra jit compile', dropped the redundant inner jit).

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
from copy import deepcopy

import jax
import jax.numpy as jnp
import optax
from tqdm import tqdm


class AffineFlow:  # scaffolding: stands in for shallow.numpyro's Flow/BARF (numpyro transforms cut)
    def __init__(self, dims):
        self.params = {"shift": jnp.zeros(dims), "log_scale": jnp.zeros(dims)}

    def log_prob(self, data, params):
        z = (data - params["shift"]) * jnp.exp(-params["log_scale"])
        return jnp.sum(-0.5 * z ** 2 - 0.5 * jnp.log(2 * jnp.pi) - params["log_scale"], axis=-1)

    def update_params(self, params):
        self.params = params


def trainer(data, flow, lr, steps):
    
    loss_fn = lambda params: -flow.log_prob(data, params).sum()
    loss_and_grad = jax.jit(jax.value_and_grad(loss_fn))
    
    params = flow.params
    opt = optax.adam(lr)
    state = opt.init(params)

    @jax.jit
    def update(params, state):

        loss, grads = loss_and_grad(params)
        updates, state = opt.update(grads, state)
        params = optax.apply_updates(params, updates)

        return params, state, loss    

    losses = []
    for step in tqdm(range(steps), disable=True):  # (disable=True added: keeps the progress bar off the output)
        params, state, loss = update(params, state)
        losses.append(loss)
        if loss == min(losses):
            best_params = deepcopy(params)

    flow.update_params(params)

    return flow, losses


data = jax.random.normal(jax.random.PRNGKey(0), (256, 2)) * 2.0 + 1.0  # scaffolding
flow, losses = trainer(data, AffineFlow(2), lr=1e-2, steps=20)  # scaffolding: 20 steps
_report({"jit(update)", "jit(<lambda>)", "jit(loss_fn)"}, 20)  # scaffolding
