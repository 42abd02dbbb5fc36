# source: https://github.com/neuronlab-cell/cbgtc_project/blob/0e565a269242983d830a22683fd25ccd7dbcf124/jax_models/test_results.md
# expect: none
# runtime: COMPILES 1 CALLS 4
# why: The fix drops float() and lets the traced trial parameters flow into the config; the closure-built jitted simulate compiles once and is reused for every trial.

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
from jax import lax
from typing import Dict
from collections import namedtuple  # scaffolding

def apply_params_to_config(trial_params: Dict[str, float], base_config: Dict) -> Dict:
    """
    Apply Optuna trial parameters to network config (functional update).
    
    Args:
        trial_params: {
            'ISTN': 42.0,
            'I_gpe': 580.0,
            'I_gpi': 240.0,
            'noise_stn_sigma': 0.15,
            'noise_gpe_sigma': 30.0,
            'noise_gpi_sigma': 30.0
        }
        base_config: Config from build_network_state()
        
    Returns:
        Modified config (base_config unchanged)
    """
    # 1. Start with shallow copy
    config = dict(base_config)
    
    # 2. Update neuron parameters
    stn_p = dict(config['neuron_params']['stn'])
    stn_p['ISTN'] = trial_params['ISTN']  # No float() needed in JIT
    
    gpe_p = dict(config['neuron_params']['gpe'])
    gpe_p['I_baseline'] = trial_params['I_gpe']
    
    gpi_p = dict(config['neuron_params']['gpi'])
    gpi_p['I_baseline'] = trial_params['I_gpi']
    
    config['neuron_params'] = {
        'stn': stn_p,
        'gpe': gpe_p,
        'gpi': gpi_p
    }
    
    # 3. Update noise configs (NamedTuples!)
    config['noise'] = {
        'stn': config['noise']['stn']._replace(
            sigma=trial_params.get('noise_stn_sigma', config['noise']['stn'].sigma)
        ),
        'gpe': config['noise']['gpe']._replace(
            sigma=trial_params.get('noise_gpe_sigma', config['noise']['gpe'].sigma)
        ),
        'gpi': config['noise']['gpi']._replace(
            sigma=trial_params.get('noise_gpi_sigma', config['noise']['gpi'].sigma)
        )
    }
    
    return config


NoiseCfg = namedtuple("NoiseCfg", ["sigma", "tau"])  # scaffolding: stand-in for the noise NamedTuples
base_config = {  # scaffolding: stand-in for build_network_state() config
    'dt_ms': 0.05,
    'neuron_params': {'stn': {'ISTN': 42.0}, 'gpe': {'I_baseline': 580.0}, 'gpi': {'I_baseline': 240.0}},
    'noise': {'stn': NoiseCfg(1.0, 5.0), 'gpe': NoiseCfg(30.0, 5.0), 'gpi': NoiseCfg(30.0, 5.0)},
}


def create_simulation_fn(base_config: Dict, n_steps: int = 4000):
    @jax.jit
    def simulate(trial_params: Dict[str, float], init_state: Dict):
        # Apply params to config captured from outer scope
        config = apply_params_to_config(trial_params, base_config)

        def step_fn(carry_state, t_idx):  # scaffolding: stand-in for integrator.network_step
            v = carry_state['v'] + config['dt_ms'] * (config['neuron_params']['stn']['ISTN'] - carry_state['v'])
            return {'v': v}, v

        final_state, obs_history = lax.scan(
            step_fn,
            init=init_state,
            xs=jnp.arange(n_steps)
        )
        return obs_history

    return simulate


sim_fn = create_simulation_fn(base_config, n_steps=50)  # scaffolding: 4000 in the project
n_trials = 4  # scaffolding: Optuna trials
try:  # scaffolding
    for trial in range(n_trials):  # scaffolding
        trial_params = {'ISTN': 42.0 + trial, 'I_gpe': 580.0, 'I_gpi': 240.0, 'noise_stn_sigma': 0.15}  # scaffolding
        obs = sim_fn(trial_params, {'v': jnp.zeros(10)})  # scaffolding
    _report({"jit(simulate)"}, n_trials)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
