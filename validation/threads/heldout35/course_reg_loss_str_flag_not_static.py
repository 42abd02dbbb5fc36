# source: https://github.com/RandomAnass/Data-Analysis-Course/blob/30536aacc0337b15523cbb8b04a66fa7ee97ff0e/JAX_Tutorial.ipynb
# expect: trace-time-error at line 55
# runtime: ERROR TypeError
# why: Cell 51 ('Static args (e.g., a small Python "mode" flag)') decorates reg_loss with plain @jit and passes the string 'l2' positionally; without static_argnames the str is not a valid JAX type and the call raises TypeError when jit converts the arguments.

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

# Static args (e.g., a small Python "mode" flag)
@jit
def reg_loss(w, x, y, penalty: str = 'l2', lam: float = 1e-2):
    logits = x @ w
    nll = jnp.mean(jnp.logaddexp(0.0, -y * logits))
    if penalty == 'l2':
        reg = 0.5 * lam * jnp.sum(w * w)
    elif penalty == 'l1':
        reg = lam * jnp.sum(jnp.abs(w))
    else:
        raise ValueError('unknown penalty')
    return nll + reg

w = jnp.zeros((10,))
x = random.normal(random.PRNGKey(0), (128, 10))
y = jnp.sign(random.normal(random.PRNGKey(1), (128,)))
try:  # scaffolding
    print(reg_loss(w, x, y, 'l2', 1e-2))
    _report({"jit(reg_loss)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
