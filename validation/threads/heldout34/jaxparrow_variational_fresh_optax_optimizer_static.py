# source: https://github.com/IGE-OPERA/jaxparrow/pull/61
# expect: changing-static at line 188
# runtime: COMPILES 4 CALLS 4
# why: After PR #61 cyclogeostrophy builds the optax optimizer from the string on every call and passes it as the static `optim`; each GradientTransformation holds fresh closures, so every call recompiles.

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
from collections.abc import Callable
from functools import partial
from typing import Literal, Union

from jax import jit, lax, value_and_grad
import jax.numpy as jnp
from jaxtyping import Array, Float, Scalar
import optax


class sanitize:  # scaffolding: jaxparrow/tools/sanitize.py sanitize_data, verbatim body
    @staticmethod
    def sanitize_data(arr, fill_value, mask):
        arr = jnp.nan_to_num(arr, nan=fill_value, posinf=fill_value, neginf=fill_value)
        arr = jnp.where(mask, fill_value, arr)
        return arr


class kinematics:  # scaffolding: stand-in for jaxparrow/tools/kinematics.py advection (C-grid stencils trimmed)
    @staticmethod
    def advection(u, v, dx_u, dy_u, dx_v, dy_v, mask):
        u_adv_v = u * jnp.gradient(v, axis=1) / dx_v + v * jnp.gradient(v, axis=0) / dy_v
        v_adv_u = u * jnp.gradient(u, axis=1) / dx_u + v * jnp.gradient(u, axis=0) / dy_u
        return u_adv_v, v_adv_u


# --- jaxparrow/cyclogeostrophy.py (IGE-OPERA/jaxparrow @ e905552), variational method ---
#: Default maximum number of iterations for our variational approach
N_IT_VAR = 2000
#: Default learning rate for the gradient descent for our variational approach
LR_VAR = 0.005
def _var_loss_fn(
        u_geos_u: Float[Array, "lat lon"],
        v_geos_v: Float[Array, "lat lon"],
        dx_u: Float[Array, "lat lon"],
        dx_v: Float[Array, "lat lon"],
        dy_u: Float[Array, "lat lon"],
        dy_v: Float[Array, "lat lon"],
        coriolis_factor_u: Float[Array, "lat lon"],
        coriolis_factor_v: Float[Array, "lat lon"],
        mask: Float[Array, "lat lon"],
        uv_cyclo: [Float[Array, "lat lon"], Float[Array, "lat lon"]]
) -> Float[Scalar, ""]:
    u_cyclo_u, v_cyclo_v = uv_cyclo
    u_adv_v, v_adv_u = kinematics.advection(u_cyclo_u, v_cyclo_v, dx_u, dy_u, dx_v, dy_v, mask)
    return _cyclogeostrophic_diff(u_geos_u, v_geos_v, u_cyclo_u, v_cyclo_v, u_adv_v, v_adv_u,
                                  coriolis_factor_u, coriolis_factor_v)


def _var_step(
        mask: Float[Array, "lat lon"],
        loss_fn: Callable[[[Float[Array, "lat lon"], Float[Array, "lat lon"]]], Float[Scalar, ""]],
        optim: optax.GradientTransformation,
        return_losses: bool,
        u_cyclo_u: Float[Array, "lat lon"],
        v_cyclo_v: Float[Array, "lat lon"],
        opt_state: optax.OptState,
        losses: Float[Array, "n_it"],
        i: int
) -> [Float[Array, "lat lon"], ...]:
    params = (u_cyclo_u, v_cyclo_v)
    # evaluate the cost function and compute its gradient
    loss, grads = value_and_grad(loss_fn)(params)
    # make sure to remove nan values
    grads = (sanitize.sanitize_data(grads[0], 0., mask), sanitize.sanitize_data(grads[1], 0., mask))
    # update the optimizer
    updates, opt_state = optim.update(grads, opt_state, params)
    # apply updates to the parameters
    u_n, v_n = optax.apply_updates(params, updates)

    # store loss
    losses = lax.cond(
        return_losses,
        lambda operands: operands[0].at[operands[1]].set(operands[2]), lambda operands: operands[0],
        (losses, i, loss)
    )

    i += 1

    return u_n, v_n, opt_state, losses, i


def _solve(
        u_geos_u: Float[Array, "lat lon"],
        v_geos_v: Float[Array, "lat lon"],
        mask: Float[Array, "lat lon"],
        loss_fn: Callable[[[Float[Array, "lat lon"], Float[Array, "lat lon"]]], Float[Scalar, ""]],
        n_it: int,
        optim: optax.GradientTransformation,
        return_losses: bool
) -> [Float[Array, "lat lon"], ...]:
    # define step partial: freeze constant over iterations
    def step_fn(pytree):
        return _var_step(mask, loss_fn, optim,  return_losses, *pytree)

    u_cyclo_u, v_cyclo_v, opt_state, losses, i = lax.while_loop(  # noqa
        lambda args: args[-1] < n_it,
        step_fn,
        (u_geos_u, v_geos_v, optim.init((u_geos_u, v_geos_v)), jnp.ones(n_it) * jnp.nan, 0)
    )

    return u_cyclo_u, v_cyclo_v, losses


