# source: https://github.com/AMICI-dev/AMICI/pull/3197
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: the PR's fix wraps the tolerances in an equinox Module (SteadyStateEvent) that compares by value, so equal events built anew each iteration hit the same cache entry: 1 compile for 3 calls.

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
import diffrax
import equinox as eqx
import jax.numpy as jnp


class SteadyStateEvent(eqx.Module):
    rtol: float
    atol: float

    def __call__(self, t, y, args, **kwargs):
        return diffrax.steady_state_event(rtol=self.rtol, atol=self.atol)(t, y, args, **kwargs)


class JAXModel(eqx.Module):  # scaffolding: stand-in for AMICI's JAXModel
    @eqx.filter_jit
    def preequilibrate_condition(self, p, steady_state_event):
        term = diffrax.ODETerm(lambda t, y, args: -args * y)
        sol = diffrax.diffeqsolve(term, diffrax.Tsit5(), 0.0, jnp.inf, 0.1, jnp.array([1.0]), args=p,
                                  stepsize_controller=diffrax.PIDController(rtol=1e-6, atol=1e-6),
                                  event=diffrax.Event(steady_state_event), max_steps=1000)
        return sol.ys


model = JAXModel()
for p in [0.5, 1.0, 1.5]:  # scaffolding
    model.preequilibrate_condition(jnp.array(p), SteadyStateEvent(rtol=1e-3, atol=1e-3))
_report({"jit(preequilibrate_condition)"}, 3)  # scaffolding
