# source: https://github.com/jax-ml/jax/issues/5815
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: foo's 128x128 Python loop is unrolled into 16384 indexing ops when traced, which makes the first jitted call slow, but foo1 = jit(foo) is built once and compiles once; nothing recompiles or fails.
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


import jax.numpy as jnp
from jax import jit
import time
# import autograd.numpy as np  # scaffolding: autograd is not installed; numpy stands in for its wrapper below
import numpy as np  # scaffolding
def foo(a):
	for i in range(128):
		for j in range(128):
			s = a[0]
	return 0
a = jnp.zeros(128) 
t = time.time()
foo(a)
print('Including just-in-time compilation ',time.time()-t)
t = time.time() 
foo(a)
print('Run using compiled code jax ',time.time()-t)
foo1=jit(foo)
t = time.time()
foo1(a)
print('Run using compiled code jax jit ',time.time()-t)
t = time.time()
foo(np.zeros(128))
print('Run using compiled code autograd ',time.time()-t)
foo1(a)  # scaffolding: a second call of the jitted foo
_report({"jit(foo)"}, 2)  # scaffolding
