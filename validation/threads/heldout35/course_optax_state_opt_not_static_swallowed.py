# source: https://github.com/RandomAnass/Data-Analysis-Course/blob/30536aacc0337b15523cbb8b04a66fa7ee97ff0e/JAX_Tutorial.ipynb
# expect: trace-time-error at line 109
# runtime: ERROR TypeError
# why: Cell 68 jits train_step_optax(state, x, y, opt) with a plain @dataclass TrainState and an optax GradientTransformation as ordinary arguments; jit cannot abstract them (TypeError), and the cell's broad `except Exception` reports it as 'Optax not available'.

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
import os, sys, math, time, functools, itertools, pickle
from dataclasses import dataclass
from typing import Any, Tuple, Dict

import jax
import jax.numpy as jnp
from jax import jit, grad, value_and_grad, random, lax, vmap, jacrev, jacfwd
import numpy as np


def make_toy_data(k, n_per_class=512, spread=0.7, seed=0):
    key = random.PRNGKey(seed)
    key1, key2 = random.split(key)
    c0 = random.normal(key1, (n_per_class, 2)) * spread + jnp.array([0., -k])
    c1 = random.normal(key2, (n_per_class, 2)) * spread + jnp.array([0., k])
    X = jnp.concatenate([c0, c1], axis=0)
    y = jnp.concatenate([-jnp.ones((n_per_class,)), jnp.ones((n_per_class,))], axis=0)
    return X, y

X, y = make_toy_data(2.5)

def init_mlp(key, sizes):
    keys = random.split(key, len(sizes)-1)
    params = []
    for k, (m, n) in zip(keys, zip(sizes[:-1], sizes[1:])):
        W = random.normal(k, (m, n)) / jnp.sqrt(m)
        b = jnp.zeros((n,))
        params.append((W, b))
    return params

def mlp_apply(params, x):
    for (W, b) in params[:-1]:
        x = jnp.tanh(x @ W + b)
    W, b = params[-1]
    return x @ W + b  # logits

def binary_loss(params, x, y):
    logits = mlp_apply(params, x).squeeze(-1)
    return jnp.mean(jnp.logaddexp(0.0, -y * logits))  # logistic loss

@jit
def train_step(params, x, y, lr=1e-2):
    loss, grads = value_and_grad(binary_loss)(params, x, y)
    # grads = clip_by_global_norm(grads, 1.0)  # optional
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)  # scaffolding: jax.tree_map removed
    return params, loss

try:
    import optax

    def make_optimizer(lr=1e-3, wd=1e-4):
        return optax.chain(
            optax.clip_by_global_norm(1.0),
            optax.adamw(learning_rate=lr, weight_decay=wd)
        )

    @dataclass
    class TrainState:
        params: Any
        opt_state: Any

    def init_train_state(params, opt):
        return TrainState(params=params, opt_state=opt.init(params))

    def apply_updates(params, updates):
        return optax.apply_updates(params, updates)

    @jit
    def train_step_optax(state, x, y, opt):
        loss, grads = value_and_grad(binary_loss)(state.params, x, y)
        updates, new_opt_state = opt.update(grads, state.opt_state, state.params)
        new_params = apply_updates(state.params, updates)
        return TrainState(new_params, new_opt_state), loss

    # Demo on MLP data
    key = random.PRNGKey(0)
    params0 = init_mlp(key, [2, 64, 64, 1])
    opt = make_optimizer(1e-2, 1e-4)
    state = init_train_state(params0, opt)
    for step in range(200):
        state, l = train_step_optax(state, X, y, opt)
    print('Optax demo loss:', float(l))
    _report({"jit(train_step_optax)"}, 200)  # scaffolding

except Exception as e:
    print('Optax not available:', e)
    print(f"ERROR {type(e).__name__}")  # scaffolding
