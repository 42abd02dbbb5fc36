# source: https://github.com/AI-Hypercomputer/maxtext/commit/2c9d18ec4fe4a5d92d51c732b348d006b147aeb7
# expect: none
# runtime: COMPILES 1 CALLS 3
# why: After the commit the AOT compile runs under the same jax.set_mesh context as the loop, so the first step reuses it: one compile for three steps.
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

import datetime  # scaffolding

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from flax.linen import partitioning as nn_partitioning
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P  # scaffolding


class _Config:  # scaffolding: the few config fields the excerpt reads
    logical_axis_rules = (("batch", "data"),)
    shard_optimizer_over_data = False
    compiled_trainstep_file = ""
    compile_xla_flags = ""
    enable_diloco = False
    steps = 3


class _Model(nn.Module):  # scaffolding: a tiny linen model
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(x)


def train_step(model, config, state_mesh_shardings, params_shardings, state, data, dropout_rng):  # scaffolding: a minimal Linen-style step
    def loss_fn(params):
        return jnp.mean((model.apply(params, data["inputs"]) - data["targets"]) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state["params"])
    new_params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, state["params"], grads)
    return {"params": new_params, "step": state["step"] + 1}, {"loss": loss}


def setup_train_loop(config):  # scaffolding: stands in for train_utils.setup_train_loop / jit_train_and_eval_step
    mesh = Mesh(jax.devices(), ("data",))
    model = _Model()
    rep = NamedSharding(mesh, P())
    params = model.init(jax.random.PRNGKey(0), jnp.ones((8, 4)))
    state = jax.device_put({"params": params, "step": jnp.zeros((), jnp.int32)}, rep)
    state_mesh_shardings = jax.tree_util.tree_map(lambda _: rep, state)
    data_sharding = NamedSharding(mesh, P("data"))
    p_train_step = jax.jit(
        lambda state, batch, rng: train_step(model, config, state_mesh_shardings, None, state, batch, rng),
        in_shardings=(state_mesh_shardings, data_sharding, rep),
        out_shardings=(state_mesh_shardings, None),
        donate_argnums=0,
    )
    p_train_step.__wrapped__.__name__ = "train_step"
    return jax.random.PRNGKey(1), state_mesh_shardings, model, mesh, state, p_train_step, data_sharding


def train_loop(config, recorder=None, state=None):
  """Main Training loop."""
  init_rng, state_mesh_shardings, model, mesh, state, p_train_step, data_sharding = setup_train_loop(config)  # scaffolding

  # Do not enter the legacy `mesh` context manager here: the training loop calls
  # p_train_step without it, and the mismatch in jit's tracing-cache key would
  # cause train_step to be traced and compiled a second time on the first step.
  with jax.set_mesh(mesh), nn_partitioning.axis_rules(config.logical_axis_rules):
    shaped_batch = {"inputs": jax.ShapeDtypeStruct((8, 4), jnp.float32, sharding=data_sharding), "targets": jax.ShapeDtypeStruct((8, 4), jnp.float32, sharding=data_sharding)}  # scaffolding: maxtext_utils.get_shaped_batch
    if isinstance(model, nn.Module) or config.enable_diloco:
      # The DiLoCo train step takes (state, batch, rng), like the Linen step.
      lower_args = (state, shaped_batch, init_rng)
    else:
      lower_args = (state, shaped_batch)
    if config.compiled_trainstep_file == "":  # compile only when there is no pre-compiled file loaded
      compiler_options = None  # scaffolding: max_utils.parse_libtpu_flags_to_dict(config.compile_xla_flags)
      compiled = p_train_step.lower(*lower_args).compile(compiler_options=compiler_options)
      compiled_stats = compiled.memory_analysis()

  # (profiler, metric logger and the per-iteration bookkeeping of the repo left out)
  for step in range(config.steps):  # scaffolding: the loop around train_step_iteration
    example_batch = jax.device_put({"inputs": np.ones((8, 4), np.float32), "targets": np.zeros((8, 4), np.float32)}, data_sharding)  # scaffolding: data_loader.load_next_batch
    # DiLoCo's inner step takes the rng like the Linen step does.
    if isinstance(model, nn.Module) or config.enable_diloco:
      # pylint: disable=not-callable
      step_rng_args = (jax.jit(jax.random.fold_in)(init_rng, step),)
    else:
      step_rng_args = ()
    with jax.set_mesh(mesh), nn_partitioning.axis_rules(config.logical_axis_rules):
      state, metrics = p_train_step(state, example_batch, *step_rng_args)
  return state


train_loop(_Config())  # scaffolding
_report({"jit(train_step)"}, _Config.steps)  # scaffolding
