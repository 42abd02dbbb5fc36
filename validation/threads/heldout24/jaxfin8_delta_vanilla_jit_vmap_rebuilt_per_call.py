# source: https://github.com/paolodelia99/jaxfin/pull/8
# expect: jit-in-loop-or-body at line 251
# runtime: COMPILES 3 CALLS 3
# why: delta_vanilla wraps the jitted _delta_vanilla as jit(vmap(...)) inside its own body, so every call builds a new jitted function and the batch Greeks recompile each time (three daily evaluations with the same shapes compile three times).
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


# jaxfin at 4c45123 (PR #8 merged), flattened: price_engine/math.py, common.py, utils.py,
# black_scholes/vanilla_options.py (delta/gamma only; theta/vega/rho follow the same pattern) and black_scholes/__init__.py
from typing import List, Union

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

    :param spots: Current spot price of the underlying
    :param strikes: Strike price of the option
    :param vols: Volatility of the underlying
    :param expires: Time to expiration of the option
    :param discount_rates: Risk-free rate
    :return: d1 term
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

    :param x: Input value
    :return: Cumulative normal distribution value
    """
    return (erf(x / _SQRT_2) + 1) / 2


# --- jaxfin/price_engine/common.py ---
def _compute_d1_d2(spots, strikes, expires, vols, discount_rates):
    """
    Compute the d1 and d2 terms in the Black-Scholes formula

    :param spots: Current spot price of the underlying
    :param strikes: Strike price of the option
    :param expires: Time to expiration of the option
    :param vols: Volatility of the underlying
    :param discount_rates: Risk-free rate
    :return: d1 and d2 terms
    """
    vol_sqrt_t = vols * jnp.sqrt(expires)

    _d1 = d1(spots, strikes, vols, expires, discount_rates)

    return [_d1, _d1 - vol_sqrt_t]


@jax.jit
def compute_discounted_call_prices(spots, strikes, expires, vols, discount_rates):
    """
    Compute the discounted call option prices

    :param spots: Current spot price of the underlying
    :param strikes: Strike price of the option
    :param expires: Time to expiration of the option
    :param vols: Volatility of the underlying
    :param discount_rates: Risk-free rate
    :return: Discounted call option prices
    """
    [_d1, _d2] = _compute_d1_d2(spots, strikes, expires, vols, discount_rates)

    return cum_normal(_d1) * spots - cum_normal(_d2) * strikes * jnp.exp(
        (-discount_rates) * expires
    )


# --- jaxfin/price_engine/utils.py ---
def cast_arrays(array: List[jax.Array], dtype):
    """
    Casts the array to the specified dtype

    :param array: List of arrays
    :param dtype: dtype to cast the array to
    :return: List of arrays with the specified dtype
    """
    if dtype is not None:
        return [jnp.astype(el, dtype) for el in array]

    return array


# --- jaxfin/price_engine/black_scholes/vanilla_options.py ---
def bs_price(
    spots: jax.Array,
    strikes: jax.Array,
    expires: jax.Array,
    vols: jax.Array,
    discount_rates: jax.Array,
    are_calls: jax.Array = None,
    dtype: jnp.dtype = None,
) -> jax.Array:
    """
    Compute the option prices for european options using the Black-Scholes model.

    :param spots: (jax.Array): Array of current asset prices.
    :param strikes: (jax.Array): Array of option strike prices.
    :param expires: (jax.Array): Array of option expiration times.
    :param vols: (jax.Array): Array of option volatility values.
    :param discount_rates: (jax.Array): Array of risk-free interest rates. Defaults to None.
    :param dividend_rates: (jax.Array): Array of dividend rates. Defaults to None.
    :param are_calls: (jax.Array): Array of booleans indicating whether options are calls (True) or puts (False).
    :param dtype: (jnp.dtype): Data type of the output. Defaults to None.
    :return: (jax.Array): Array of computed option prices.
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

    :param spots: (jax.Array): Array of current asset prices.
    :param strikes: (jax.Array): Array of option strike prices.
    :param expires: (jax.Array): Array of option expiration times.
    :param vols: (jax.Array): Array of option volatility values.
    :param discount_rates: (jax.Array): Array of risk-free interest rates.
    :param are_calls: (jax.Array): Array of booleans indicating whether options
                                   are calls (True) or puts (False).
    :param dtype: (jnp.dtype): Data type of the output. Defaults to None.
    :return: (jax.Array): Array of delta of the given options.
    """
    return grad(bs_price, argnums=0)(
        spots, strikes, expires, vols, discount_rates, are_calls, dtype
    )


@jit
def _gamma_vanilla(
    spots: jax.Array,
    strikes: jax.Array,
    expires: jax.Array,
    vols: jax.Array,
    discount_rates: jax.Array,
    are_calls: jax.Array = None,
    dtype: jnp.dtype = None,
) -> jax.Array:
    """
    Calculate the gamma of a european option under the BS model (scalar version)

    :param spots: (jax.Array): Array of current asset prices.
    :param strikes: (jax.Array): Array of option strike prices.
    :param expires: (jax.Array): Array of option expiration times.
    :param vols: (jax.Array): Array of option volatility values.
    :param discount_rates: (jax.Array): Array of risk-free interest rates
    :param are_calls: (jax.Array) Array of booleans indicating whether options
                                  are calls (True) or puts (False).
    :param dtype: (jnp.dtype): Data type of the output. Defaults to None.
    :return: (jax.Array): Array of gamma of the given options.
    """
    return grad(grad(bs_price, argnums=0), argnums=0)(
        spots, strikes, expires, vols, discount_rates, are_calls, dtype
    )


# Vectorize version of the functions since we are dealing with arrays


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

    :param spots: (Union[jax.Array, float]): Current asset price or array of prices.
    :param strikes: (Union[jax.Array, float]): Option strike price or array of prices.
    :param expires: (Union[jax.Array, float]): Option expiration time or array of times.
    :param vols: (Union[jax.Array, float]): Option volatility value or array of values.
    :param discount_rates: (Union[jax.Array, float]): Risk-free interest rate or array of rates.
    :param are_calls: (Union[jax.Array, bool]): Boolean indicating whether option is a call or
                                                put, or array of booleans.
    :param dtype: (jnp.dtype): Data type of the output. Defaults to None.
    :return: (Union[jax.Array, float]): Delta of the given option or array of deltas.
    """
    if jnp.isscalar(spots) or spots.shape == ():
        return _delta_vanilla(
            spots, strikes, expires, vols, discount_rates, are_calls, dtype
        )

    return jit(vmap(_delta_vanilla, in_axes=(0, 0, 0, 0, 0, 0, None)))(
        spots, strikes, expires, vols, discount_rates, are_calls, dtype
    )


