# source: https://github.com/mlprt/feedbax/commit/8f080c6648971916a7392ba633a4786987d42b74
# expect: none
# runtime: COMPILES 1 CALLS 6
# why: The training step returns treedef_opt_state and the loop feeds it back as a static (non-array) argument of eqx.filter_jit every batch; with the optimizer initialised only on trainable leaves (the fix of 8f080c6) the treedef is equal each time, so the step compiles once.

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
import jax.random as jr
import jax.tree_util as jtu
import optax
from typing import Any, Callable
from jaxtyping import PRNGKeyArray, PyTree


def filter_spec_leaves(
    tree: PyTree[Any, "T"], leaf_func: Callable
) -> PyTree[bool, "T"]:
    """Returns a filter specification for tree leaves matching `leaf_func`."""
    filter_spec = jax.tree_util.tree_map(lambda _: False, tree)
    filter_spec = eqx.tree_at(
        leaf_func,
        filter_spec,
        replace_fn=lambda x: True,
    )
    return filter_spec


class Model(eqx.Module):  # scaffolding: stand-in for a feedbax SimpleFeedback model
    net: eqx.nn.Linear
    plant_A: jax.Array  # array leaf that is not trained

    def __call__(self, x):
        return self.net(x) + self.plant_A @ x


def loss_func(diff_model, static_model, xs, ys):  # scaffolding: stand-in for the task loss
    model = eqx.combine(diff_model, static_model)
    return jnp.mean((jax.vmap(model)(xs) - ys) ** 2)


class TaskTrainer(eqx.Module):
    optimizer: optax.GradientTransformation

    def __call__(self, model, where_train, n_batches, batch_size, *, key):
        filter_spec = filter_spec_leaves(model, where_train)
        model_trainables = eqx.filter(eqx.filter(model, filter_spec), eqx.is_array)

        opt_state = self.optimizer.init(model_trainables)

        # Passing the flattened pytrees through `_train_step` gives a slight
        # performance improvement. See the docstring of `_train_step`.
        flat_model, treedef_model = jtu.tree_flatten(model)
        flat_opt_state, treedef_opt_state = jtu.tree_flatten(opt_state)

        train_step = self._train_step

        # Finish the JIT compilation before the first training iteration.
        train_step(  # doesn't alter model or opt_state
            batch_size,
            flat_model,
            treedef_model,
            flat_opt_state,
            treedef_opt_state,
            filter_spec,
            key,
        )

        keys = jr.split(key, n_batches)

        # Assume 1 epoch (i.e. batch iterations only; no fixed dataset).
        for batch in range(n_batches):
            key_train, key_eval = jr.split(keys[batch], 2)

            (losses, flat_model, flat_opt_state, treedef_opt_state) = (
                train_step(
                    batch_size,
                    flat_model,
                    treedef_model,
                    flat_opt_state,
                    treedef_opt_state,
                    filter_spec,
                    key_train,
                )
            )

        model = jtu.tree_unflatten(treedef_model, flat_model)

        return model

    @eqx.filter_jit
    @jax.named_scope("fbx.TaskTrainer._train_step")
    def _train_step(
        self,
        batch_size: int,
        flat_model,
        treedef_model,
        flat_opt_state,
        treedef_opt_state,
        filter_spec,  #! can't do AbstractModel[StateT[bool]]
        key: PRNGKeyArray,
    ):
        xs = jr.normal(key, (batch_size, 3))  # scaffolding: stand-in for task trials
        ys = jnp.sin(xs)  # scaffolding

        model = jtu.tree_unflatten(treedef_model, flat_model)

        diff_model, static_model = eqx.partition(model, filter_spec)

        opt_state = jtu.tree_unflatten(treedef_opt_state, flat_opt_state)

        loss, grads = eqx.filter_value_and_grad(loss_func)(
            diff_model, static_model, xs, ys
        )

        updates, opt_state = self.optimizer.update(grads, opt_state)
        model = eqx.apply_updates(model, updates)

        flat_model = jtu.tree_leaves(model)
        flat_opt_state, treedef_opt_state = jtu.tree_flatten(opt_state)

        return loss, flat_model, flat_opt_state, treedef_opt_state


model = Model(eqx.nn.Linear(3, 3, key=jr.PRNGKey(0)), jnp.eye(3) * 0.1)  # scaffolding
trainer = TaskTrainer(optax.adam(1e-2))  # scaffolding
n_batches = 5  # scaffolding
trainer(model, lambda model: model.net, n_batches, 8, key=jr.PRNGKey(1))  # scaffolding
print(sorted(set(_COMPILED)))  # scaffolding
_report({"jit(_train_step)"}, n_batches + 1)  # scaffolding
