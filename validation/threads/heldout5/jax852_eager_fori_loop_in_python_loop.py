# source: https://github.com/jax-ml/jax/issues/852
# expect: jit-in-loop-or-body at line 59
# runtime: COMPILES 3 CALLS 3
# why: optimize runs lax.fori_loop eagerly with a body_fn closure created afresh on every call, so each of the 3 calls in the Python loop compiles the loop again (as jit(scan)): 3 compiles for 3 calls.
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
import time
from jax import grad, jit, lax

def dual_averaging(t0=10, kappa=0.75, gamma=0.05):
    def init_fn(prox_center=0.):
        x_t = 0.
        x_avg = 0.  # average of primal sequence
        g_avg = 0.  # average of dual sequence
        t = 0
        return x_t, x_avg, g_avg, t, prox_center

    def update_fn(g, state):
        x_t, x_avg, g_avg, t, prox_center = state
        t = t + 1
        g_avg = (1 - 1 / (t + t0)) * g_avg + g / (t + t0)
        x_t = prox_center - (t ** 0.5) / gamma * g_avg
        weight_t = t ** (-kappa)
        x_avg = (1 - weight_t) * x_avg + weight_t * x_t
        return x_t, x_avg, g_avg, t, prox_center

    return init_fn, update_fn

def optimize(f):
    da_init, da_update = dual_averaging(gamma=0.5)
    init_state = da_init()

    def body_fn(i, state):
        x = state[0]
        g = grad(f)(x)
        return da_update(g, state)

    last_state = lax.fori_loop(0, 1000, body_fn, init_state)
    x_avg = last_state[1]
    return x_avg


f = lambda x: (x - 2.) ** 2  # scaffolding
for _ in range(3):  # scaffolding
    t = time.time()
    optimize(f)
    print(time.time() - t)
_report({n for n in _COMPILED if "scan" in n or "while" in n}, 3)
