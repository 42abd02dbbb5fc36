# source: https://github.com/jax-ml/jax/issues/9503
# expect: none
# runtime: COMPILES 1 CALLS 10
# why: jax.jit(scan) is rebuilt inside the timing loop but wraps the same function object, so the jit cache hits; scan_jitted and the lower().compile() path reuse it: one compile for ten calls.
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




import jax
import jax.numpy as np

# Fake function
def scan(a):
    
    b0 = 5.
    
    def update(b_prev, a):
        b_next = np.log(a) + b_prev
        return b_next, a * np.sqrt(b_prev)
    
    b_last, b = jax.lax.scan(update, b0, a)

    return b

N = 1000
dummy = np.ones((N,))
a = np.ones((N,)) * 2.   # 'real' data

# Jitting speeds it up
# %timeit jax.jit(scan)(a)
for _ in range(3):  # scaffolding: stands in for %timeit
    jax.jit(scan)(a).block_until_ready()  # scaffolding

# First jitting then executing it once:
scan_jitted = jax.jit(scan)
scan_jitted(a)
# %timeit scan_jitted(a)
for _ in range(3):  # scaffolding
    scan_jitted(a).block_until_ready()  # scaffolding

# Precompiling then executing?
scan_compiled = jax.jit(scan).lower(a).compile()
# scan_compiled(a) < -- doesn't help
# %timeit scan_compiled(a)
for _ in range(3):  # scaffolding
    scan_compiled(a).block_until_ready()  # scaffolding

_report({"jit(scan)"}, 10)  # scaffolding
