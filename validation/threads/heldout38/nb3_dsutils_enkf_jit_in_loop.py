# source: https://github.com/Zaijab/data_science_utils/blob/341b1779206409ea8d8f38323407bb2903b6a3d1/data_science_utils/filtering/enkf.py
# expect: jit-in-loop-or-body at line 75
# runtime: COMPILES 5 CALLS 5
# why: The ensemble Kalman filter loop re-defines @jit update_ensemble_point on every filter step (it closes over the new ensemble_covariance and measurement), so each step traces and compiles a fresh jitted function.

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
import jax  # scaffolding
import jax.numpy as jnp  # scaffolding
from jax import jit  # scaffolding

key = jax.random.key(42)  # scaffolding
measurement_covariance = 1 / 16  # scaffolding: scalar stand-in


def measure(state):  # scaffolding: range sensor (norm measurement) from the repo, noise-free
    return jnp.linalg.norm(state)


def ikeda_update(state, u=0.9):  # scaffolding: Ikeda map stand-in for the repo's dynamical system
    x, y = state[..., 0], state[..., 1]
    t = 0.4 - 6 / (1 + x**2 + y**2)
    return jnp.stack([1 + u * (x * jnp.cos(t) - y * jnp.sin(t)), u * (x * jnp.sin(t) + y * jnp.cos(t))], axis=-1)


@jit
def update_ensemble_point(point, key=key):
    key, subkey = jax.random.split(key)
    ensemble_measurement = measure(point) + measurement_covariance * jax.random.normal(subkey)
    measurement_jacobian = jax.grad(measure)(point)
    innovation_covariance = measurement_jacobian @ ensemble_covariance @ measurement_jacobian.T + measurement_covariance
    kalman_gain = ensemble_covariance @ measurement_jacobian.T * ((innovation_covariance) ** (-1))
    point = point + kalman_gain * (measurement - ensemble_measurement)
    return point

true_state = jnp.array([1.25, 0])
prior_state = jnp.array([1.25, 0])

n_steps = 5  # scaffolding: 10 -> 5 filter steps
for _ in range(n_steps):  # scaffolding: range(10) -> range(n_steps)
    key, subkey = jax.random.split(key)
    measurement = measure(true_state) + 1/16 * jax.random.normal(subkey)

    num_samples = 100
    inflation_factor = 1.01
    key, subkey = jax.random.split(key)
    ensemble = prior_state + 1/16 * jax.random.normal(subkey, shape=(num_samples,2))
    
    mean = jnp.mean(ensemble, axis=0)
    ensemble = mean + inflation_factor * (ensemble - mean)
    
    ensemble_covariance = (1 / (num_samples - 1)) * (ensemble - mean).T @ (ensemble - mean)

    @jit
    def update_ensemble_point(point, key=key):
        
        key, subkey = jax.random.split(key)
        ensemble_measurement = measure(point) + measurement_covariance * jax.random.normal(subkey)
        
        measurement_jacobian = jax.grad(measure)(point)
        
        innovation_covariance = measurement_jacobian @ ensemble_covariance @ measurement_jacobian.T + measurement_covariance
        kalman_gain = ensemble_covariance @ measurement_jacobian.T  * ((innovation_covariance) ** (-1))
        point = point + kalman_gain * (measurement - ensemble_measurement)
        return point

    test_ensemble = ensemble
    ensemble = jax.vmap(update_ensemble_point)(ensemble);key, subkey = jax.random.split(key)


    # (plot_ikeda_points / plt.show removed: scaffolding)
    
    true_state = ikeda_update(true_state)
    prior_state = ikeda_update(prior_state)
    true_measurement = measure(true_state) + 1/16 * jax.random.normal(subkey);key, subkey = jax.random.split(key)

_report({"jit(update_ensemble_point)"}, n_steps)  # scaffolding
