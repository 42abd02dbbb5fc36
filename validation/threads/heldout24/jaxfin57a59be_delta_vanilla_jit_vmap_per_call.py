# source: https://github.com/paolodelia99/jaxfin/commit/57a59be132016ae5ced6064b9a0ae3a21ad141f8
# expect: jit-in-loop-or-body at line 161
# runtime: COMPILES 6 CALLS 6
# why: the vectorized delta_vanilla builds jit(vmap(_delta_vanilla, ...)) inside the function, so every call wraps a new vmap object in a new jit and compiles again: 6 compiles for 6 calls with identical shapes.

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


from typing import Callable, List, Optional, Tuple, TypeVar, Union

import jax
import jax.numpy as jnp
from jax import grad, jit, vmap
from jax.scipy.special import erf


# --- jaxfin/price_engine/math.py ---
_SQRT_2 = jnp.sqrt(2.0)


@jax.jit
def d1(spots, strikes, vols, expires, discount_rates):
    """
    Calculate the d1 term in the Black-Scholes formula
    """
    vol_sqrt_t = vols * jnp.sqrt(expires)

    return jnp.divide(
        (jnp.log(spots / strikes) + (discount_rates + (vols**2 / 2)) * expires),
        vol_sqrt_t,
    )


@jax.jit
def cum_normal(x):
    """
    Cumulative normal distribution function
    """
    return (erf(x / _SQRT_2) + 1) / 2


# --- jaxfin/price_engine/utils.py ---
def cast_arrays(array: List[jax.Array], dtype):
    """
    Casts the array to the specified dtype
    """
    if dtype is not None:
        return [jnp.astype(el, dtype) for el in array]

    return array


# --- jaxfin/price_engine/common.py ---
def _compute_d1_d2(spots, strikes, expires, vols, discount_rates):
    """
    Compute the d1 and d2 terms in the Black-Scholes formula
    """
    vol_sqrt_t = vols * jnp.sqrt(expires)

    _d1 = d1(spots, strikes, vols, expires, discount_rates)

    return [_d1, _d1 - vol_sqrt_t]


@jax.jit
def compute_discounted_call_prices(spots, strikes, expires, vols, discount_rates):
    """
    Compute the discounted call option prices
    """
    [_d1, _d2] = _compute_d1_d2(spots, strikes, expires, vols, discount_rates)

    return cum_normal(_d1) * spots - cum_normal(_d2) * strikes * jnp.exp(
        (-discount_rates) * expires
    )


# --- jaxfin/price_engine/black_scholes/vanilla_options.py (before the commit; gamma/theta/rho/vega cut) ---
def bs_price(
    spots: jax.Array,
    strikes: jax.Array,
    expires: jax.Array,
    vols: jax.Array,
    discount_rates: jax.Array,
    are_calls: Optional[jax.Array] = None,
    dtype: Optional[jnp.dtype] = None,
) -> jax.Array:
    """
    Compute the option prices for european options using the Black-Scholes model.
    """
    [spots, strikes, expires, vols] = cast_arrays(
        [spots, strikes, expires, vols], dtype
    )

    discount_factors = jnp.exp(-discount_rates * expires)

    calls = compute_discounted_call_prices(
        spots, strikes, expires, vols, discount_rates
    )

    if are_calls is None:
        return calls

    puts = calls + (strikes * discount_factors) - spots
    return jnp.where(are_calls, calls, puts)


@jit
def _delta_vanilla(
    spots: jax.Array,
    strikes: jax.Array,
    expires: jax.Array,
    vols: jax.Array,
    discount_rates: jax.Array,
    are_calls: jax.Array = None,
    dtype: jnp.dtype = None,
) -> jax.Array:
    """
    Calculate the delta of a call/put option under the BS model (scalar version)
    """
    return grad(bs_price, argnums=0)(
        spots, strikes, expires, vols, discount_rates, are_calls, dtype
    )


def delta_vanilla(
    spots: Union[jax.Array, float],
    strikes: Union[jax.Array, float],
    expires: Union[jax.Array, float],
    vols: Union[jax.Array, float],
    discount_rates: Union[jax.Array, float],
    are_calls: Union[jax.Array, bool] = None,
    dtype: jnp.dtype = None,
) -> Union[jax.Array, float]:
    """
    Calculate the delta of a call/put option under the BS model (vectorized)
    """
    if jnp.isscalar(spots) or spots.shape == ():
        return _delta_vanilla(
            spots, strikes, expires, vols, discount_rates, are_calls, dtype
        )

    return jit(vmap(_delta_vanilla, in_axes=(0, 0, 0, 0, 0, 0, None)))(
        spots, strikes, expires, vols, discount_rates, are_calls, dtype
    )


# --- driver: end-of-day deltas of a 5-option book over 6 trading days (tests/price_engine/test_bs.py data) --- scaffolding
DTYPE = jnp.float32  # scaffolding
strikes = jnp.array([120, 120, 120, 120, 120], dtype=DTYPE)  # scaffolding
expires = jnp.array([1.0, 1.0, 1.0, 1.0, 1.0], dtype=DTYPE)  # scaffolding
vols = jnp.array([.3, .25, .4, .2, .1], dtype=DTYPE)  # scaffolding
discount_rates = jnp.array([0.00, 0.00, 0.00, 0.00, 0.00], dtype=DTYPE)  # scaffolding
call_flag = jnp.array([True, True, True, True, True], dtype=jnp.bool_)  # scaffolding
for day in range(6):  # scaffolding
    spots = jnp.array([100, 90, 80, 110, 120], dtype=DTYPE) * (1 + 0.01 * day)  # scaffolding
    call_delta = delta_vanilla(spots, strikes, expires, vols, discount_rates, call_flag)  # scaffolding
print(call_delta)  # scaffolding
_report({"jit(_delta_vanilla)"}, 6)  # scaffolding
