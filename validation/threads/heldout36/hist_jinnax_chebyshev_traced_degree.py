# source: https://github.com/dmarcondes/JINNAX/commit/b87434fc67ea37f10004e5ae359268647ac5a08c
# expect: trace-time-error at line 56
# runtime: ERROR TypeError
# why: chebyshev_basis_ab is plain @jax.jit, so the polynomial degree n is traced and jnp.eye(n+3) asks for an array whose size depends on a tracer, which raises while tracing.

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
from functools import partial
from types import SimpleNamespace

import jax
import jax.numpy as jnp


def _chebval(x, c):  # scaffolding: stand-in for orthax.chebyshev.chebval (Clenshaw recurrence)
    c0, c1 = c[-2], c[-1]
    for i in range(3, len(c) + 1):
        c0, c1 = c[-i] - c1, c0 + c1 * 2 * x
    return c0 + c1 * x


orthax = SimpleNamespace(chebyshev=SimpleNamespace(chebval=_chebval))  # scaffolding


#Chebyshev polynomial
@jax.jit
def chebyshev_basis_ab(n, x, a, b):
    """
    Computes phi_n(x) = T_{n+2}(t) - T_n(t)
    where t maps x from [a, b] to [-1, 1].
    """
    # 1. Change of variable (Linear map)
    t = (2 * x - (a + b)) / (b - a)
    # 3. Compute the basis function
    tn_plus_2 = orthax.chebyshev.chebval(t, jnp.eye(n+3)[n+2])
    tn = orthax.chebyshev.chebval(t, jnp.eye(n+3)[n])
    return tn_plus_2 - tn

def multiple_cheb(L_vec,n = None):
    d = len(L_vec[0])
    def mcheb(x):
        y = None
        for l in range(len(L_vec)):
            for k in range(n):
                z = None
                for j in range(d):
                    if z is None:
                        z = chebyshev_basis_ab(k, x[:,j].reshape((x.shape[0],1)), 0, L_vec[l][j])
                    else:
                        z = z*chebyshev_basis_ab(k, x[:,j].reshape((x.shape[0],1)),0, L_vec[l][j])
                if y is None:
                    y = z
                else:
                    y = jnp.append(y,z,1)
        return y
    return mcheb


# scaffolding: a 2-D tensor-product basis of order 3 on [0, 1] x [0, 2], evaluated on two point sets
mcheb = multiple_cheb([[1.0, 2.0]], n=3)
calls = 0
try:  # scaffolding
    for seed in range(2):  # scaffolding
        x = jax.random.uniform(jax.random.key(seed), (16, 2))  # scaffolding
        features = mcheb(x)
        calls += 3 * 2  # scaffolding: n * d basis evaluations per mcheb call
    _report({"jit(chebyshev_basis_ab)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
