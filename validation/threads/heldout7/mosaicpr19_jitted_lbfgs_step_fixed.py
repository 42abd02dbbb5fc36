# source: https://github.com/pasteurlabs/mosaic/pull/19
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: The PR's fix: solver.update and apply_updates are wrapped in one jax.jit made before the loop (value_and_grad jitted separately), so the linesearch is compiled once.

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
import numpy as np
import optax


def _run_lbfgs(
    loss_fn,
    init_x,
    lr=None,
    max_iters: int = 100,
    patience=None,
    *,
    record_diagnostics: bool = False,
    div_fn=None,
    snap_interval: int = 0,
    history: list | None = None,
    snap_error_fn=None,
    error_history: list | None = None,
    log_fn=None,
    log_interval: int = 10,
    clip_fn=None,
    grad_proj_fn=None,
):
    """L-BFGS with zoom line-search (docstring shortened)."""
    solver = optax.lbfgs()
    opt_state = solver.init(init_x)
    # added for this set: strongly typed initial state (otherwise _lbfgs_step compiles twice, see optax PR #1108)
    opt_state = jax.tree.map(lambda a: jnp.asarray(a, dtype=jnp.result_type(a)), opt_state)
    x = init_x
    losses: list[float] = []
    grad_norms: list[float] = []
    value_and_grad = jax.jit(optax.value_and_grad_from_state(loss_fn))

    # the PR's fix: one jitted function around solver.update + apply_updates (+ clip_fn)
    @jax.jit
    def _lbfgs_step(x, opt_state, value, grad):
        updates, opt_state = solver.update(
            grad, opt_state, x, value=value, grad=grad, value_fn=loss_fn
        )
        x = optax.apply_updates(x, updates)
        if clip_fn is not None:
            x = clip_fn(x)
        return x, opt_state

    for i in range(max_iters):
        value, grad = value_and_grad(x, state=opt_state)
        if grad_proj_fn is not None:
            grad = jnp.array(grad_proj_fn(np.asarray(grad)))
        grad_norms.append(float(jnp.linalg.norm(grad.ravel())))
        x, opt_state = _lbfgs_step(x, opt_state, value, grad)
        loss_val = float(value)
        losses.append(loss_val)
        if snap_interval > 0 and (i + 1) % snap_interval == 0:
            if history is not None:
                history.append(np.asarray(x))
            if snap_error_fn is not None and error_history is not None:
                error_history.append(snap_error_fn(np.asarray(x)))
        if log_fn is not None and (i + 1) % log_interval == 0:
            log_fn(i + 1, loss_val)
        if grad_norms[-1] < 1e-7:
            break
    return x, losses, {"grad_norms": grad_norms}


# scaffolding: a small least-squares initial-condition recovery stands in for the benchmark's solver
target = jnp.linspace(0.0, 1.0, 8)


def loss_fn(x):
    return jnp.sum((jnp.tanh(x) - target) ** 2)


final_x, losses, diag = _run_lbfgs(loss_fn, jnp.zeros(8), max_iters=3)
_report({"jit(while)", "jit(_lbfgs_step)"}, len(losses))
