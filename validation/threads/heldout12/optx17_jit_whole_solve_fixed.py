# source: https://github.com/patrick-kidger/optimistix/issues/17
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the maintainer's reply wraps the whole solve in one @jax.jit run(y, b); vmap(fn) is then rebuilt only at trace time, so run compiles once for three calls and root_find is inlined.

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
import jax  # scaffolding
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


@jax.jit
def run(y, b):
    sol = optx.root_find(vmap(fn), solver, y, b)  # scaffolding: the reply writes optax.root_find (typo)
    return sol.value

run(y, b)  # compile
calls = 1  # scaffolding
for _ in range(2):  # scaffolding: stands in for the reply's timeit.repeat
    out = run(y, b)  # scaffolding
    calls += 1  # scaffolding
print(out[:3])  # scaffolding
_report({"jit(run)", "jit(root_find)"}, calls)  # scaffolding
