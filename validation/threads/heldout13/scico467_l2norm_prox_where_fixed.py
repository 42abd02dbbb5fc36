# source: https://github.com/lanl/scico/pull/467
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR replaces the branch with snp.where, so the jitted prox traces once and handles every lambda with the same compiled code.

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
        return snp.where(norm_v == 0, 0 * v, snp.maximum(1 - lam / norm_v, 0) * v)


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
