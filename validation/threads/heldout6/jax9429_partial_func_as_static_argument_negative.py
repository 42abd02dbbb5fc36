# source: https://github.com/jax-ml/jax/issues/9429
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: a fresh tree_util.Partial is built on every step and its .func passed as a static argument; since the fix (PR #9430) .func hashes and compares equal to the wrapped function, so apply compiles once for 3 calls.

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
import jax
import jax.numpy as jnp  # scaffolding
from jax.tree_util import Partial
from functools import partial
fun = partial(print, 1)
print(hash(fun))
print(hash(Partial(fun, 2).func))
print(hash(Partial(fun, 2).func))

# scaffolding: the NetKet pattern - a user function wrapped in Partial, its .func passed as a static argument
user_fn = partial(jnp.multiply, 2.0)  # scaffolding


@partial(jax.jit, static_argnums=0)  # scaffolding
def apply(fn, x):  # scaffolding
    return fn(x)  # scaffolding


x = jnp.arange(3.0)  # scaffolding
for _ in range(3):  # scaffolding
    apply(Partial(user_fn, 2).func, x)  # scaffolding
_report({"jit(apply)"}, 3)  # scaffolding
