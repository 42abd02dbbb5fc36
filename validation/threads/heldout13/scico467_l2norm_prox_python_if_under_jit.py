# source: https://github.com/lanl/scico/pull/467
# expect: trace-time-error at line 52
# runtime: ERROR TracerBoolConversionError
# why: L2Norm.prox guards the zero vector with 'if norm_v == 0:', a Python branch on a traced norm, so jitting the proximal operator fails.

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
import jax.numpy as snp  # scaffolding: scico.numpy stands in as jax.numpy


def norm(x):  # scaffolding: scico.numpy.util norm
    return snp.sqrt(snp.sum(snp.abs(x) ** 2))


class Functional:  # scaffolding: scico.functional.Functional base reduced to a marker
    pass


class L2Norm(Functional):
    r"""The :math:`\ell_2` norm."""

    has_eval = True
    has_prox = True

    def __call__(self, x):
        return norm(x)

    def prox(self, v, lam: float = 1.0, **kwargs):
        norm_v = norm(v)
        if norm_v == 0:
            return 0 * v
        return snp.maximum(1 - lam / norm_v, 0) * v


# scaffolding: the PR's new jit-ability test, prox of the functional under jax.jit
f = L2Norm()
prox_jit = jax.jit(f.prox)
calls = 0
try:
    for lam in (0.5, 1.0, 2.0):
        prox_jit(snp.arange(1.0, 9.0), lam)
        calls += 1
    _report({"jit(prox)"}, calls)
except Exception as e:
    print(f"ERROR {type(e).__name__}")
