# source: https://github.com/TonyZhou729/ABCMB/issues/17
# expect: changing-static at line 55
# runtime: COMPILES 4 CALLS 4
# why: params is passed to eqx.filter_jit with tau_n_fac as a Python float, which filter_jit treats as static, so scanning tau_n_fac recompiles run_cosmology for every value.
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

import equinox as eqx
import jax
import jax.numpy as jnp


class Model:  # scaffolding: cut-down ABCMB.main.Model
    n_reactions = 12  # scaffolding

    # @jit
    @eqx.filter_jit
    def run_cosmology(self, params : dict):
        params = self.add_derived_parameters(params)
        return params['YHe'] * params['omega_m']  # scaffolding: stands in for get_PTBG / get_Cl

    def add_derived_parameters(self, params):  # scaffolding: the BBN part of ABCMB's derived parameters, with a toy abundance
        params = dict(params)
        eta_fac = params['omega_b'] / 0.0224
        tau_n_fac = jnp.asarray(params.get("tau_n_fac", 1.0))
        nuclear_rates_q = jnp.asarray( params.get("nuclear_rates_q", jnp.ones( self.n_reactions )) )
        YHe_BBN = 0.247 * eta_fac ** 0.04 * tau_n_fac ** 0.73 * jnp.mean(nuclear_rates_q)
        params['YHe'] = YHe_BBN
        params['omega_m']      = params['omega_cdm'] + params['omega_b']
        params['R_b']          = params['omega_b'] / params['omega_m']
        return params


model = Model()  # scaffolding
params = {'omega_b': jnp.asarray(0.0224), 'omega_cdm': jnp.asarray(0.12)}  # scaffolding
for tau_n_fac in [0.98, 0.99, 1.01, 1.02]:  # scaffolding: scanning a BBN parameter
    params["tau_n_fac"] = tau_n_fac
    model.run_cosmology(params)
_report({"jit(run_cosmology)"}, 4)  # scaffolding
