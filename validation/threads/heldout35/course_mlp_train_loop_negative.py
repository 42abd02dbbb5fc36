# source: https://github.com/RandomAnass/Data-Analysis-Course/blob/30536aacc0337b15523cbb8b04a66fa7ee97ff0e/JAX_Tutorial.ipynb
# expect: none
# runtime: COMPILES 1 CALLS 50
# why: Cell 60: a module-level @jit train_step with a default lr keyword (never passed) called in a Python loop on fixed full-batch arrays compiles once.

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

key = random.PRNGKey(0)
params = init_mlp(key, [2, 64, 64, 1])

losses = []
for step in range(50):  # scaffolding: was 400
    params, l = train_step(params, X, y)
    losses.append(float(l))
print('final MLP loss:', losses[-1])  # scaffolding
_report({"jit(train_step)"}, 50)  # scaffolding
