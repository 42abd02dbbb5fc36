# source: https://github.com/erfanzar/EasyDeL/commit/9654df567e128dd4ba4e735afabf1e573e363ffc
# expect: none
# runtime: COMPILES 1 CALLS 2
# why: the reference-model jit passes static_argnames=("graphdef") (a bare string, not a tuple) for a parameter already bound by functools.partial; jax accepts a single name as a string and the bound keyword never reaches the cache key, so compute_refmodel_logps compiles once for two same-shape batches.
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



import typing as tp
from functools import partial

import flax
import flax.nnx
import jax
import optax
# from eformer.escale import with_sharding_constraint  # scaffolding: eformer is not installed; stand-in below
from jax import numpy as jnp
from jax.sharding import PartitionSpec, NamedSharding, Mesh  # scaffolding: NamedSharding/Mesh are grpo_trainer.py's imports
from flax import struct  # scaffolding
import numpy as np  # scaffolding
from types import SimpleNamespace  # scaffolding

# from easydel.infra.base_state import EasyDeLState  # scaffolding: stand-ins below
# from easydel.infra.loss_utils import LossConfig, LossMetrics  # scaffolding


def with_sharding_constraint(arr, sharding):  # scaffolding: eformer.escale.with_sharding_constraint on one CPU device is the identity
    return arr  # scaffolding


@struct.dataclass
class EasyDeLState:  # scaffolding: easydel.infra.base_state.EasyDeLState, only the fields grpo_step reads
    step: jax.Array  # scaffolding
    graphdef: tp.Any = struct.field(pytree_node=False)  # scaffolding
    graphstate: tp.Any = None  # scaffolding
    graphother: tp.Any = None  # scaffolding


@struct.dataclass
class LossMetrics:  # scaffolding: easydel.infra.loss_utils.LossMetrics
    loss: tp.Any = None  # scaffolding
    accuracy: tp.Any = None  # scaffolding
    other_metrics: tp.Any = None  # scaffolding


LossConfig = tp.Any  # scaffolding


# ---- easydel/trainers/training_utils.py ----
def make_assertions_and_get_sizes(
	batch: tp.Dict,
	gradient_accumulation_steps: int,
	batch_partition_spec: tp.Optional[PartitionSpec] = None,
) -> tp.Tuple[int, int, PartitionSpec]:
	batch_size = batch[list(batch.keys())[0]].shape[0]
	minibatch_size = batch_size // gradient_accumulation_steps
	if not gradient_accumulation_steps > 0:
		ValueError("`gradient_accumulation_steps` must be greater than 0.")
	if minibatch_size * gradient_accumulation_steps != batch_size:
		raise ValueError("Batch size must be divisible by gradient accumulation steps.")
	if batch_partition_spec is None:
		batch_partition_spec = PartitionSpec(("dp", "fsdp"), "sp")
	return batch_size, minibatch_size, batch_partition_spec


# ---- easydel/trainers/group_relative_policy_optimization/_fn.py ----
def get_per_token_logps(model, input_ids, attention_mask, prompt_length):
	"""
	Get per-token log probabilities using the model outputs.

	Args:
	    model: The language model
	    input_ids: Input token ids [batch_size, seq_len]
	    attention_mask: Input masks [batch_size, seq_len]
	    prompt_length: Length of the prompt
	"""

	logits = model(
		input_ids=input_ids,
		attention_mask=attention_mask,
	).logits[:, prompt_length - 1 :]
	logits = logits[:, :-1, :]
	token_log_probs = compute_per_token_logps(logits, input_ids, prompt_length)
	return token_log_probs


def compute_per_token_logps(logits, input_ids, prompt_length):
	"""
	Compute per-token log probabilities in a vectorized way.

	Args:
	    logits: Pre-trimmed logits [batch_size, seq_len, vocab_size]
	    input_ids: Input token ids [batch_size, seq_len]
	    prompt_length: Length of the prompt
	"""
	log_probs = jax.nn.log_softmax(logits, axis=-1)
	target_ids = input_ids[:, prompt_length:]
	token_log_probs = jnp.take_along_axis(
		log_probs,
		jnp.expand_dims(target_ids, axis=-1),
		axis=-1,
	)
	token_log_probs = jnp.squeeze(token_log_probs, axis=-1)
	return token_log_probs


