# source: https://github.com/flatironinstitute/nemos/commit/c967fb036867a5facdca8615cfd1267e71ed9c17
# expect: jit-in-loop-or-body at line 110
# runtime: COMPILES 3 CALLS 3
# why: After the commit run is no longer jitted, so every call runs lax.while_loop eagerly with freshly created body_fun/cond_fun closures, and the while loop is compiled again on each of the 3 calls.

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


# src/nemos/solvers.py (SVRG; ProxSVRG left out)
from typing import NamedTuple, Optional

import jax
import jax.numpy as jnp
from jax import grad, jit, lax, random
from jaxopt import OptStep
from jaxopt._src import loop
from jaxopt._src.tree_util import tree_l2_norm, tree_sub


class SVRGState(NamedTuple):
    epoch_num: int
    key: jax.Array
    error: float


class SVRG:
    def __init__(
        self,
        fun,
        maxiter: int = 100,
        key=None,
        m: Optional[int] = None,
        lr: float = 1e-3,
        tol: float = 1e-5,
    ):
        self.fun = fun
        self.maxiter = maxiter
        self.key = key
        self.m = m  # number of iterations in the inner loop
        self.lr = lr
        self.tol = tol
        self.loss_gradient = jit(grad(self.fun, argnums=(0,)))

    def init_state(self, init_params, *args, **kwargs):
        state = SVRGState(
            epoch_num=1,
            key=self.key if self.key is not None else random.PRNGKey(0),
            error=jnp.inf,
        )
        return state

    def update(self, xs, state, *args, **kwargs):
        X, y = args
        m = self.m if self.m is not None else X.shape[0]
        N = X.shape[0]

        df_xs = self.loss_gradient(xs, X, y)[0]

        def inner_loop_body(carry, _):
            xk, key = carry
            key, subkey = random.split(key)
            i = random.randint(subkey, (), 0, N)
            dfik_xk = self.loss_gradient(xk, X[i, :], y[i])[0]
            dfik_xs = self.loss_gradient(xs, X[i, :], y[i])[0]
            gk = jax.tree_util.tree_map(
                lambda a, b, c: a - b + c, dfik_xk, dfik_xs, df_xs
            )
            xk = jax.tree_util.tree_map(lambda xk, gk: xk - self.lr * gk, xk, gk)
            return (xk, key), None

        (xk, key), _ = lax.scan(inner_loop_body, (xs, state.key), None, length=m)

        error = self._error(tree_sub(xk, xs), self.lr)
        next_state = SVRGState(
            epoch_num=state.epoch_num + 1,
            key=key,
            error=error,
        )
        return OptStep(params=xk, state=next_state)

    def run(self, init_params, *args, **kwargs):
        def body_fun(carry):
            xs, state = carry
            return self.update(xs, state, *args, **kwargs)

        def cond_fun(carry):
            _, state = carry
            return (state.epoch_num <= self.maxiter) & (state.error >= self.tol)

        init_state = self.init_state(init_params)
        final_xs, final_state = loop.while_loop(
            cond_fun=cond_fun,
            body_fun=body_fun,
            init_val=OptStep(params=init_params, state=init_state),
            maxiter=self.maxiter,
            jit=jit,
        )
        return OptStep(params=final_xs, state=final_state)

    @staticmethod
    def _error(diff_x, stepsize):
        diff_norm = tree_l2_norm(diff_x)
        return diff_norm / stepsize


def loss(params, X, y):  # scaffolding: least squares
    return jnp.mean((X @ params - y) ** 2)


X = jax.random.normal(random.PRNGKey(1), (64, 3))  # scaffolding
y = X @ jnp.array([1.0, -2.0, 0.5])  # scaffolding
solver = SVRG(loss, maxiter=10, key=random.PRNGKey(0), lr=0.05)  # scaffolding
calls = 0
for _ in range(3):  # scaffolding: the same solver run three times
    params, state = solver.run(jnp.zeros(3), X, y)
    calls += 1
_report({"jit(run)", "jit(while)", "jit(update)", "jit(init_state)"}, calls)
