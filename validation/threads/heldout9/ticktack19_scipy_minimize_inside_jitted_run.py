# source: https://github.com/SharmaLlama/ticktack/issues/19
# expect: trace-time-error at line 83
# runtime: ERROR TracerArrayConversionError
# why: CarbonBoxModel.run is jitted, and when it is given target_C_14 it calls equilibrate -> _equilibrate_guttler, which runs scipy.optimize.minimize from jnp.array([6.]); inside the trace that starting point is a tracer, and SciPy's NumPy conversion of it raises TracerArrayConversionError (the issue: 'the ndarray conversion method __array__ was called on a JAX type ... occurring in the scipy internals').

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
import scipy as scipy
import scipy.optimize
from jax import jit
from functools import partial
from jax.experimental.ode import odeint


class Node:  # scaffolding: stand-in for ticktack.Box
    def __init__(self, name):  # scaffolding
        self._name = name  # scaffolding

    def get_name(self):  # scaffolding
        return self._name  # scaffolding


class CarbonBoxModel:
    def __init__(self):  # scaffolding: replaces add_nodes/add_edges/compile
        self._nodes = {0: Node('Stratosphere'), 1: Node('Troposphere')}  # scaffolding
        self._production_rate_units = 'kg/yr'  # scaffolding
        self._matrix = jnp.array([[-0.6, 0.1], [0.5, -0.2]])  # scaffolding
        self._production_coefficients = jnp.array([0.7, 0.3])  # scaffolding

    @partial(jit, static_argnums=0)
    def _convert_production_rate(self, production_rate):
        if self._production_rate_units == 'atoms/cm^2/s':
            new_rate = production_rate * 14.003242 / 6.022 * 5.11 * 31536. / 1.e5
        elif self._production_rate_units == 'kg/yr':
            new_rate = production_rate
        else:
            raise ValueError('Production Rate units must be either atoms/cm^2/s or kg/yr!')
        return new_rate

    def _equilibrate_brehm(self, production_rate):
        production_rate = self._convert_production_rate(production_rate)
        solution = jnp.linalg.solve(self._matrix, -1 * self._production_coefficients * production_rate)
        return solution

    def _equilibrate_guttler(self, target_C_14):
        troposphere_index = None
        for index, node in self._nodes.items():
            if node.get_name() == 'Troposphere':
                troposphere_index = index
                break
        if troposphere_index is None:
            raise ValueError('there is currently no Troposphere node to equilibrate!')

        @jit
        def objective_function(production_rate):
            equilibrium = self._equilibrate_brehm(production_rate)
            return (equilibrium[troposphere_index] - target_C_14) ** 2

        grad_obj = jax.jit(jax.grad(objective_function))
        final_production_rate = scipy.optimize.minimize(objective_function, jnp.array([6.]), method='BFGS',
                                                        jac=grad_obj)
        return final_production_rate.x[0]

    def equilibrate(self, target_C_14=None, production_rate=None):
        if target_C_14 is not None:
            return self._equilibrate_guttler(target_C_14)

        elif production_rate is not None:
            return self._equilibrate_brehm(production_rate)

        else:
            raise ValueError("Must give either target C-14 or production rate.")

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

        states = odeint(derivative, y_initial, time_values,  atol=1e-15, rtol=1e-15)
        return states, solution


cbm = CarbonBoxModel()  # scaffolding


def production(t):  # scaffolding: constant production function
    return 1.8  # scaffolding


try:  # scaffolding
    states, solution = cbm.run(jnp.arange(10.), 10, production, target_C_14=707.)  # scaffolding
    _report({"jit(run)"}, 1)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
