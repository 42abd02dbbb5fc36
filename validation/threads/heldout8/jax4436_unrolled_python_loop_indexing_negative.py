# source: https://github.com/jax-ml/jax/issues/4436
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: A nested Python range loop over static bounds inside jit is slow to trace but compiles once and is reused.
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
import jax.numpy as jnp
from jax import jit

@jit
def foo(a):
	for i in range(16):  # scaffolding: 128 in the thread, cut for the 2-core machine
		for j in range(16):  # scaffolding: 128 in the thread
			s = a[0]
	return 0

 
a = jnp.zeros(128)
foo(a)
foo(a)  # scaffolding: the thread's timing comment calls it a second time
_report({"jit(foo)"}, 2)  # scaffolding
