# source: https://github.com/lanl/scico/commit/4b2781930000a710aa9ed2ef437ccaaa98962965
# expect: trace-time-error at line 68
# runtime: ERROR TracerBoolConversionError
# why: power_iteration tests 'if normAv == 0.0:' on a traced norm when operator_norm is used inside a jitted function, so Python needs a concrete bool and raises TracerBoolConversionError.

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


from typing import Optional

import jax
import jax.numpy as jnp

snp = jnp  # scaffolding: scico.numpy
PRNGKey = jax.Array


def randn(shape, dtype=jnp.float32, key=None):  # scaffolding: scico.random.randn
    if key is None:
        key = jax.random.PRNGKey(0)
    key, subkey = jax.random.split(key)
    return jax.random.normal(subkey, shape, dtype), key


class LinearOperator:  # scaffolding: a matrix-backed stand-in for scico.linop.LinearOperator
    def __init__(self, M):
        self.M = M
        self.input_shape = (M.shape[1],)
        self.input_dtype = M.dtype

    @property
    def H(self):
        return LinearOperator(self.M.conj().T)

    def __matmul__(self, other):
        if isinstance(other, LinearOperator):
            return LinearOperator(self.M @ other.M)
        return self.M @ other


# scico/linop/_util.py (docstrings left out)
def power_iteration(A: LinearOperator, maxiter: int = 100, key: Optional[PRNGKey] = None):
    v, key = randn(shape=A.input_shape, key=key, dtype=A.input_dtype)
    v = v / snp.linalg.norm(v)

    for i in range(maxiter):
        Av = A @ v
        normAv = snp.linalg.norm(Av)
        if normAv == 0.0:  # Assume that ||Av|| == 0 implies A is a zero operator
            mu = 0.0
            v = Av
            break
        mu = snp.sum(v.conj() * Av) / snp.linalg.norm(v) ** 2
        v = Av / normAv
    return mu, v


def operator_norm(A: LinearOperator, maxiter: int = 100, key: Optional[PRNGKey] = None):
    return snp.sqrt(power_iteration(A.H @ A, maxiter, key)[0].real)


@jax.jit
def pgm_step_size(H):  # scaffolding: a jitted step size 1/L from the operator norm, L = ||H||^2
    A = LinearOperator(H)
    return 1.0 / operator_norm(A, maxiter=20) ** 2


H = jax.random.normal(jax.random.PRNGKey(1), (16, 8))  # scaffolding
calls = 0
try:  # scaffolding
    for scale in (1.0, 2.0, 3.0):
        alpha = pgm_step_size(scale * H)
        calls += 1
    _report({"jit(pgm_step_size)"}, calls)
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")
