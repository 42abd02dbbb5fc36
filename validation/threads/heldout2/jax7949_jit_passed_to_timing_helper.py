# source: https://github.com/jax-ml/jax/issues/7949
# expect: none
# runtime: COMPILES 6 CALLS 12
# why: each jit(...) wrapper is built once, passed to the timing helper and called twice there, so each compiles once: 6 compiles for 12 calls (the thread is about slow first compiles, not recompilation).

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


import time

import jax.numpy as jnp
from jax import jacfwd, jacrev, jit


def f1(x):
    return x


def f2(x):
    return x[1:]


def jitting(f, *args):
    s = time.time()
    f(*args).block_until_ready()
    print(f"{f.__name__} jit time: {time.time() - s}")
    s = time.time()
    f(*args).block_until_ready()
    print(f"{f.__name__} cached time: {time.time() - s}")


x = jnp.ones([1000])

print("jit(f1)")
jitting(jit(f1), x)
print("jit(f2)")
jitting(jit(f2), x)

print("jit(jacrev(f1))")
jitting(jit(jacrev(f1)), x)
print("jit(jacrev(f2))")
jitting(jit(jacrev(f2)), x)

print("jit(jacfwd(f1))")
jitting(jit(jacfwd(f1)), x)
print("jit(jacfwd(f2))")
jitting(jit(jacfwd(f2)), x)
_report({"jit(f1)", "jit(f2)", "jit(jacfun)"}, 12)  # scaffolding
