# source: https://github.com/pmelchior/scarlet2/issues/120
# expect: changing-static at line 76
# runtime: COMPILES 2 CALLS 10
# why: Scene.fit builds a new optax chain (with closures for the step sizes and schedule) on every call and passes it to the module-level eqx.filter_jit _make_step, where non-array leaves are static; each fit therefore brings a new static optimizer and _make_step is retraced and recompiled.

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
import equinox as eqx
import jax
import jax.numpy as jnp
import optax
import optax._src.base as base


# scaffolding: minimal Scene / Observation stand-ins for scarlet2 (a single Gaussian source)
class Scene(eqx.Module):
    flux: jax.Array
    center: jax.Array

    def __call__(self):
        y, x = jnp.mgrid[:15, :15]
        r2 = (y - self.center[0]) ** 2 + (x - self.center[1]) ** 2
        return self.flux * jnp.exp(-0.5 * r2 / 4.0)

    # scarlet2/scene.py Scene.fit (parameters, constraints, priors, tqdm and callbacks trimmed)
    def fit(self, observations, schedule=None, max_iter=100, e_rel=1e-4, **kwargs):
        # making sure we can iterate
        if not isinstance(observations, (list, tuple)):
            observations = (observations,)

        steps = jax.tree_util.tree_map(lambda p: 1e-1, self)

        def scale_by_stepsize() -> base.GradientTransformation:
            # adapted from optax.scale_by_param_block_norm()
            def init_fn(params):
                del params
                return base.EmptyState()

            def update_fn(updates, state, params):
                if params is None:
                    raise ValueError(base.NO_PARAMS_MSG)
                updates = jax.tree_util.tree_map(
                    # minus because we want gradient descent
                    lambda u, s, p: None if u is None else -s * u if not callable(s) else -s(p) * u,
                    updates,
                    steps,
                    params,
                    is_leaf=lambda x: x is None,
                )
                return updates, state

            return base.GradientTransformation(init_fn, update_fn)

        # run adam, followed by stepsize adjustments
        optim = optax.chain(
            optax.scale_by_adam(**kwargs),
            optax.scale_by_schedule(schedule if callable(schedule) else lambda x: 1),
            scale_by_stepsize(),
        )

        scene = self
        opt_state = optim.init(scene)
        for step in range(max_iter):
            # optimizer step
            scene, loss, opt_state, convergence = _make_step(scene, observations, optim, opt_state)
        return scene


class Observation(eqx.Module):
    data: jax.Array

    def log_likelihood(self, pred):
        return -0.5 * jnp.sum((pred - self.data) ** 2)


# update step for optax optimizer (parameter filtering and priors trimmed)
@eqx.filter_jit
def _make_step(model, observations, optim, opt_state):
    def loss_fn(model):
        pred = model()
        log_like = sum(obs.log_likelihood(pred) for obs in observations)
        return -log_like

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)

    updates, opt_state = optim.update(grads, opt_state, model)
    model_ = eqx.apply_updates(model, updates)

    # for convergence criterion: compute norms of parameters and updates
    norm = lambda x, dx: 0 if dx is None else jnp.linalg.norm(dx) / jnp.linalg.norm(x)
    convergence = jax.tree_util.tree_map(lambda x, dx: norm(x, dx), *(model, updates))

    return model_, loss, opt_state, convergence


# scaffolding: the experiment, fitting two scenes of the same parameterization to the
# same observation (each fit runs 5 steps)
truth = Scene(flux=jnp.array(3.0, jnp.float32), center=jnp.array([7.0, 7.0], jnp.float32))
obs = Observation(data=truth())
n_fits, max_iter = 2, 5
for i in range(n_fits):
    scene = Scene(flux=jnp.array(1.0 + i, jnp.float32), center=jnp.array([6.5, 7.5], jnp.float32))
    scene.fit(obs, max_iter=max_iter)
_report({"jit(_make_step)"}, n_fits * max_iter)