def grpo_step(
	state: EasyDeLState,
	batch: tp.Mapping[str, jax.Array],
	eos_token_id: int,
	num_generations: int,
	beta: float,
	prompt_length: int,
	loss_config: tp.Optional[LossConfig] = None,
	learning_rate_fn: optax.Schedule = None,
	partition_spec: tp.Optional[PartitionSpec] = None,
	gradient_accumulation_steps: int = 1,
	is_training: bool = True,
) -> tp.Tuple[EasyDeLState, LossMetrics]:
	# Determine batch size, minibatch size, and enforce partition spec.
	batch_size, minibatch_size, partition_spec = make_assertions_and_get_sizes(
		batch=batch,
		gradient_accumulation_steps=gradient_accumulation_steps,
		batch_partition_spec=partition_spec,
	)
	batch = with_sharding_constraint(arr=batch, sharding=partition_spec)

	assert eos_token_id is not None, "`eos_token_id` can not be None"

	def loss_fn(tree, minibatch):
		module = flax.nnx.merge(state.graphdef, tree, state.graphother)

		(
			prompt_ids,
			prompt_mask,
			completion_ids,
			completion_mask,
			advantages,
		) = (
			minibatch["prompt_ids"],
			minibatch["prompt_mask"],
			minibatch["completion_ids"],
			minibatch["completion_mask"],
			minibatch["advantages"],
		)

		input_ids = jnp.concatenate(
			[prompt_ids.repeat(num_generations, 0), completion_ids],
			axis=1,
		)
		attention_mask = jnp.concatenate(
			[prompt_mask.repeat(num_generations, 0), completion_mask],
			axis=1,
		)

		per_token_logps = get_per_token_logps(
			module,
			input_ids,
			attention_mask,
			prompt_ids.shape[-1],
		)

		ref_per_token_logps = minibatch["ref_per_token_logps"]
		per_token_kl = (
			jnp.exp(ref_per_token_logps - per_token_logps)
			- (ref_per_token_logps - per_token_logps)
			- 1
		)

		per_token_loss = jnp.exp(
			per_token_logps - jax.lax.stop_gradient(per_token_logps)
		) * jnp.expand_dims(advantages, 1)
		per_token_loss = -(per_token_loss - beta * per_token_kl)
		comps = jnp.sum(completion_mask, axis=1)
		loss = jnp.mean(jnp.sum(per_token_loss * completion_mask, axis=1) / comps)
		mean_kl = jnp.mean(jnp.sum(per_token_kl * completion_mask, axis=1) / comps)

		return loss, LossMetrics(
			loss=loss,
			accuracy=1,
			other_metrics={
				"mean_kl": mean_kl,
				"ref_per_token_logps": jnp.mean(ref_per_token_logps),
				"advantages": jnp.mean(advantages),
			},
		)

	# Compute gradients and metrics across minibatches.
	if is_training:
		gradients, metrics = minibatch_call(
			state=state,
			batch=batch,
			minibatch_size=minibatch_size,
			grad_fn=jax.value_and_grad(loss_fn, has_aux=True),
		)
		state = update_state_respectfully(
			state=state,
			gradients=gradients,
			loss_config=loss_config,
			metrics=update_metrics(
				metrics=metrics,
				learning_rate_fn=learning_rate_fn,
				step=state.step,
				gradients=gradients,
			),
		)
		return state, metrics
	else:
		_, metrics = loss_fn(tree=state.graphstate, minibatch=batch)
		return metrics


class _Out:  # scaffolding: the model output object with .logits
	def __init__(self, logits):  # scaffolding
		self.logits = logits  # scaffolding


class TinyCausalLM(flax.nnx.Module):  # scaffolding: stands in for the policy LM (vocab 16, width 8)
	def __init__(self, rngs):  # scaffolding
		self.embed = flax.nnx.Embed(16, 8, rngs=rngs)  # scaffolding
		self.head = flax.nnx.Linear(8, 16, rngs=rngs)  # scaffolding

	def __call__(self, input_ids, attention_mask):  # scaffolding
		return _Out(self.head(self.embed(input_ids)) * attention_mask[..., None])  # scaffolding


class TrainerConfigureFunctionOutput(tp.NamedTuple):  # scaffolding
	sharded_training_step_function: tp.Any  # scaffolding
	sharded_evaluation_step_function: tp.Any  # scaffolding
	mesh: tp.Any  # scaffolding


class _Arguments:  # scaffolding: GRPOConfig fields configure_functions reads
	beta = 0.04  # scaffolding
	max_prompt_length = 4  # scaffolding
	loss_config = None  # scaffolding
	step_partition_spec = PartitionSpec()  # scaffolding
	gradient_accumulation_steps = 1  # scaffolding


class _Model:  # scaffolding
	mesh = Mesh(np.array(jax.devices()[:1]), ("dp",))  # scaffolding


