# source: https://github.com/SharmaLlama/ticktack/issues/15
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: with args removed from static_argnums (0d509ee), the parameter array is traced: run compiles once and is reused for three parameter draws.
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
import jax.numpy as jnp
import numpy as np
from jax import jit
from functools import partial
from jax.experimental.ode import odeint

class CarbonBoxModel:  # scaffolding: a two-box stand-in for ticktack.CarbonBoxModel after compile()
    def __init__(self):  # scaffolding
        self._production_rate_units = 'kg/yr'  # scaffolding
        self._matrix = jnp.array([[-0.2, 0.1], [0.2, -0.1]])  # scaffolding
        self._production_coefficients = jnp.array([1.0, 0.0])  # scaffolding

    def equilibrate(self, target_C_14=None, production_rate=None):  # scaffolding
        return [1.0, 2.0]  # scaffolding

    @partial(jit, static_argnums=0)
    def _convert_production_rate(self, production_rate):
        if self._production_rate_units == 'atoms/cm^2/s':
            new_rate = production_rate * 14.003242 / 6.022 * 5.11 * 31536. / 1.e5
        elif self._production_rate_units == 'kg/yr':
            new_rate = production_rate
        else:
            raise ValueError('Production Rate units must be either atoms/cm^2/s or kg/yr!')
        return new_rate

    @partial(jit, static_argnums=(0, 2, 3, 6, 7))
    def run(self, time_out, oversample, production, y0=None, args=(), target_C_14=None, steady_state_production=None):
        @jit
        def derivative(y, t):
            ans = jnp.matmul(self._matrix, y)
            production_rate_constant = production(t, *args)
            production_rate_constant = self._convert_production_rate(production_rate_constant)
            production_term = self._production_coefficients * production_rate_constant
            return ans + production_term

        time_out = jnp.array(time_out)
        time_values = jnp.linspace(jnp.min(time_out) - 1, jnp.max(time_out) + 1, (time_out.shape[0] + 1) * oversample)
        solution = None
        if y0 is not None:
            y_initial = jnp.array(y0)
        else:
            if steady_state_production is not None:
                solution = self.equilibrate(production_rate=steady_state_production)

            elif target_C_14 is not None:
                solution = self.equilibrate(production_rate=self.equilibrate(target_C_14=target_C_14))
            else:
                ValueError("Must give either target C-14 or production rate.")
            y_initial = jnp.array(solution)

        if not callable(production):
            raise ValueError("incorrect object type for production")

        states = odeint(derivative, y_initial, time_values)
        return states, solution


def simple_sinusoid(t, *args):  # scaffolding: a production model as in ticktack's fitting (start, duration, phase, area)
    start_time, duration, phase, area = jnp.array(list(args)).reshape(-1)  # scaffolding
    return 1.88 + 0.18 * 1.88 * jnp.sin(2 * np.pi / 11 * t + phase) + area * jnp.exp(-((t - start_time) / duration) ** 2)  # scaffolding


cbm = CarbonBoxModel()  # scaffolding
time_out = np.arange(770, 780)  # scaffolding
params = np.array([775., 1. / 12, np.pi / 2., 81. / 12])  # scaffolding: emcee hands the likelihood a numpy array of parameters
calls = 0  # scaffolding
for k in range(3):  # scaffolding
    states, _ = cbm.run(time_out, 10, simple_sinusoid, y0=[1.0, 2.0], args=params + k)  # scaffolding
    calls += 1  # scaffolding
_report({"jit(run)"}, calls)  # scaffolding
