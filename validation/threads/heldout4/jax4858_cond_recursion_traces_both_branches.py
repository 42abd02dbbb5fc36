# source: https://github.com/jax-ml/jax/issues/4858
# expect: trace-time-error at line 42
# runtime: ERROR RecursionError
# why: lax.cond traces both branches even for a concrete predicate, so false_branch recurses into diag_kron_lax on ever smaller slices and never stops: RecursionError at trace time.

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


from jax import numpy as jnp 
from jax import lax
def diag_kron_lax(diag_operators):
    length = diag_operators.shape[0]

    def true_branch(_):
        return diag_operators.reshape(-1)
    
    def false_branch(_):
        oper1 = diag_kron_lax(diag_operators[:length//2])
        oper2 = diag_kron_lax(diag_operators[length//2:])
        return jnp.einsum('i,j->ij', oper1, oper2).reshape(-1)
    
    
    return lax.cond(length==1, true_branch, false_branch, operand=None)

try:  # scaffolding
    diag_kron_lax(jnp.arange(10).reshape(2,-1))
    _report({"jit(diag_kron_lax)"}, 1)  # scaffolding
except BaseException as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