class GRPOTrainer:  # scaffolding: the trainer shell; configure_functions below is grpo_trainer.py's (checkpointing and the ref-model jit cut)
	def __init__(self):  # scaffolding
		self.model = _Model()  # scaffolding
		self.arguments = _Arguments()  # scaffolding
		self.eos_token_id = 2  # scaffolding
		self.num_return_sequences = 2  # scaffolding
		self.scheduler = None  # scaffolding
		self.state_shardings = NamedSharding(spec=PartitionSpec(), mesh=self.model.mesh)  # scaffolding
		graphdef, graphstate, graphother = flax.nnx.split(TinyCausalLM(flax.nnx.Rngs(1)), flax.nnx.Param, ...)  # scaffolding: the reference model
		_rep = NamedSharding(spec=PartitionSpec(), mesh=self.model.mesh)  # scaffolding
		self.model_state = SimpleNamespace(graphdef=graphdef, graphstate=graphstate, graphother=graphother, shardings=SimpleNamespace(graphstate=_rep, graphother=_rep))  # scaffolding: EasyDeLState with its shardings
		self.ref_state = self.model_state  # scaffolding: the frozen reference policy

	def configure_functions(self) -> TrainerConfigureFunctionOutput:
		"""
		Configures and JIT-compiles the training and evaluation step functions.

		This method sets up the necessary functions for training and evaluation, including:
		    - Initialization of the model state.
		    - Sharding of the model parameters and optimizer state.
		    - JIT-compilation of the training and evaluation step functions.

		Returns:
		    TrainerConfigureFunctionOutput: An object containing the configured functions and other relevant information.
		"""
		mesh = self.model.mesh

		empty_sharding = NamedSharding(spec=PartitionSpec(), mesh=mesh)

		self._train_shared_fn_static_args = (
			self.eos_token_id,
			self.num_return_sequences,
			self.arguments.beta,
			self.arguments.max_prompt_length,
			self.arguments.loss_config,
			self.scheduler,
			self.arguments.step_partition_spec,
			self.arguments.gradient_accumulation_steps,
			True,  # is_train
		)

		static_argnames = (2, 3, 4, 5, 6, 7, 8, 9, 10)

		sharded_training_step_function = jax.jit(
			grpo_step,
			in_shardings=(self.state_shardings, empty_sharding),
			out_shardings=(self.state_shardings, empty_sharding),
			donate_argnums=(0,),
			static_argnums=static_argnames,
		)

		self._eval_shared_fn_static_args = (
			self.eos_token_id,
			self.num_return_sequences,
			self.arguments.beta,
			self.arguments.max_prompt_length,
			self.arguments.loss_config,
			self.scheduler,
			self.arguments.step_partition_spec,
			self.arguments.gradient_accumulation_steps,
			False,  # is_train
		)

		sharded_evaluation_step_function = jax.jit(
			grpo_step,
			in_shardings=(self.state_shardings, empty_sharding),
			out_shardings=(empty_sharding),
			static_argnums=static_argnames,
		)

		def _compute_refmodel_logps(graphtree, graphother, ids, mask, graphdef):
			ids = with_sharding_constraint(ids, self.arguments.step_partition_spec)
			mask = with_sharding_constraint(mask, self.arguments.step_partition_spec)
			apply = flax.nnx.merge(graphdef, graphtree, graphother)
			return get_per_token_logps(apply, ids, mask, self.arguments.max_prompt_length)

		self.compute_refmodel_logps = jax.jit(
			partial(_compute_refmodel_logps, graphdef=self.model_state.graphdef),
			static_argnames=("graphdef"),
			in_shardings=(
				self.model_state.shardings.graphstate,
				self.model_state.shardings.graphother,
				empty_sharding,
				empty_sharding,
			),
			out_shardings=empty_sharding,
		)

		return TrainerConfigureFunctionOutput(
			sharded_training_step_function=sharded_training_step_function,
			sharded_evaluation_step_function=sharded_evaluation_step_function,
			mesh=mesh,
		)


# scaffolding: build the trainer's functions, then score two batches of prompt+completion ids with the reference model, as _preprocess_batch_input does
calls = 0  # scaffolding
try:  # scaffolding
	trainer = GRPOTrainer()  # scaffolding
	fns = trainer.configure_functions()  # scaffolding
	rng = np.random.default_rng(0)  # scaffolding
	for _ in range(2):  # scaffolding
		prompt_completion_ids = jnp.asarray(rng.integers(0, 16, (4, 7)))  # scaffolding: 2 prompts x 2 generations, 4 prompt + 3 completion tokens
		ridmask = jnp.ones((4, 4), jnp.int32)  # scaffolding
		completion_mask = jnp.ones((4, 3), jnp.int32)  # scaffolding
		ref_per_token_logps = trainer.compute_refmodel_logps(
			trainer.ref_state.graphstate,
			trainer.ref_state.graphother,
			prompt_completion_ids,
			jnp.concatenate([ridmask, completion_mask], -1),
		)
		calls += 1  # scaffolding
	_report({"jit(_compute_refmodel_logps)"}, calls)  # scaffolding
except Exception as e:  # scaffolding
	print(f"ERROR {type(e).__name__}")  # scaffolding