def gamma_vanilla(
    spots: Union[jax.Array, float],
    strikes: Union[jax.Array, float],
    expires: Union[jax.Array, float],
    vols: Union[jax.Array, float],
    discount_rates: Union[jax.Array, float],
    are_calls: Union[jax.Array, bool] = None,
    dtype: jnp.dtype = None,
) -> Union[jax.Array, float]:
    """
    Calculate the gamma of a european option under the BS model (vectorized)

    :param spots: (Union[jax.Array, float]): Current asset price or array of prices.
    :param strikes: (Union[jax.Array, float]): Option strike price or array of prices.
    :param expires: (Union[jax.Array, float]): Option expiration time or array of times.
    :param vols: (Union[jax.Array, float]): Option volatility value or array of values.
    :param discount_rates: (Union[jax.Array, float]): Risk-free interest rate or array of rates.
    :param are_calls: (Union[jax.Array, bool]): Boolean indicating whether option is a
                                                call or put, or array of booleans.
    :param dtype: (jnp.dtype): Data type of the output. Defaults to None.
    :return: (Union[jax.Array, float]): Gamma of the given option or array of gammas.
    """
    if jnp.isscalar(spots) or spots.shape == ():
        return _gamma_vanilla(
            spots, strikes, expires, vols, discount_rates, are_calls, dtype
        )

    return jit(vmap(_gamma_vanilla, in_axes=(0, 0, 0, 0, 0, 0, None)))(
        spots, strikes, expires, vols, discount_rates, are_calls, dtype
    )


# --- jaxfin/price_engine/black_scholes/__init__.py ---
european_price = bs_price
delta_european = delta_vanilla
gamma_european = gamma_vanilla


# --- tests/price_engine/test_bs.py (test_delta_bs_batch), re-run for three trading days ---
DTYPE = jnp.float32

expires = jnp.array([1.0, 1.0, 1.0, 1.0, 1.0], dtype=DTYPE)
vols = jnp.array([.3, .25, .4, .2, .1], dtype=DTYPE)
strikes = jnp.array([120, 120, 120, 120, 120], dtype=DTYPE)
discount_rates = jnp.array([0.00, 0.00, 0.00, 0.00, 0.00], dtype=DTYPE)

for day, move in enumerate([0.0, 1.5, -2.0]):  # scaffolding: three days, spots shifted by a few points
    spots = jnp.array([100, 90, 80, 110, 120], dtype=DTYPE) + move  # scaffolding
    call_delta = delta_european(spots, strikes, expires, vols, discount_rates)
print(call_delta)  # scaffolding
_report({"jit(_delta_vanilla)"}, 3)  # scaffolding: the jit(vmap(_delta_vanilla)) built inside delta_vanilla
