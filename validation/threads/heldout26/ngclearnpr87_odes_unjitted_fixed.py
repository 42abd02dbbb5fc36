# source: https://github.com/NACLab/ngc-learn/pull/87
# expect: none
# runtime: COMPILES 2 CALLS 2
# why: after PR #87 the ODE systems are plain functions traced inside solve_ode; each solve compiles once (dfx differs between the two calls) and nothing raises.
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




# ngclearn/utils/diffeq/odes.py after PR #87 (d5def75b): imports and the first two systems (the other three cut)
import jax.numpy as jnp
from jax import jit
from functools import partial
from jax.lax import scan as _scan  # from ngclearn/utils/diffeq/ode_solver.py


def linear_2D(t, x, params):
    '''
    :param x: 2D vector
            type: jax array
            shape:(2,)

    :param t: Unused

    :param params: Unused

    :return: 2D vector: [
                         -0.1 * x[0] + 2.0 * x[1],
                         -2.0 * x[0] - 0.1 * x[1]
                         ]
            type: jax array
            shape:(2,)

    ------------------------------------------
        * suggested init value-
                x0 = jnp.array([3, -1.5])
    '''
    coeff = jnp.array([[-0.1, 2],
                       [-2, -0.1]]).T
    dfx_ = jnp.matmul(x, coeff)

    return dfx_


def cubic_2D(t, x, params):
    '''
    :param x: 2D vector
            type: jax array
            shape:(2,)

    :param t: Unused

    :param params: Unused

    :return: 2D vector: [
                        -0.1 * x[0] ** 3 + 2.0 * x[1] ** 3,
                        -2.0 * x[0] ** 3 - 0.1 * x[1] ** 3,
                        ]
            type: jax array
            shape:(2,)

    ------------------------------------------
        * suggested init value-
                x0 = jnp.array([2., 0.])
    '''
    coeff = jnp.array([[-0.1, 2],
                       [-2, -0.1]]).T
    dfx_ = jnp.matmul(x**3, coeff)
    return dfx_


# ngclearn/utils/diffeq/ode_solver.py at the same commit: euler, rk4 and solve_ode (heun, rk2, ralston cut)
@jit
def _sum_combine(*args, **kwargs): ## fast co-routine for simple addition
    sum = 0

    for arg, val in zip(args, kwargs.values()):
        sum = sum + val * arg
    return sum


@partial(jit, static_argnums=(3, 4))
def _step_forward(t, x, dx_dt, dt, x_scale): ## internal step co-routine
    _t = t + dt
    _x = x * x_scale + dx_dt * dt
    return _t, _x


@partial(jit, static_argnums=(1, 2, 3, 4, ))
def euler(carry, dfx, dt, params, x_scale=1.):
    """
    Iteratively integrates one step forward via the Euler method, i.e., a
    first-order Runge-Kutta (RK-1) step.

    Args:
        t: current time variable to advance by dt

        x: current variable values to advance/iteratively integrate (at time `t`)

        dfx: (ordinary) differential equation co-routine (as implemented in an
            ngc-learn component)

        dt: integration time step (also referred to as `h` in mathematics)

        params: tuple containing configuration values/hyper-parameters for the
            (ordinary) differential equation an ngc-learn component will provide

        x_scale: dampening factor to scale `x` by (Default: 1)

    Returns:
        variable values iteratively integrated/advanced to next step (`t + dt`)
    """
    t, x = carry

    dx_dt = dfx(t, x, params)
    _t, _x = _step_forward(t, x, dx_dt, dt, x_scale)

    new_carry = (_t, _x)
    return new_carry, (new_carry, carry)


@partial(jit, static_argnums=(1, 2, 3, 4, ))
def rk4(carry, dfx, dt, params, x_scale=1.):
    """
    Iteratively integrates one step forward via the midpoint method, i.e., a
    fourth-order Runge-Kutta (RK-4) step.
    (Note: ngc-learn internally recognizes "rk4" or this routine)

    | Reference:
    | Ascher, Uri M., and Linda R. Petzold. Computer methods for ordinary
    | differential equations and differential-algebraic equations. Society for
    | Industrial and Applied Mathematics, 1998.

    Args:
        t: current time variable to advance by dt

        x: current variable values to advance/iteratively integrate (at time `t`)

        dfx: (ordinary) differential equation co-routine (as implemented in an
            ngc-learn component)

        dt: integration time step (also referred to as `h` in mathematics)

        params: tuple containing configuration values/hyper-parameters for the
            (ordinary) differential equation an ngc-learn component will provide

        x_scale: dampening factor to scale `x` by (Default: 1)

    Returns:
        variable values iteratively integrated/advanced to next step (`t + dt`)
    """

    t, x = carry

    dfx_1 = dfx(t, x, params)
    t2, x2 = _step_forward(t, x, dfx_1, dt * 0.5, x_scale)

    dfx_2 = dfx(t2, x2, params)
    t3, x3 = _step_forward(t, x, dfx_2, dt * 0.5, x_scale)

    dfx_3 = dfx(t3, x3, params)
    t4, x4 = _step_forward(t, x, dfx_3, dt, x_scale)

    dfx_4 = dfx(t4, x4, params)

    _dx_dt = _sum_combine(dfx_1, dfx_2, dfx_3, dfx_4, w_f1=1, w_f2=2, w_f3=2, w_f4=1)
    _t, _x = _step_forward(t, x, _dx_dt / 6, dt, x_scale)

    new_carry = (_t, _x)
    return new_carry, (new_carry, carry)


@partial(jit, static_argnums=(0, 3, 4, 5, 6, 7, 8))
def solve_ode(method_name, t0, x0, T, dfx, dt, params=None, x_scale=1., sols_only=True):

    if method_name =='euler':
        method = euler
    elif method_name == 'heun':
        method = heun
    elif method_name == 'rk2':
        method = rk2
    elif method_name =='rk4':
        method = rk4
    elif method_name =='ralston':
        method = ralston

    def scanner(carry, _):
        return method(carry, dfx, dt, params, x_scale)

    x_T, (xs_next, xs_carry) = _scan(scanner, init=(t0, x0), xs=jnp.arange(T))

    if not sols_only:
        return x_T, xs_next, xs_carry

    return xs_next


# odes.py __main__ (the solver import is inlined above; plots cut)
t0 = 0.
dt = 0.01

try:  # scaffolding
    # 1. Linear 2D System
    x0 = jnp.array([3, -1.5], dtype=jnp.float32)
    t, x_lin2D = solve_ode('rk4', t0=t0, x0=x0, T=300, dfx=linear_2D, dt=dt, params=None, sols_only=True)  # scaffolding: T cut from 3000
    # 2. Cubic 2D System
    x0 = jnp.array([2, 0.], dtype=jnp.float32)
    t, x_cub2D = solve_ode('rk4', t0=t0, x0=x0, T=1000, dfx=cubic_2D, dt=dt, params=None, sols_only=True)  # scaffolding: T cut from 10000
    _report({"jit(solve_ode)"}, 2)  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
