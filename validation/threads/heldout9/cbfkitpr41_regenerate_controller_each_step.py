# source: https://github.com/bardhh/cbfkit/pull/41
# expect: jit-in-loop-or-body at line 72
# runtime: COMPILES 5 CALLS 5
# why: make_ctl (cbfkit's vanilla_cbf_clf_qp_controller) builds a new @jit-decorated controller closure on every call; recreating it each step, as the benchmark's 'Regen' loop does, traces and compiles the controller anew every iteration (5 compiles for 5 calls).

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
from typing import NamedTuple  # scaffolding


class CertificateCollection(NamedTuple):  # scaffolding: stand-in for cbfkit.utils.user_types
    functions: list
    jacobians: list
    hessians: list
    partials: list
    conditions: list


class ControllerData(NamedTuple):  # scaffolding: stand-in for cbfkit.utils.user_types
    pass


def make_ctl(limits, dyn, barriers):  # scaffolding: stand-in for vanilla_cbf_clf_qp_controller
    @jax.jit
    def controller(t, x, u_nom, key, data):
        f, g = dyn(x)
        h_vals = jnp.array([h(t, x) for h in barriers.functions])
        u = jnp.clip(u_nom + g @ f - h_vals.sum(), -limits, limits)
        return u, data

    return controller


def h(t, x): return x[0] - 0.5
def grad(t, x): return jnp.array([1.0, 0.0])
def hess(t, x): return jnp.zeros((2, 2))
def dt(t, x): return 0.0
def cond(v): return v
def dyn(x): return jnp.zeros(2), jnp.eye(2)

def run():
    limits = jnp.array([1.0, 1.0])
    barriers = CertificateCollection([h], [grad], [hess], [dt], [cond])
    x, u, k, d = jnp.zeros(2), jnp.zeros(2), jax.random.PRNGKey(0), ControllerData()

    # 2. Regenerate (Slow): Re-creates closure and triggers JIT every step
    for _ in range(5):
        # Simulating "dynamic barriers" by recreating controller each step
        make_ctl(limits, dyn, barriers)(0.0, x, u, k, d)[0].block_until_ready()

if __name__ == "__main__":
    run()
    _report({"jit(controller)"}, 5)  # scaffolding
