# source: https://github.com/jax-ml/jax/issues/3612
# expect: jit-in-loop-or-body at line 51
# runtime: COMPILES 12 CALLS 6
# why: loss_wrapper builds jax.pmap(lambda _: w) around a fresh lambda on every call to broadcast w, so every loss evaluation and every grad of it recompiles that pmap (the reporter's 'unexpected compilation overhead'): six compiles in the first round and three more in each later round.

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
os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"  # scaffolding: eight CPU devices for pmap
import functools  # scaffolding

import jax  # scaffolding
import jax.numpy as jnp  # scaffolding

x = jax.random.normal(key=jax.random.PRNGKey(1), shape=(8, 100, 1000))  # scaffolding: smaller than (8, 1000, 10000)
y = jax.random.normal(key=jax.random.PRNGKey(2), shape=(8, 1000))  # scaffolding: smaller
w = jax.random.normal(key=jax.random.PRNGKey(3), shape=(100,))  # scaffolding: smaller

def per_core_loss(w, x, y):
  loss_val = (w @ x - y)**2
  loss_val = jnp.mean(loss_val)
  return loss_val

@functools.partial(jax.pmap, axis_name='i')
def loss_p(w, x, y):
  loss_val, grad = jax.value_and_grad(per_core_loss)(w, x, y)
  loss_val = jax.lax.pmean(loss_val, axis_name="i")
  return loss_val

def loss_wrapper(w, x, y):
  w_p = jax.pmap(lambda _: w)(jnp.arange(8))
  loss_val = loss_p(w_p, x, y)[0]
  return loss_val

calls = 0  # scaffolding
for _ in range(3):  # scaffolding: the reporter times repeated evaluations
  loss_val = loss_wrapper(w, x, y)
  grad = jax.grad(loss_wrapper)(w, x, y)
  calls += 2  # scaffolding
_report({"jit(_fun)"}, calls)  # scaffolding: under jax 0.10 pmap lowers through shard_map; its jits are named _fun
