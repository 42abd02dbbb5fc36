# source: https://github.com/jax-ml/jax/issues/1630
# expect: none
# runtime: COMPILES 1 CALLS 9
# why: with grad(lossf) jitted once before the loops (the reporter notes this does not run out of memory), every call reuses the one compiled gradient.

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
import jax.numpy as np
import numpy as onp
from jax import random, grad, jit
import jax
from jax.example_libraries import stax  # scaffolding: jax.experimental.stax in 2019

def linearize(f, params):
  def f_lin(p, x):
    dparams = jax.tree_util.tree_map(lambda x, y: x - y, p, params)  # scaffolding: tree_multimap was renamed tree_map
    f_params_x, proj = jax.jvp(lambda param: f(param, x), (params,), (dparams,))  # scaffolding: jax.api.jvp is jax.jvp
    return f_params_x + proj
  return f_lin

init_random_params, predict = stax.serial(*[stax.Dense(200), stax.Dense(10)] )  # scaffolding: Dense(20000) shrunk to Dense(200)
_, init_params = init_random_params(random.PRNGKey(970), (-1, 1000))
predict = linearize(predict, init_params)
x,y=( onp.random.randn(500,1000),onp.random.randn(500,1) )
lossf=lambda params,x,y: 0.5*np.mean((predict(params, x)-y)**2)  

gradf=jit(grad(lossf))  # fixed: jitted once, outside the k loop
for k in range(3):  # scaffolding: range(10) in the issue
    print(k)
    for j in range(3):  # scaffolding: range(1000) in the issue
        gradf(init_params, x,y)
_report({"jit(<lambda>)"}, 9)  # scaffolding
