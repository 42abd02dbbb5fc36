# source: https://github.com/patrick-kidger/diffrax/issues/466
# expect: changing-static at line 92
# runtime: COMPILES 2 CALLS 3
# why: run_diffrax is wrapped in eqx.filter_jit and receives atol/rtol as Python floats inside the options dict; filter_jit treats non-array leaves as static, so every new tolerance value is a new cache key and recompiles the whole solve (2 compiles for 3 calls: 1e-5, 1e-5, 1e-4), the slowdown the reporter saw when changing tolerances.

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
import equinox as eqx
import jax
import diffrax
import jax.numpy as jnp
import time


class MLPeqx(eqx.Module):
    layers: list
    activation: callable = eqx.static_field()

    def __init__(self, hidden_dims):
        super().__init__()
        tmp_key = jax.random.split(jax.random.PRNGKey(0), len(hidden_dims) - 1)
        self.layers = [eqx.nn.Linear(hidden_dims[i], hidden_dims[i + 1], key=tmp_key[i]) for i in
                       range(len(hidden_dims) - 1)]
        self.activation = jax.nn.relu

    def __call__(self, x):
        for i in range(len(self.layers) - 1):
            x = self.activation(self.layers[i](x))
        x = self.layers[-1](x)
        return x


class ODEjax(eqx.Module):
    func: MLPeqx

    def __init__(self, hidden_dims):
        super().__init__()
        self.func = MLPeqx(hidden_dims)

    def __call__(self, t, y, args=None):
        return self.func(y)


@eqx.filter_jit
def run_diffrax(hidden_dims, input_x, t_span, n_steps, options):  # scaffolding
    model = ODEjax(hidden_dims)  # scaffolding
    ts = jnp.linspace(t_span[0], t_span[1], n_steps)  # scaffolding
    sol = diffrax.diffeqsolve(  # scaffolding
        diffrax.ODETerm(model), options['method'], t0=t_span[0], t1=t_span[1], dt0=None,
        y0=input_x, saveat=diffrax.SaveAt(ts=ts),
        stepsize_controller=diffrax.PIDController(rtol=options['rtol'], atol=options['atol']))
    return sol.ys  # scaffolding


hidden_dims = [2, 8, 2]  # scaffolding
input_x = jnp.ones(2)  # scaffolding

# first time of atol=rtol=1e-5
run_diffrax(hidden_dims, input_x, [0.0, 1.0], 100, {
    'method': diffrax.Dopri5(),
    'atol': 1e-5,
    'rtol': 1e-5}).block_until_ready()

# second time of atol=rtol=1e-5
run_diffrax(hidden_dims, input_x, [0.0, 1.0], 100, {
    'method': diffrax.Dopri5(),
    'atol': 1e-5,
    'rtol': 1e-5}).block_until_ready()

# first time of atol=rtol=1e-4
run_diffrax(hidden_dims, input_x, [0.0, 1.0], 100, {
    'method': diffrax.Dopri5(),
    'atol': 1e-4,
    'rtol': 1e-4}).block_until_ready()
_report({"jit(run_diffrax)"}, 3)  # scaffolding