@partial(jit, static_argnames=("n_it", "optim"))
def _variational(
        u_geos_u: Float[Array, "lat lon"],
        v_geos_v: Float[Array, "lat lon"],
        dx_u: Float[Array, "lat lon"],
        dx_v: Float[Array, "lat lon"],
        dy_u: Float[Array, "lat lon"],
        dy_v: Float[Array, "lat lon"],
        coriolis_factor_u: Float[Array, "lat lon"],
        coriolis_factor_v: Float[Array, "lat lon"],
        mask: Float[Array, "lat lon"],
        n_it: int,
        optim: optax.GradientTransformation,
        return_losses: bool
) -> [Float[Array, "lat lon"], ...]:
    # define loss partial: freeze constant over iterations
    loss_fn = partial(
        _var_loss_fn,
        u_geos_u, v_geos_v, dx_u, dx_v, dy_u, dy_v, coriolis_factor_u, coriolis_factor_v, mask
    )

    return _solve(u_geos_u, v_geos_v, mask, loss_fn, n_it, optim, return_losses)


def _cyclogeostrophic_diff(
        u_geos_u: Float[Array, "lat lon"],
        v_geos_v: Float[Array, "lat lon"],
        u_cyclo_u: Float[Array, "lat lon"],
        v_cyclo_v: Float[Array, "lat lon"],
        u_adv_v: Float[Array, "lat lon"],
        v_adv_u: Float[Array, "lat lon"],
        coriolis_factor_u: Float[Array, "lat lon"],
        coriolis_factor_v: Float[Array, "lat lon"]
) -> Float[Scalar, ""]:
    J_u = jnp.nansum((u_cyclo_u + v_adv_u / coriolis_factor_u - u_geos_u) ** 2)
    J_v = jnp.nansum((v_cyclo_v - u_adv_v / coriolis_factor_v - v_geos_v) ** 2)
    return J_u + J_v


def cyclogeostrophy(u_geos_u, v_geos_v, dx_u, dx_v, dy_u, dy_v, coriolis_factor_u, coriolis_factor_v, mask,
                    method: Literal["variational", "iterative"] = "variational",
                    n_it: int = None,
                    optim: Union[optax.GradientTransformation, str] = "sgd",
                    optim_kwargs: dict = None,
                    return_losses: bool = False):  # (ssh -> geostrophy, grids, sanitizing and the iterative method trimmed)
    if method == "variational":
        if n_it is None:
            n_it = N_IT_VAR
        if isinstance(optim, str):
            if optim_kwargs is None:
                optim_kwargs = {"learning_rate": LR_VAR}
            optim = getattr(optax, optim)(**optim_kwargs)
        elif not isinstance(optim, optax.GradientTransformation):
            raise TypeError("optim should be an optax.GradientTransformation optimizer, or a string referring to such "
                            "an optimizer.")
        res = _variational(u_geos_u, v_geos_v, dx_u, dx_v, dy_u, dy_v, coriolis_factor_u, coriolis_factor_v, mask,
                           n_it, optim, return_losses)
    else:
        raise ValueError("method should be one of [\"variational\", \"iterative\"]")
    return res


# scaffolding: a small synthetic ocean patch instead of ssh/lat/lon -> geostrophy() and grid helpers
ny, nx = 16, 16
yy, xx = jnp.meshgrid(jnp.linspace(-1.0, 1.0, ny), jnp.linspace(-1.0, 1.0, nx), indexing="ij")
u_geos_u = -yy * jnp.exp(-(xx**2 + yy**2))
v_geos_v = xx * jnp.exp(-(xx**2 + yy**2))
dx_u = dx_v = dy_u = dy_v = jnp.full((ny, nx), 1e4)
coriolis_factor_u = coriolis_factor_v = jnp.full((ny, nx), 1e-4)
mask = jnp.zeros((ny, nx), dtype=bool)

for day in range(4):  # scaffolding: four snapshots, default optimizer settings
    u_cyclo_u, v_cyclo_v, losses = cyclogeostrophy(u_geos_u * (1 + 0.1 * day), v_geos_v, dx_u, dx_v, dy_u, dy_v,
                                           coriolis_factor_u, coriolis_factor_v, mask, n_it=20)
_report({"jit(_variational)"}, 4)  # scaffolding
