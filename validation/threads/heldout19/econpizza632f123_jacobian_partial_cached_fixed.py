# source: https://github.com/gboehl/econpizza/commit/632f123a65b91f79952e36214a0d16e4185320d4
# expect: none
# runtime: COMPILES 2 CALLS 5
# why: The commit caches the Partial in the model dict per horizon, so the same function object reaches the scans and they compile once each (2 compiles for 5 calls).
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

import time
import jax
import jax.numpy as jnp


def amax(x):  # scaffolding: grgrlib.jaxed.amax
    return jnp.max(jnp.abs(x))


def jacrev_and_val(fun, argnums):  # scaffolding: grgrlib.jaxed.jacrev_and_val (value and reverse-mode jacobians)
    def inner(*args, **kwargs):
        jac, val = jax.jacrev(lambda *a: (fun(*a, **kwargs),) * 2, argnums, has_aux=True)(*args)
        return val, jac
    return inner


def func_eqns(XLag, X, XPrime, XSS, pars, shocks, distributions, decisions_outputs):  # scaffolding: a 2-equation linear model
    rho, beta = pars
    return jnp.array([
        X[0] - rho * XLag[0] - shocks[0],
        X[1] - beta * XPrime[1] - X[0],
    ])


def sweep_banded_down(val, i):
    jav_func, fmod, forward_mat, X, shocks = val
    # calculate value and jacobians
    fval, (jac_f2xLag, jac_f2x, jac_f2xPrime) = jav_func(
        X[i], X[i+1], X[i+2], shocks=shocks[i])
    # work on banded sequence space jacobian
    bmat = jnp.linalg.inv(jac_f2x - jac_f2xLag @ forward_mat)
    forward_mat = bmat @ jac_f2xPrime
    fmod = bmat @ (fval - jac_f2xLag @ fmod)
    return (jav_func, fmod, forward_mat, X, shocks), (fmod, forward_mat)


def sweep_banded_up(val, i):
    forward_mat, fvals, fval = val
    # go backwards in time
    fval = fvals[i] - forward_mat[i] @ fval
    return (forward_mat, fvals, fval), fval


def check_status(err, cnt, maxit, tol):
    """Check whether to exit iteration and compile error message"""

    # exit causes
    if err < tol:
        return True, (True, "The solution converged.")

    if jnp.isnan(err):
        return True, (False, "Function returns 'NaN's")

    if cnt > maxit:
        return True, (False, f"Maximum number of {maxit} iterations reached.")

    return False, (False, "")


def newton_for_banded_jac(jav_func, nvars, horizon, X, shocks, verbose, maxit=30, tol=1e-8):

    st = time.time()
    cnt = 0

    while True:

        _, (fvals, forward_mat) = jax.lax.scan(sweep_banded_down, (jav_func, jnp.zeros(
            nvars), jnp.zeros((nvars, nvars)), X, shocks), jnp.arange(horizon-1))
        _, out = jax.lax.scan(sweep_banded_up, (forward_mat, fvals, jnp.zeros(
            nvars)), jnp.arange(horizon-1), reverse=True)

        X = X.at[1:-1].add(-out)
        err = amax(out)
        cnt += 1

        ltime = time.time() - st
        info_str = f'    Iteration {cnt:3d} | max error {err:.2e} | lapsed {ltime:3.4f}s'

        if verbose:
            print(info_str)

        do_break, (success, mess) = check_status(err, cnt, maxit, tol)
        if do_break:
            break

    if not success:
        mess += f" Max. error is {err:1.2e}."

    return X, False, ''


def find_path_stacking(
    model,
    shock=None,
    x0=None,
    horizon=300,
    verbose=True,
    raise_errors=True,
    **newton_args
):

    st = time.time()

    # get variables
    stst = jnp.array(list(model["stst"].values()))
    nvars = len(model["variables"])
    pars = jnp.array(list(model["parameters"].values()))
    shocks = model.get("shocks") or ()

    # get initial guess
    x0 = jnp.array(list(x0)) if x0 is not None else stst
    x_stst = jnp.ones((horizon + 1, nvars)) * stst
    x_init = x_stst.at[0].set(x0)

    # deal with shocks if any
    zero_shocks = jnp.zeros((horizon-1, len(shocks)))
    if shock is not None:
        try:
            shock_series = zero_shocks.at[0,
                                          shocks.index(shock[0])].set(shock[1])
        except ValueError:
            raise ValueError(f"Shock '{shock[0]}' is not defined.")
    else:
        shock_series = zero_shocks

    if not model.get('distributions'):

        if model['new_model_horizon'] != horizon:
            # get transition function
            func_eqns = model['context']["func_eqns"]
            jav_func_eqns = jacrev_and_val(func_eqns, (0, 1, 2))
            jav_func_eqns_partial = jax.tree_util.Partial(
                jav_func_eqns, XSS=stst, pars=pars, distributions=[], decisions_outputs=[])
            model['new_model_horizon'] = horizon
            model['jav_func'] = jav_func_eqns_partial

        # actual newton iterations
        jav_func_eqns_partial = model['jav_func']
        x_out, flag, mess = newton_for_banded_jac(
            jav_func_eqns_partial, nvars, horizon, x_init, shock_series, verbose, **newton_args)

    # scaffolding: the heterogeneous-agent branch (model['distributions']) is cut

    # some informative print messages
    if verbose:
        duration = time.time() - st
        result = 'done' if not flag else 'FAILED'
        mess = f"(find_path:) Stacking {result} ({duration:1.3f}s). " + mess
        if flag and raise_errors:
            raise Exception(mess)
        else:
            print(mess)

    return x_out, flag


model = {  # scaffolding: a parsed model dict
    "stst": {"z": 0.0, "y": 0.0},
    "variables": ["z", "y"],
    "parameters": {"rho": 0.9, "beta": 0.5},
    "shocks": ["e_z"],
    "context": {"func_eqns": func_eqns},
    "new_model_horizon": None,
}
for size in (0.01, 0.02, 0.03, 0.04, 0.05):  # scaffolding: five impulse responses of the same model
    x, flag = find_path_stacking(model, shock=("e_z", size), horizon=50, verbose=False)
_report({"jit(scan)"}, 5)  # scaffolding: eager lax.scan compiles as jit(scan)
