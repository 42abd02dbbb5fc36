# source: https://github.com/pnkraemer/probdiffeq/pull/813
# expect: trace-time-error at line 56
# runtime: ERROR TracerBoolConversionError
# why: prior_ibm picks the output scale with `output_scale or np.ones_like(...)`; when output_scale is a traced array (prior built inside jit), `or` needs its truth value and raises TracerBoolConversionError.
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
import jax  # scaffolding
import jax.numpy as np  # scaffolding: probdiffeq.backend.numpy is jax.numpy
from typing import Any, Callable, NamedTuple  # scaffolding
from types import SimpleNamespace  # scaffolding


def _choose(ssm_fact, *, tcoeffs_like):  # scaffolding: stand-in for probdiffeq.impl.impl.choose
    n = len(tcoeffs_like)  # scaffolding
    return SimpleNamespace(  # scaffolding
        prototypes=SimpleNamespace(output_scale=lambda: np.ones(())),  # scaffolding
        conditional=SimpleNamespace(ibm_transitions=lambda output_scale: (lambda dt: output_scale * dt * np.eye(n))),  # scaffolding
    )  # scaffolding


impl = SimpleNamespace(choose=_choose)  # scaffolding


class _MarkovProcess(NamedTuple):
    tcoeffs: Any
    output_scale: Any
    discretize: Callable

    @property
    def num_derivatives(self):
        return len(self.tcoeffs) - 1


def prior_ibm(tcoeffs, *, ssm_fact: str, output_scale=None):
    """Construct an adaptive(/continuous-time), multiply-integrated Wiener process."""
    ssm = impl.choose(ssm_fact, tcoeffs_like=tcoeffs)

    output_scale_user = output_scale or np.ones_like(ssm.prototypes.output_scale())
    discretize = ssm.conditional.ibm_transitions(output_scale=output_scale_user)

    output_scale_calib = np.ones_like(ssm.prototypes.output_scale())
    prior = _MarkovProcess(tcoeffs, output_scale_calib, discretize=discretize)
    return prior, ssm


tcoeffs = [np.ones(2), np.zeros(2), np.zeros(2)]  # scaffolding


@jax.jit  # scaffolding: the user's jitted solve, with the output scale as a traced input
def transition(output_scale):  # scaffolding
    prior, _ = prior_ibm(tcoeffs, ssm_fact="dense", output_scale=output_scale)  # scaffolding
    return prior.discretize(0.1)  # scaffolding


try:  # scaffolding
    transition(np.asarray(2.0))  # scaffolding
    _report({"jit(transition)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
