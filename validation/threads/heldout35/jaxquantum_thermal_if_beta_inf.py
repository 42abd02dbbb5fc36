# source: https://github.com/EQuS/jaxquantum/commit/88c0421c85a022ba19418a09332fdb025a02493a
# expect: trace-time-error at line 65
# runtime: ERROR TracerBoolConversionError
# why: thermal() tests `if beta == jnp.inf:` in Python; when beta is traced (here under jax.jit) the comparison is a tracer and bool() raises TracerBoolConversionError.

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
import jax.numpy as jnp
from jax.nn import one_hot


class Qarray:  # scaffolding: minimal stand-in for jaxquantum.core.qarray.Qarray
    def __init__(self, data):
        self.data = data

    @classmethod
    def create(cls, data):
        return cls(jnp.asarray(data))

    def to_dm(self):
        return Qarray(self.data @ jnp.conj(self.data).T)

    def unit(self):
        if self.data.shape[1] == 1:  # ket
            return Qarray(self.data / jnp.linalg.norm(self.data))
        return Qarray(self.data / jnp.trace(self.data))  # density matrix


def basis(N: int, k: int):  # scaffolding: simplified from jaxquantum/core/operators.py
    return Qarray.create(one_hot(k, N).reshape(N, 1))


def thermal(N: int, beta: float) -> Qarray:
    """Thermal state.

    Args:
        N: Hilbert Space Size.
        beta: thermal state inverse temperature.

    Return:
        Thermal state.
    """
    if beta == jnp.inf:
        return basis(N, 0)

    return Qarray.create(jnp.diag(jnp.exp(-beta*jnp.linspace(0, N-1, N)))).unit()



@jax.jit  # scaffolding: a jitted use of thermal with a traced inverse temperature
def thermal_populations(beta):  # scaffolding
    return jnp.real(jnp.diag(thermal(8, beta).data))  # scaffolding


betas = [0.5, 1.0, 2.0, 4.0]  # scaffolding

try:  # scaffolding
    for b in betas:  # scaffolding
        p = thermal_populations(b)  # scaffolding
    print(p)  # scaffolding
    _report({"jit(thermal_populations)"}, len(betas))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
