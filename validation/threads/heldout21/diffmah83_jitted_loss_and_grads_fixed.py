# source: https://github.com/ArgonneCPAC/diffmah/issues/83
# expect: none
# runtime: COMPILES 1 CALLS 20
# why: the fix passes a @jjit log_mah_mse_loss_and_grads (value_and_grad inside jit) to the wrapper, so loss and gradient compile once and each of the 20 steps is one compiled call.
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


import numpy as np
from jax import jit as jjit
from jax import numpy as jnp
from jax import value_and_grad
from jax.example_libraries import optimizers as jax_opt  # scaffolding: jax.experimental.optimizers in 2021


# diffmah/individual_halo_assembly.py
@jjit
def _softplus(x):
    return jnp.log(1 + jnp.exp(x))


@jjit
def _sigmoid(x, logtc, k, ymin, ymax):
    height_diff = ymax - ymin
    return ymin + height_diff / (1.0 + jnp.exp(-k * (x - logtc)))


@jjit
def _get_early_late(ue, ul):
    late = _softplus(ul)
    early = late + _softplus(ue)
    return early, late


@jjit
def _power_law_index_vs_logt(logt, logtc, k, early, late):
    rolling_index = _sigmoid(logt, logtc, k, early, late)
    return rolling_index


@jjit
def _rolling_plaw_vs_logt(logt, logt0, logmp, logtc, k, early, late):
    rolling_index = _power_law_index_vs_logt(logt, logtc, k, early, late)
    log_mah = rolling_index * (logt - logt0) + logmp
    return log_mah


@jjit
def _u_rolling_plaw_vs_logt(logt, logt0, logmp, logtc, k, ue, ul):
    early, late = _get_early_late(ue, ul)
    return _rolling_plaw_vs_logt(logt, logt0, logmp, logtc, k, early, late)


# diffmah/fit_mah_helpers.py
def _mse(pred, target):
    diff = pred - target
    return jnp.mean(diff * diff)


@jjit
def log_mah_mse_loss(params, loss_data):
    """MSE loss function for fitting individual halo growth."""
    logt, log_mah_target, logt0, fixed_k, logm0 = loss_data
    logtc, ue, ul = params

    log_mah_pred = _u_rolling_plaw_vs_logt(logt, logt0, logm0, logtc, fixed_k, ue, ul)
    log_mah_loss = _mse(log_mah_pred, log_mah_target)
    return log_mah_loss


@jjit
def log_mah_mse_loss_and_grads(params, loss_data):
    """MSE loss and grad function for fitting individual halo growth."""
    return value_and_grad(log_mah_mse_loss, argnums=0)(params, loss_data)


# diffmah/utils.py after the fix (PR #87)
def _jax_adam_wrapper(loss_and_grad_func, params_init, loss_data, n_step, step_size=0.01):
    loss_arr = np.zeros(n_step).astype("f4") - 1.0
    opt_init, opt_update, get_params = jax_opt.adam(step_size)
    opt_state = opt_init(params_init)
    n_params = len(params_init)
    params_arr = np.zeros((n_step, n_params)).astype("f4")

    for istep in range(n_step):
        p = np.array(get_params(opt_state))

        loss, grads = loss_and_grad_func(p, loss_data)

        no_nan_params = np.all(np.isfinite(p))
        no_nan_loss = np.isfinite(loss)
        no_nan_grads = np.all(np.isfinite(grads))
        if ~no_nan_params | ~no_nan_loss | ~no_nan_grads:
            if istep > 0:
                indx_best = np.nanargmin(loss_arr[:istep])
                best_fit_params = params_arr[indx_best]
                best_fit_loss = loss_arr[indx_best]
            else:
                best_fit_params = np.copy(p)
                best_fit_loss = 999.99
            return (
                best_fit_params,
                best_fit_loss,
                loss_arr[:istep],
                params_arr[:istep, :],
            )
        else:
            params_arr[istep, :] = p
            loss_arr[istep] = loss
            opt_state = opt_update(istep, grads, opt_state)

    indx_best = np.nanargmin(loss_arr)
    best_fit_params = params_arr[indx_best]
    loss = loss_arr[indx_best]
    return best_fit_params, loss, loss_arr, params_arr


# scaffolding: one halo history (the fitting script loops over halos), 20 Adam steps
logt = np.log10(np.linspace(1.0, 13.8, 50))
logt0 = np.log10(13.8)
log_mah_target = np.array(_u_rolling_plaw_vs_logt(logt, logt0, 12.0, 0.1, 3.5, 2.0, -1.5))
loss_data = (logt, log_mah_target, logt0, 3.5, 12.0)
n_step = 20
_jax_adam_wrapper(log_mah_mse_loss_and_grads, np.array((0.05, 2.4, -2.0)), loss_data, n_step, step_size=0.01)
print(sorted(set(_COMPILED)), len(_COMPILED), file=__import__("sys").stderr)  # scaffolding
_report({"jit(log_mah_mse_loss_and_grads)", "jit(log_mah_mse_loss)"}, n_step)  # scaffolding
