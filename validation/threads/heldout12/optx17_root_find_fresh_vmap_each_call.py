# source: https://github.com/patrick-kidger/optimistix/issues/17
# expect: changing-static at line 44
# runtime: COMPILES 3 CALLS 3
# why: each call passes a freshly built vmap(fn) to optx.root_find, whose filter_jit holds the function static, so jit(root_find) recompiles on every one of three identical calls.

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
from jax import jit, jacfwd, vmap, random
import optimistix as optx

def fn(y, b):
    return (y-b)**2

M = 1024
key = random.PRNGKey(42)
key, key_ = random.split(key, 2)

y = random.normal(key, (M,))
b = random.normal(key_, (M,))
solver = optx.Newton(rtol=1e-3, atol=1e-3)  # scaffolding: the MWE leaves `solver` undefined; the issue says Newton
calls = 0  # scaffolding
for _ in range(3):  # scaffolding: repeated timing runs of the MWE
    sol = optx.root_find(vmap(fn), solver, y, b)
    calls += 1  # scaffolding
print(sol.value[:3])  # scaffolding
_report({"jit(root_find)"}, calls)  # scaffolding
