# source: https://github.com/qiskit-community/qiskit-experiments/issues/1192
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: min_op (jitted BFGS over a residual that closes over fixed module data) is warmed up once and then called again with the same shape, so it compiles once for four calls.
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




import numpy as np  # scaffolding: from the earlier cells of the issue
import jax.numpy as jnp
from jax import jit
from jax.scipy.optimize import minimize


def data_factory(amp_decay, freq, base):  # scaffolding: stand-in for the data generator (not shown)
    x = np.linspace(0, 1, 50)  # scaffolding
    y = np.exp(-amp_decay * x) * np.sin(2 * np.pi * freq * x) - base  # scaffolding
    return x, y  # scaffolding


true_params = [1.5, 2.0, 0.1]  # scaffolding
init_guess = [1.0, 2.1, 0.0]  # scaffolding

x, y = data_factory(*true_params)

x_jax = jnp.array(x, dtype=jnp.float32)
y_jax = jnp.array(y, dtype=jnp.float32)
init_guess_jax = jnp.array(init_guess, dtype=jnp.float32)

def residual(params):
    return jnp.sum(jnp.square(y_jax - jnp.exp(-params[0] * x) * jnp.sin(2 * np.pi * params[1] * x) + params[2]))

@jit
def min_op(x0):
    result = minimize(
        residual,
        x0,
        method="BFGS",
        options=dict(gtol=1e-6),
    )
    return result

# Warm up
jax_res = min_op(init_guess_jax)

# %timeit min_op(init_guess_jax)
for _ in range(3):  # scaffolding: stands in for the %timeit cell
    min_op(init_guess_jax).x.block_until_ready()  # scaffolding

_report({"jit(min_op)"}, 4)  # scaffolding
