# source: https://github.com/Drenderer/klax/issues/83
# expect: none
# runtime: COMPILES 1 CALLS 5
# why: fit defines make_step with eqx.filter_jit inside its body, but it is created once per fit call and reused for every step of the training loop, so the only compile is the first step the ETA complaint is about.

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


# scaffolding: stand-ins for klax's wrappers, loss, batcher and history callback
def unwrap(model):
    return model


def apply(model):
    return model


def mse(model, batch, batch_axis=0):
    x, y = batch
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


def broadcast_and_get_size(data, batch_axis):
    return batch_axis, data[0].shape[0]


def batch_data(data, batch_size, batch_axis, *, key):
    n = data[0].shape[0]
    while True:
        key, sub = jax.random.split(key)
        idx = jax.random.permutation(sub, n)[:batch_size]
        yield tuple(d[idx] for d in data)


# klax/_training.py fit (overloads, docstring and callbacks trimmed)
def fit(
    model,
    data,
    *,
    batch_size: int = 32,
    batch_axis=0,
    steps: int = 1000,
    loss_fn=mse,
    optimizer: optax.GradientTransformation = optax.adam(1e-3),
    init_opt_state=None,
    batcher=batch_data,
    key,
):
    batch_axis, dataset_size = broadcast_and_get_size(data, batch_axis)

    # Define a function to calculate the loss. This is jit compiled to speed up
    # the loss evaluation for the loss history.
    @eqx.filter_jit
    def combined_loss(model, batch):
        model = unwrap(model)
        return loss_fn(model, batch, batch_axis=batch_axis)

    # This partitioned loss function is required within the make_step function,
    # because the optax.lbgfs GradientTransformation required the loss function
    # to be diretly dependent on the parameters.
    def partitioned_loss(params, static, batch):
        model = eqx.combine(params, static)
        return combined_loss(model, batch)

    @eqx.filter_jit
    def make_step(batch, flat_model, optimizer, flat_opt_state):
        # Use the unflatten trick to speed up training,
        # see https://docs.kidger.site/equinox/tricks/
        model = jax.tree_util.tree_unflatten(treedef_model, flat_model)
        opt_state = jax.tree_util.tree_unflatten(
            treedef_opt_state, flat_opt_state
        )

        # Compute and apply the parameter updates
        params, static = eqx.partition(model, eqx.is_inexact_array)
        value, grad = jax.value_and_grad(partitioned_loss)(
            params, static, batch
        )
        updates, opt_state = optimizer.update(
            grad,
            opt_state,
            params,
            value=value,
            grad=grad,
            value_fn=jax.tree_util.Partial(
                partitioned_loss, static=static, batch=batch
            ),
        )
        params = optax.apply_updates(params, updates)
        model = eqx.combine(params, static)

        # Apply the Constraint in the model to ensure apply-constrains are met
        # after the update.
        model = apply(model)

        flat_model = jax.tree_util.tree_leaves(model)
        flat_opt_state = jax.tree_util.tree_leaves(opt_state)

        return flat_model, flat_opt_state

    if init_opt_state is None:
        opt_state = optimizer.init(eqx.filter(model, eqx.is_inexact_array))
    else:
        opt_state = init_opt_state

    model = apply(model)

    flat_model, treedef_model = jax.tree.flatten(model)
    flat_opt_state, treedef_opt_state = jax.tree.flatten(opt_state)

    # Loop over all training steps
    for step, batch in zip(
        range(1, steps + 1),
        batcher(data, batch_size, batch_axis, key=key),
    ):
        flat_model, flat_opt_state = make_step(
            batch, flat_model, optimizer, flat_opt_state
        )

    model = jax.tree_util.tree_unflatten(treedef_model, flat_model)
    return model


# scaffolding: a small regression problem trained for a few steps, as in the klax README
key = jax.random.PRNGKey(0)
x = jnp.linspace(-1.0, 1.0, 64)[:, None]
y = x**2
model = eqx.nn.MLP(1, 1, 8, 2, key=key)
steps = 5
model = fit(model, (x, y), batch_size=16, steps=steps, key=key)
_report({"jit(make_step)"}, steps)
