# source: https://github.com/Zaijab/data_science_utils/blob/07ec73934d9e5264bfb3e11f2ad510b591f6adf8/data_science_utils/filtering/enkf.py
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: The later version (07ec739) moves the update into an eqx.filter_jit enkf_update that takes ensemble, measurement and the sensor as arguments; the inner @jax.jit is traced inside it, so one compile serves every filter step.

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

import equinox as eqx
from jaxtyping import jaxtyped, Float, Key, Array


class AbstractMeasurementSystem(eqx.Module):  # scaffolding: trimmed from measurement_functions/abc.py
    covariance: eqx.AbstractVar[Array]


class RangeSensor(AbstractMeasurementSystem):  # scaffolding: trimmed from measurement_functions/norms.py
    covariance: Float[Array, "1 1"]

    def __call__(self, state, key=None):
        return jnp.linalg.norm(state).reshape(-1)


def ikeda_update(state, u=0.9):  # scaffolding: Ikeda map stand-in for the repo's dynamical system
    x, y = state[..., 0], state[..., 1]
    t = 0.4 - 6 / (1 + x**2 + y**2)
    return jnp.stack([1 + u * (x * jnp.cos(t) - y * jnp.sin(t)), u * (x * jnp.sin(t) + y * jnp.cos(t))], axis=-1)


@eqx.filter_jit
def enkf_update(
    key: Key[Array, "..."],
    ensemble: Float[Array, "batch_size state_dim"],
    measurement: Float[Array, "batch_size measurement_dim"],
    measurement_system: AbstractMeasurementSystem,
    inflation_factor: float = 1.01,
    debug: bool = False,
) -> Float[Array, "batch_size state_dim"]:
    mean = jnp.mean(ensemble, axis=0)

    if debug:
        jax.debug.print("{shape}", mean.shape)

    inflated = mean + inflation_factor * (ensemble - mean)

    ensemble_covariance = jnp.cov(inflated.T)

    @jax.jit
    def update_ensemble_point(
        point: Float[Array, "state_dim"], key: Key[Array, "..."]
    ) -> Float[Array, "state_dim"]:
        point_measurement = measurement_system(point)
        measurement_jacobian = jax.jacfwd(measurement_system)(point)
        innovation_covariance = (
            measurement_jacobian @ ensemble_covariance @ measurement_jacobian.T
            + measurement_system.covariance
        )
        kalman_gain = (
            ensemble_covariance
            @ measurement_jacobian.T
            @ jnp.linalg.inv(innovation_covariance)
        )
        point = point + (
            kalman_gain @ jnp.atleast_2d(measurement - point_measurement)
        ).reshape(-1)
        return point

    keys = jax.random.split(key, ensemble.shape[0])
    updated_ensemble = jax.vmap(update_ensemble_point)(inflated, keys)
    return updated_ensemble


# scaffolding: the notebook loop of the positive, driving the library's enkf_update
key = jax.random.key(42)  # scaffolding
sensor = RangeSensor(covariance=jnp.array([[1 / 16]]))  # scaffolding
true_state = jnp.array([1.25, 0.0])  # scaffolding
key, subkey = jax.random.split(key)  # scaffolding
ensemble = true_state + 1 / 16 * jax.random.normal(subkey, shape=(100, 2))  # scaffolding
n_steps = 5  # scaffolding
for _ in range(n_steps):  # scaffolding
    key, subkey, ukey = jax.random.split(key, 3)  # scaffolding
    measurement = sensor(true_state) + 1 / 16 * jax.random.normal(subkey)  # scaffolding
    ensemble = enkf_update(ukey, ensemble, measurement, sensor)  # scaffolding
    ensemble = ikeda_update(ensemble)  # scaffolding
    true_state = ikeda_update(true_state)  # scaffolding
_report({"jit(enkf_update)", "jit(update_ensemble_point)"}, n_steps)  # scaffolding
