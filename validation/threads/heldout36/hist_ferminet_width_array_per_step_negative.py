# source: https://github.com/spirlness/ferminet-jax/commit/14dd1eb9bb5e85e87fedd1f5cd45f40651dd6441
# expect: none
# runtime: COMPILES 1 CALLS 12
# why: The training loop builds a fresh jnp.full width array from a Python float that the MCMC adaptation changes, which the commit believed re-jitted the step; only the array's value changes, not its shape or dtype, so jit(pmap(adam_step_fn)) compiles once.

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
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp

# --- scaffolding: stand-ins for ferminet.constants, the MCMC move and the Adam update ---
PMAP_AXIS_NAME = "qmc_pmap_axis"


class constants:  # scaffolding
    pmap = staticmethod(lambda f, **kw: jax.pmap(f, axis_name=PMAP_AXIS_NAME, **kw))
    pmean = staticmethod(lambda x: jax.lax.pmean(x, PMAP_AXIS_NAME))


def mcmc_step(params, data, key, width):  # scaffolding: random-walk Metropolis on a Gaussian
    logp = lambda y: -0.5 * jnp.sum((y - params["mu"]) ** 2, axis=-1)
    k1, k2 = jax.random.split(key)
    prop = data + width * jax.random.normal(k1, data.shape)
    accept = jnp.log(jax.random.uniform(k2, data.shape[:1])) < logp(prop) - logp(data)
    return jnp.where(accept[:, None], prop, data), jnp.mean(accept)


def update_fn(params, opt_state, key, data, step):  # scaffolding: one gradient step
    loss = lambda p: jnp.mean(jnp.sum((data - p["mu"]) ** 2, axis=-1))
    loss_value, g = jax.value_and_grad(loss)(params)
    new_params = jax.tree_util.tree_map(lambda p, gi: p - 0.01 * gi, params, g)
    aux = type("Aux", (), {"variance": jnp.var(data)})()
    return new_params, opt_state, loss_value, aux, None


schedule = lambda step: 1e-2 / (1.0 + 1e-3 * step)  # scaffolding


class StepStats(NamedTuple):  # scaffolding for train_utils.StepStats
    energy: Any
    variance: Any
    pmove: Any
    learning_rate: Any


def update_mcmc_width(
    t: int,
    width: float,
    adapt_frequency: int,
    pmove: float,
    pmoves: jnp.ndarray,
    pmove_max: float = 0.55,
    pmove_min: float = 0.5,
    width_min: float = 0.001,
    width_max: float = 10.0,
) -> tuple[float, jnp.ndarray]:
    """Adapts MCMC step width based on acceptance rate."""
    target = (pmove_max + pmove_min) / 2.0
    eta = 0.5
    max_log_change = 0.4

    log_width = jnp.log(width)
    delta = jnp.clip(eta * (pmove - target), -max_log_change, max_log_change)
    log_width = log_width + delta
    width = float(jnp.clip(jnp.exp(log_width), width_min, width_max))

    return width, pmoves


device_count = jax.local_device_count()  # scaffolding
params = jax.tree_util.tree_map(lambda x: x[None], {"mu": jnp.zeros(3)})  # scaffolding
opt_state = jnp.zeros((device_count,))  # scaffolding
data = jax.random.normal(jax.random.key(0), (device_count, 64, 3))  # scaffolding
key = jax.random.split(jax.random.key(1), device_count)  # scaffolding
# scaffolding: replicate/shard the initial state the way ferminet's pmapped init does
params, opt_state, data, key = constants.pmap(lambda *a: a)(params, opt_state, data, key)
width = 0.02
pmoves = jnp.zeros(3)
step, iterations, adapt_frequency = 0, 12, 3  # scaffolding: cut down


@jax.jit
@constants.pmap
def adam_step_fn(
    params,
    opt_state: Any,
    data,
    key: jax.Array,
    step: jnp.ndarray,
    mcmc_width: Any,
):
    key, mcmc_key, loss_key = jax.random.split(key, 3)
    new_data, pmove = mcmc_step(params, data, mcmc_key, mcmc_width)

    new_params, new_opt_state, loss_value, aux, _ = update_fn(
        params, opt_state, loss_key, new_data, step
    )

    energy = constants.pmean(loss_value)
    variance = constants.pmean(aux.variance)
    pmove = constants.pmean(pmove)
    lr = jnp.asarray(schedule(step))
    stats = StepStats(
        energy=energy, variance=variance, pmove=pmove, learning_rate=lr
    )

    is_finite = jnp.isfinite(energy)
    new_params = jax.tree_util.tree_map(
        lambda p, np: jnp.where(is_finite, np, p), params, new_params
    )
    new_opt_state = jax.tree_util.tree_map(
        lambda p, np: jnp.where(is_finite, np, p), opt_state, new_opt_state
    )

    return new_params, new_opt_state, new_data, key, stats


step_fn = adam_step_fn
widths = set()  # scaffolding
for i in range(step, iterations):
    width_array = jnp.full((device_count,), width)
    step_array = jnp.full((device_count,), i, dtype=jnp.int32)

    step_result = step_fn(params, opt_state, data, key, step_array, width_array)
    new_params, new_opt_state, data, key, stats = step_result

    params, opt_state = new_params, new_opt_state
    widths.add(width)  # scaffolding

    if (i + 1) % adapt_frequency == 0:
        pmove_value = float(jax.device_get(stats.pmove)[0])  # scaffolding for _to_host
        width, pmoves = update_mcmc_width(
            i + 1,
            width,
            adapt_frequency,
            pmove_value,
            pmoves,
        )

print("distinct widths:", len(widths))  # scaffolding
_report({"jit(adam_step_fn)"}, iterations - step)
