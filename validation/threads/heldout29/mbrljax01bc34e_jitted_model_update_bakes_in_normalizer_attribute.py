# source: https://github.com/kchua/mbrl-jax/commit/01bc34e27aec89b5e1a1e7f44ffd99ef6aae512d
# expect: stale-closure at line 546; shape-churn at line 716
# runtime: COMPILES 3 CALLS 9
# why: the jitted model_update reads self._normalizer_params, which train() refits as data arrives, so after the 2nd train() the compiled update still uses the first normalizer (stale: True); the jitted ensemble_eval also gets a growing partial batch and compiles twice.
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


# ---- scaffolding: aliases removed from jax since 2022 (the code uses them in annotations and calls) and a gym stand-in ----
import jax  # scaffolding
jax.random.KeyArray = jax.Array  # scaffolding: jax.random.KeyArray no longer exists
jax.tree_map = jax.tree_util.tree_map  # scaffolding: jax.tree_map no longer exists
MujocoEnv = object  # scaffolding: gym.envs.mujoco.MujocoEnv is only used as a type annotation
import jax.numpy as _jnp  # scaffolding
_jnp_clip = _jnp.clip  # scaffolding
_jnp.clip = lambda x, a_min=None, a_max=None: _jnp_clip(x, a_min, a_max)  # scaffolding: jnp.clip no longer takes a_min/a_max keywords

# ---- mbrl/_src/utils.py ----
from typing import Union

import jax
import jax.numpy as jnp
import numpy as onp

Array = Union[jnp.ndarray, onp.ndarray]


def gaussian_log_prob(gaussian_params, query):
    weighted_mse = 0.5 * jnp.sum(jnp.square((query - gaussian_params["mean"]) / gaussian_params["stddev"]))
    log_det_cov = jnp.sum(gaussian_params["log_stddev"])
    dim = gaussian_params["mean"].shape[0]
    return -(weighted_mse + log_det_cov + (dim / 2) * jnp.log(2 * jnp.pi))


def normalize(input, normalizer_params, invert=False):
    if not invert:
        return (input - normalizer_params["center"]) / normalizer_params["scale"]
    else:
        return input * normalizer_params["scale"] + normalizer_params["center"]


def create_gaussianizer(
    stddev_nonlinearity=None,
    log_stddev_nonlinearity=None,
    min_stddev: float = -onp.inf,
    max_stddev: float = onp.inf,
):
    if stddev_nonlinearity is None and log_stddev_nonlinearity is None:
        raise RuntimeError("Must specify nonlinearity used to obtain (log) standard deviation.")
    if stddev_nonlinearity is not None and log_stddev_nonlinearity is not None:
        raise RuntimeError("Only specify either standard deviation or its log, the other is inferred.")

    def gaussianize(query):
        out_dim = query.shape[-1] // 2
        if stddev_nonlinearity is not None:
            stddev = jnp.clip(
                stddev_nonlinearity(query[..., out_dim:]),
                a_min=min_stddev,
                a_max=max_stddev
            )
            return {
                "mean": query[..., :out_dim],
                "log_stddev": jnp.log(stddev),
                "stddev": stddev
            }
        else:
            log_stddev = jnp.clip(
                log_stddev_nonlinearity(query[..., out_dim:]),
                a_min=jnp.log(min_stddev),
                a_max=jnp.log(max_stddev)
            )
            return {
                "mean": query[..., :out_dim],
                "log_stddev": log_stddev,
                "stddev": jnp.exp(log_stddev)
            }

    return gaussianize


def reparameterized_gaussian_sampler(gaussian_params, rng_key):
    # Use reparameterization trick to allow gradients to pass through sampling step.
    return gaussian_params["mean"] + \
        gaussian_params["stddev"] * jax.random.normal(rng_key, shape=gaussian_params["mean"].shape)

# ---- mbrl/misc/dataset.py ----
from typing import Iterable

import jax
import jax.numpy as jnp


class Dataset:
    def __init__(self, **kwargs: Iterable[int]):
        """Creates a dataset with named components.

        Args:
            **kwargs: Dictionary mapping from a named component to expected shape.

        >>> # Creates a dataset for a regression task with inputs in R^10 and outputs in R
        >>> Dataset(inputs=(10,), outputs=())
        >>> # Creates a dataset for an image classification task with 256x256 images and binary labels
        >>> Dataset(inputs=(256, 256), outputs=())
        """
        self._dataset = {}
        self._names = []
        self._length = 0

        for name, shape in kwargs.items():
            self._names.append(name)
            self._dataset[name] = jnp.zeros([0] + list(shape))

    def __len__(self):
        """Returns number of points added to this dataset so far."""
        return self._length

    def __getitem__(self, key) -> jnp.ndarray:
        """Returns a named component in the dataset, if it exists."""
        return self._dataset[key]

    def add(self, **kwargs: jnp.ndarray) -> None:
        """Adds a list of new datapoints to the existing dataset.

        Args:
            **kwargs: Dictionary mapping from named components to list of new points.
                List of named components provided must match that provided at construction time,
                and the lists associated with each named component must all be of equal length.
        """
        if len(kwargs) != len(self._names):
            raise RuntimeError("Number of named components during add() does not match "
                               "dataset at construction time.")

        n_elems_to_add = None
        for name in self._names:
            if name not in kwargs:
                raise RuntimeError("Cannot add to dataset without specifying "
                                   "all named components provided during dataset construction.")

            if n_elems_to_add is None:
                n_elems_to_add = kwargs[name].shape[0]
            elif kwargs[name].shape[0] != n_elems_to_add:
                raise RuntimeError(
                    "Named components must be equal-length lists of items when adding to dataset."
                )

            if kwargs[name].shape[1:] != self._dataset[name].shape[1:]:
                raise RuntimeError("Invalid shape for {} provided when adding to dataset.".format(name))

        self._length += n_elems_to_add
        for name in self._names:
            self._dataset[name] = jnp.concatenate([self._dataset[name], kwargs[name]])

    def bootstrap(
        self,
        ensemble_size: int,
        rng_key: jax.random.KeyArray
    ):
        """Creates a bootstrapped version of this dataset on which the user can call epoch().
        Allows bootstraps to persist between separate epochs.

        Args:
            ensemble_size: The number of bootstrap datasets to generate
            rng_key: JAX RNG key used to sampled bootstraps, do not reuse outside this function.
        """
        return Dataset._BootstrappedDataset(self, ensemble_size, rng_key)

    def epoch(
        self,
        batch_size: int,
        rng_key: jax.random.KeyArray,
        full_batch_required: bool = True
    ):
        """Creates an iterator to iterate through the dataset with batches of the given size.

        Args:
            batch_size: Size of batches returned by the iterator.
            rng_key: JAX RNG key used to shuffle data for the epoch, do not reuse outside this function.
            full_batch_required: If True, the epoch terminates once there is not enough data left to form a full
                batch.
        """
        return Dataset._DatasetIterator(
            self, batch_size, rng_key,
            full_batch_required=full_batch_required
        )

    class _BootstrappedDataset:
        def __init__(self, dataset, ensemble_size, rng_key):
            self._dataset = dataset

            if ensemble_size > 1:
                rng_key, subkey = jax.random.split(rng_key)
                # Sample bootstraps
                self._bootstrap_idxs = jax.random.randint(
                    subkey, minval=0, maxval=len(dataset), shape=[ensemble_size, len(dataset)]
                )
            else:
                self._bootstrap_idxs = jnp.arange(len(dataset))[None]

        def epoch(self, batch_size, rng_key, full_batch_required=True):
            return Dataset._DatasetIterator(
                self._dataset, batch_size, rng_key,
                idxs=self._bootstrap_idxs,
                full_batch_required=full_batch_required
            )

    class _DatasetIterator:
        def __init__(self, dataset, batch_size, rng_key, idxs=None, full_batch_required=True):
            self._dataset: Dataset = dataset
            self._dataset_length = len(dataset)
            self._batch_size = batch_size
            self._epoch_steps = 0
            self._rng_key = rng_key
            self._full_batch_required = full_batch_required

            if idxs is not None:
                self._idxs = idxs
            else:
                self._idxs = jnp.arange(len(dataset))

            if self._idxs.shape[-1] < batch_size and full_batch_required:
                raise RuntimeError("Not enough data for full batch.")

            # Shuffle indices for epoch
            self._rng_key, subkey = jax.random.split(self._rng_key)
            self._idxs = jax.random.permutation(subkey, self._idxs, axis=-1, independent=True)

        def __iter__(self):
            return self

        def __next__(self):
            if self._full_batch_required and self._batch_size * (self._epoch_steps + 1) > self._dataset_length:
                raise StopIteration("Not enough data left for a full batch.")
            if self._batch_size * self._epoch_steps >= self._dataset_length:
                raise StopIteration("Reached end of dataset.")

            batch_start = self._epoch_steps * self._batch_size
            batch_end = min(batch_start + self._batch_size, self._dataset_length)
            batch_idxs = self._idxs[..., batch_start:batch_end]
            self._epoch_steps += 1

            return jax.tree_map(lambda x: x[batch_idxs], self._dataset._dataset)

# ---- mbrl/misc/fully_connected_neural_net.py ----
from typing import Any, Callable, Dict, List, Union

import jax.numpy as jnp
import jax.random

# from mbrl._src.utils import Array  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-in above)


class FullyConnectedNeuralNet:
    def __init__(
        self,
        name: str,
        input_dim: int,
        output_dim: int,
        hidden_dims: List[int],
        hidden_activations: Union[None, Callable[[Array], Array], List[Union[None, Callable[[Array], Array]]]],
        output_activation: Union[None, Callable[[Array], Any]] = None
    ):
        """Creates a fully-connected network.

        Args:
            name: Network name. Used for referencing parameters, so must be unique.
            input_dim: Net input dimension.
            output_dim: Net output dimension.
            hidden_dims: List of hidden layer dimensions.
            hidden_activations: A single activation type to use for every hidden layer,
                OR a list of activations to use for each hidden layer specified in hidden dims.
            output_activation: Activation to use for the final layer.
                Defaults to the identity operation.

        >>> net = FullyConnectedNeuralNet("relu_net", 5, 10, [100], jax.nn.relu)   # Creates a network R^5 -> R^10 with a single
                                                                          #   hidden layer of 100 ReLU neurons.
        """
        if not isinstance(hidden_activations, list):
            hidden_activations = len(hidden_dims) * [hidden_activations]
        if len(hidden_dims) != len(hidden_activations):
            raise ValueError("Number of hidden layers does not match number of hidden activations provided.")

        self._name = name
        self._input_dim = input_dim
        self._intermediate_dims = hidden_dims + [output_dim]
        self._intermediate_activations = hidden_activations + [output_activation]

    def init(
        self,
        params: Dict,
        rng_key: jax.random.KeyArray
    ) -> Dict:
        """Places randomly initialized net parameters within the given dictionary, which is returned.

        Args:
            params: Dictionary of parameters. Sets params[<network name>] to initialized parameters.
            rng_key: JAX RNG key, which should not be reused outside this function.

        Returns:
            params
        """
        net_params = {}
        cur_dim = self._input_dim
        for depth, out_dim in enumerate(self._intermediate_dims):
            layer_params = net_params["transform{}".format(depth)] = {}
            rng_key, subkey = jax.random.split(rng_key)
            layer_params["weights"] = \
                jnp.sqrt(2 / cur_dim) * jax.random.normal(subkey, shape=[out_dim, cur_dim])   # Kaiming init
            layer_params["biases"] = jnp.zeros(out_dim)
            cur_dim = out_dim

        params[self._name] = net_params
        return params

    def forward(
        self,
        params: Dict,
        query: Array
    ) -> Any:
        """Returns the output of the network on a single query point, using the given parameter dictionary.

        Args:
            params: Dictionary of parameters.
            query: Point on which network will be queried. query.shape = [input_dim].

        Returns:
            Network output evaluated at query. return.shape = [output_dim]
        """
        try:
            net_params = params[self._name]
        except KeyError:
            raise RuntimeError("Cannot find network parameters in provided parameter dictionary. "
                               "Have you called init()?")

        hidden = query
        for depth, activation in enumerate(self._intermediate_activations):
            layer_params = net_params["transform{}".format(depth)]
            pre_activation = jnp.dot(layer_params["weights"], hidden) + layer_params["biases"]
            hidden = pre_activation if activation is None else activation(pre_activation)
        return hidden

# ---- mbrl/misc/neural_net_dynamics_model.py ----
from typing import Callable, Dict, List, Union

import jax
import jax.numpy as jnp

# from mbrl.misc.fully_connected_neural_net import FullyConnectedNeuralNet  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-in above)
# from mbrl._src.utils import Array, create_gaussianizer, gaussian_log_prob, normalize, reparameterized_gaussian_sampler  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-in above)


class NeuralNetDynamicsModel:
    def __init__(
        self,
        name: str,
        dummy_obs: Array,
        dummy_action: Array,
        hidden_dims: List[int],
        hidden_activations: Union[None, Callable[[Array], Array], List[Union[None, Callable[[Array], Array]]]],
        is_probabilistic: bool,
        min_stddev: float = 1e-5,
        max_stddev: float = 100.,
        obs_preproc: Callable[[Array], Array] = lambda obs: obs,
        targ_comp: Callable[[Array, Array], Array] = lambda obs, next_obs: next_obs,
        next_obs_comp: Callable[[Array, Array], Array] = lambda obs, pred: pred,
        normalize_inputs: bool = True,
        normalize_outputs: bool = True
    ):
        """Creates a dynamics model which internally uses a neural network with a deterministic output.

        Args:
            name: Model name. Used for referencing parameters, so must be unique.
            dummy_obs: Single dummy observation used to infer shapes.
            dummy_action: Single dummy action used to infer shapes.
            hidden_dims: List of hidden dimensions for internal network.
            hidden_activations: A single activation type to use for every hidden layer,
                OR a list of activations to use for each hidden layer specified in hidden dims.
            is_probabilistic: Indicates whether the internal network will output a distribution.
            min_stddev: Minimum stddev that can be output by a probabilistic model, for training stability.
            max_stddev: Maximum stddev that can be output by a probabilistic model, for training stability.
            obs_preproc: Preprocesses observations before feeding into the network.
                Defaults to identity operation.
            targ_comp: Computes network targets from (obs, next_obs).
                Defaults to (obs, next_obs) -> next_obs (i.e. network directly predicts next observation).
            next_obs_comp: Computes next_obs prediction from (obs, net_output).
                Defaults to (obs, net_output) -> net_output (i.e. network directly predicts next observation).
            normalize_inputs: Indicates if input normalization will be used.
            normalize_outputs: Indicates if output normalization will be used.
        """
        self._name = name
        self._obs_preproc = obs_preproc
        self._targ_comp = targ_comp
        self._next_obs_comp = next_obs_comp
        self._is_probabilistic = is_probabilistic
        self._is_normalizing_inputs = normalize_inputs
        self._is_normalizing_outputs = normalize_outputs

        preproc_obs_dim = self._obs_preproc(dummy_obs).shape[0]
        action_dim = dummy_action.shape[0]
        pred_dim = self._targ_comp(dummy_obs, dummy_obs).shape[0]

        self._normalizer_params = {
            name: {
                "center": jnp.zeros(shape=[dim]),
                "scale": jnp.ones(shape=[dim])
            } for (name, dim) in [("input", preproc_obs_dim + action_dim), ("output", pred_dim)]
        }

        self._internal_net = FullyConnectedNeuralNet(
            name="{}_internal".format(self._name),
            input_dim=preproc_obs_dim + action_dim,
            output_dim=2*pred_dim if self._is_probabilistic else pred_dim,
            hidden_dims=hidden_dims,
            hidden_activations=hidden_activations,
            output_activation=create_gaussianizer(
                stddev_nonlinearity=jax.nn.softplus,
                min_stddev=min_stddev,
                max_stddev=max_stddev
            ) if self._is_probabilistic else None
        )

    @property
    def is_probabilistic(self) -> bool:
        """Does the model return stochastic predictions?"""
        return self._is_probabilistic

    def init(
        self,
        params: Dict,
        rng_key: jax.random.KeyArray
    ) -> Dict:
        """Places randomly initialized net parameters within the given dictionary, which is returned.

        Args:
            params: Dictionary of parameters where initialization will be placed.
            rng_key: JAX RNG key, which should not be reused outside this function.

        Returns:
            params
        """
        return self._internal_net.init(params, rng_key)

    def fit_normalizer(self, obs, actions, next_obs) -> None:
        """Fits the normalizer of this network to the given points.

        Args:
            obs: Array of observations.
            actions: Array of actions.
            next_obs: Array of next observations.
        """
        if obs.shape[0] != actions.shape[0] or actions.shape[0] != next_obs.shape[0]:
            raise RuntimeError("Arrays for fitting normalizer do not have matching lengths.")

        if self._is_normalizing_inputs:
            inputs = jnp.concatenate([jax.vmap(self._obs_preproc)(obs), actions], axis=-1)
            input_mean = jnp.mean(inputs, axis=0)
            input_stddev = jnp.std(inputs, axis=0)
            self._normalizer_params["input"] = {
                "center": input_mean,
                "scale": jnp.where(input_stddev > 1e-5, input_stddev, jnp.ones_like(input_stddev))
            }

        if self._is_normalizing_outputs:
            outputs = jax.vmap(self._targ_comp)(obs, next_obs)
            output_mean = jnp.mean(outputs, axis=0)
            output_stddev = jnp.std(outputs, axis=0)
            self._normalizer_params["output"] = {
                "center": output_mean,
                "scale": jnp.where(output_stddev > 1e-5, output_stddev, jnp.ones_like(output_stddev))
            }

    def predict(
        self,
        params: Dict,
        obs: Array,
        action: Array,
        rng_key=None
    ) -> jnp.ndarray:
        """Returns the prediction of the model on a SINGLE observation and action.

        Args:
            params: Dictionary of parameters.
            obs: Environment observation.
            action: Action.
            rng_key: JAX RNG key, only needed for probabilistic model. Do not reuse outside function.

        Returns:
            The predicted next observation according to the model.
        """
        raw_output = self._compute_net_output(params, obs, action)

        if self._is_probabilistic:
            if rng_key is None:
                raise RuntimeError("Probabilistic dynamics models require a JAX RNG key for prediction.")

            raw_prediction = reparameterized_gaussian_sampler(raw_output, rng_key)
        else:
            raw_prediction = raw_output

        if self._is_normalizing_outputs:
            raw_prediction = normalize(raw_prediction, self._normalizer_params["output"], invert=True)
        return self._next_obs_comp(obs, raw_prediction)

    def prediction_loss(
        self,
        params: Dict,
        obs: Array,
        action: Array,
        next_obs: Array
    ) -> jnp.ndarray:
        """Computes the negative log-likelihood of the target induced by (obs, next_obs) with respect to the model,
        conditioned on (obs, action), up to additive constants.

        Note: For deterministic models, the log-likelihood is computed as if the network output is the mean of a
        multivariate Gaussian with identity covariance.

        Args:
            params: Dictionary of parameters.
            obs: Environment observation.
            action: Action.
            next_obs: Next environment observation.

        Returns:
            Negative log-likelihood.
        """
        raw_output = self._compute_net_output(params, obs, action)

        if self._is_normalizing_outputs:
            targ = normalize(self._targ_comp(obs, next_obs), self._normalizer_params["output"])
        else:
            targ = self._targ_comp(obs, next_obs)

        if self.is_probabilistic:
            gaussian_params = raw_output
        else:
            gaussian_params = {"mean": raw_output, "stddev": jnp.ones_like(raw_output)}

        return -gaussian_log_prob(gaussian_params, targ)

    def _compute_net_output(self, params, obs, action):
        preproc_obs = self._obs_preproc(obs)
        if self._is_normalizing_inputs:
            return self._internal_net.forward(
                params,
                normalize(jnp.concatenate([preproc_obs, action]), self._normalizer_params["input"])
            )
        else:
            return self._internal_net.forward(params, jnp.concatenate([preproc_obs, action]))

# ---- mbrl/agents/model_based_agent.py ----
from abc import ABC, abstractmethod
from typing import Any, Callable, Dict

# from gym.envs.mujoco import MujocoEnv  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-in above)
import jax
import jax.numpy as jnp
import numpy as onp
import optax
from tqdm import trange

# from mbrl.misc import Dataset, NeuralNetDynamicsModel  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-in above)
# from mbrl.policies import DeterministicPolicy  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-in above)
# from mbrl._src.utils import Array  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-in above)


class DeepModelBasedAgent(ABC):
    def __init__(
        self,
        env: MujocoEnv,
        reward_fn: Callable[[jnp.ndarray, jnp.ndarray, jnp.ndarray], jnp.ndarray],
        dynamics_model: NeuralNetDynamicsModel,
        ensemble_size: int,
        dynamics_optimizer: optax.GradientTransformation,
        n_model_train_steps: int,
        model_train_batch_size: int,
        n_model_eval_points: int,
        rng_key: jax.random.KeyArray,
        *_args, **_kwargs
    ):
        """Creates an RL agent which uses a neural network dynamics model to solve tasks via planning.

        Args:
            env: Environment within which agent will be acting, used for inferring shapes.
            reward_fn: Reward function defined on (observation, action, next_observation).
            dynamics_model: Dynamics model to be used by the agent.
            ensemble_size: Number of models to train for ensemble.
            dynamics_optimizer: Optimizer to use for training the dynamics model.
            n_model_train_steps: Number of parameter updates to perform for the model.
            model_train_batch_size: Size of batches to use for each parameter update for the model.
            n_model_eval_points: Number of points to evaluate the trained dynamics model on for logging statistics.
            rng_key: JAX RNG key to be used by this agent internally. Do not reuse.
        """
        self._reward_fn = reward_fn
        self._dynamics_model = dynamics_model
        self._ensemble_size = ensemble_size
        self._dynamics_optimizer = dynamics_optimizer
        self._n_model_train_steps = n_model_train_steps
        self._model_train_batch_size = model_train_batch_size
        self._n_model_eval_points = n_model_eval_points
        self._rng_key = rng_key

        self._dynamics_dataset = Dataset(
            observation=env.observation_space.shape,
            action=env.action_space.shape,
            next_observation=env.observation_space.shape
        )

        params_per_member = [{} for _ in range(self._ensemble_size)]
        for idx in range(self._ensemble_size):
            self._rng_key, subkey = jax.random.split(self._rng_key)
            params_per_member[idx] = self._dynamics_model.init(params_per_member[idx], subkey)
        self._dynamics_params = jax.tree_map(lambda *a: jnp.stack(a), *params_per_member)

        self._model_eval_op = self._create_model_eval_op()

        self._dynamics_optimizer_state = self._dynamics_optimizer.init(self._dynamics_params)
        self._model_update_op = self._create_model_update_op()

    def reset(self) -> None:
        """Resets the agent after an environment rollout. Does nothing by default. """
        pass

    def add_interaction_data(
        self,
        obs_seq: Array,
        action_seq: Array
    ) -> None:
        """Provides the agent with new trajectory data for future training.
        This method expects that len(obs_seq) == len(action_seq) + 1 (the additional observation being
        the initial one).

        Args:
            obs_seq: Sequence of new observations to provide to the learner.
            action_seq: Sequence of new actions to provide to the learner.
        """
        if len(obs_seq) != len(action_seq) + 1:
            raise RuntimeError("Invalid trajectory data passed to agent. "
                               "Ensure that len(obs_seq) == len(action_seq) + 1.")

        self._dynamics_dataset.add(
            observation=obs_seq[:-1],
            action=action_seq,
            next_observation=obs_seq[1:]
        )

    def train(self) -> None:
        """Trains the internal dynamics model of this agent with all the provided interaction data so far.
        """
        self._dynamics_model.fit_normalizer(
            self._dynamics_dataset["observation"],
            self._dynamics_dataset["action"],
            self._dynamics_dataset["next_observation"]
        )

        self._rng_key, subkey = jax.random.split(self._rng_key)
        bootstrapped_dataset = self._dynamics_dataset.bootstrap(self._ensemble_size, subkey)

        self._rng_key, subkey = jax.random.split(self._rng_key)
        epoch_iterator = bootstrapped_dataset.epoch(self._model_train_batch_size, subkey)
        for _ in trange(self._n_model_train_steps, desc="Dynamics model training", unit="batches", ncols=150):
            while True:
                try:
                    batches_per_member = next(epoch_iterator)
                    break
                except StopIteration:
                    self._rng_key, subkey = jax.random.split(self._rng_key)
                    epoch_iterator = bootstrapped_dataset.epoch(self._model_train_batch_size, subkey)

            self._dynamics_params, self._dynamics_optimizer_state = self._model_update_op(
                self._dynamics_params, self._dynamics_optimizer_state, batches_per_member
            )

    @abstractmethod
    def act(
        self,
        obs: Array
    ) -> onp.ndarray:
        """Queries the agent for its action on the given observation.

        Args:
            obs: The current observation.

        Returns:
            Action chosen by the agent
        """
        pass

    def get_logging_statistics(self, *_args, **_kwargs) -> Dict[str, float]:
        """Get statistics for logging from this agent.

        Args:
            *_args: UNUSED
            **_kwargs: UNUSED

        Returns:
            Dictionary of named statistics to be logged.
        """
        self._rng_key, subkey = jax.random.split(self._rng_key)
        iterator = self._dynamics_dataset.epoch(self._n_model_eval_points, subkey, full_batch_required=False)
        return {
            "Dynamics model log-likelihood": self._model_eval_op(self._dynamics_params, next(iterator))
        }

    def _create_model_eval_op(self):
        @jax.jit
        def ensemble_eval(dynamics_params, eval_batch):
            def batch_mean_loss(single_net_params, batch):
                return jnp.mean(jax.vmap(self._dynamics_model.prediction_loss, (None, 0, 0, 0))(
                    single_net_params, batch["observation"], batch["action"], batch["next_observation"]
                ))
            return jnp.mean(jax.vmap(batch_mean_loss, (0, None))(dynamics_params, eval_batch))

        return ensemble_eval

    def _create_model_update_op(self):
        @jax.jit
        def model_update(dynamics_params, dynamics_optimizer_state, all_member_batches):
            def batch_mean_loss(single_net_params, batch):
                return jnp.mean(jax.vmap(self._dynamics_model.prediction_loss, (None, 0, 0, 0))(
                    single_net_params, batch["observation"], batch["action"], batch["next_observation"]
                ))

            def sum_ensemble_losses(ensemble_params, ensemble_batches):
                return jnp.sum(jax.vmap(batch_mean_loss)(ensemble_params, ensemble_batches))

            ensemble_grads = jax.grad(sum_ensemble_losses)(dynamics_params, all_member_batches)
            updates, dynamics_optimizer_state = self._dynamics_optimizer.update(
                ensemble_grads, dynamics_optimizer_state, dynamics_params
            )
            return optax.apply_updates(dynamics_params, updates), dynamics_optimizer_state

        return model_update

    def _create_rollout_evaluator(
        self,
        rollout_policy: Callable[[Any, jnp.ndarray, int, jax.random.KeyArray], jnp.ndarray],
        rollout_horizon: int,
        fn_to_accumulate: Callable[[int, jnp.ndarray, jnp.ndarray, jnp.ndarray, Dict, Dict, jax.random.KeyArray],
                                   jnp.ndarray],
        accumulator_init: Any = 0.,
        discount_factor: float = 1.0
    ):
        """Helper method that creates evaluators using the model to roll out policies.
        Created so that the rollout_policy parameters are JAX vmap-able.

        Args:
            rollout_policy: A policy mapping of the form (params, obs, i, rng_key) -> action.
                See examples below.
            rollout_horizon: Rollout horizon
            fn_to_accumulate: A scalar- or pytree-valued function on
                (observation, action, next_observation, rollout_policy_params, dynamics_params, rng_key)
                that will be accumulated over the rollout for trajectory evaluation.
                For example, setting this to self.reward_fn will return an evaluator that computes the rollout return.
                rng_key is provided to allow for random functions (e.g. entropy bonus estimated from samples)
            accumulator_init: Initial value for the accumulator.
                Defaults to 0 for backwards compatibility, which is valid only for scalar-valued fn_to_accumulate.
            discount_factor: Discount factor used for computing returns.
                Defaults to 1.0 (i.e. no discount).

        Returns:
            Policy evaluator which, given (rollout policy params, dynamics parameters, start_obs, JAX RNG key),
            outputs a predicted final state and the sum of fn_to_accumulate over the rollout (truncated to the given
            horizon).

        >>> # Evaluator for length-10 action sequences (e.g. MPC/random shooting methods).
        >>> evaluator_mpc = self._create_rollout_evaluator(
        ...     lambda action_seq, _obs, i: action_seq[i],
        ...     10,
        ...     self._wrap_basic_reward(self._reward_fn)
        ... )
        >>>
        >>> # Evaluator for time-independent policy over a length-50 horizon
        >>> policy: DeterministicPolicy
        >>> evaluator_policy = self._create_rollout_evaluator(
        ...     lambda policy_params, obs, _i: policy.act(policy_params, obs),
        ...     50,
        ...     self._wrap_basic_reward(self._reward_fn)
        ... )
        """
        def rollout_and_evaluate(rollout_policy_params, dynamics_params, start_obs, rng_key):
            # Assign an ensemble member to each particle at random
            rng_key, subkey = jax.random.split(rng_key)
            member = jax.random.randint(
                subkey, minval=0, maxval=self._ensemble_size, shape=()
            )
            member_params = jax.tree_map(
                lambda all_params: all_params[member], dynamics_params
            )

            def simulate_single_timestep(prev_timestep_info, h):
                cur_obs, cur_return, r_key = prev_timestep_info

                r_key, s_key = jax.random.split(r_key)
                action = rollout_policy(rollout_policy_params, cur_obs, h, s_key)

                r_key, s_key = jax.random.split(r_key)
                next_obs = self._dynamics_model.predict(member_params, cur_obs, action, s_key)

                r_key, s_key = jax.random.split(r_key)
                cur_return = jax.tree_map(
                    lambda x, y: x + (discount_factor ** h) * y,
                    cur_return,
                    fn_to_accumulate(
                        h, cur_obs, action, next_obs, rollout_policy_params, member_params, s_key
                    )
                )

                return (next_obs, cur_return, r_key), cur_obs

            (final_obs, rollout_return, _), obs_seq = jax.lax.scan(
                simulate_single_timestep,
                (start_obs, accumulator_init, rng_key),
                jnp.arange(rollout_horizon, dtype=int)
            )
            return {
                "final_observation": final_obs,
                "rollout_return": rollout_return,
                "observation_sequence": jnp.append(obs_seq, final_obs[None], axis=0)
            }

        return rollout_and_evaluate

    @staticmethod
    def _wrap_basic_reward(reward_fn):
        """Convenience function which wraps a basic reward function in another function
        that is compatible with create_rollout_evaluator.
        """
        return lambda _, observation, action, next_observation, __, ___, ____: \
            reward_fn(observation, action, next_observation)


# ---- scaffolding: a concrete agent on a small cartpole-like dataset, trained twice as data arrives ----
import numpy as onp  # scaffolding
from types import SimpleNamespace  # scaffolding
import optax  # scaffolding


class _Agent(DeepModelBasedAgent):  # scaffolding: act() is abstract; the model-based agents implement it with MPC/policies
    def act(self, obs):  # scaffolding
        return onp.zeros(1)  # scaffolding


env = SimpleNamespace(observation_space=SimpleNamespace(shape=(4,)), action_space=SimpleNamespace(shape=(1,)))  # scaffolding: MuJoCo cartpole shapes
dynamics_model = NeuralNetDynamicsModel(  # scaffolding: as in the experiment configs
    name="dynamics", dummy_obs=jnp.zeros(4), dummy_action=jnp.zeros(1), hidden_dims=[32], hidden_activations=jax.nn.swish,  # scaffolding
    is_probabilistic=True, obs_preproc=lambda obs: obs, targ_comp=lambda obs, next_obs: next_obs - obs,  # scaffolding
    next_obs_comp=lambda obs, pred: obs + pred)  # scaffolding
agent = _Agent(env, None, dynamics_model, ensemble_size=2, dynamics_optimizer=optax.adam(1e-3), n_model_train_steps=3,  # scaffolding
               model_train_batch_size=16, n_model_eval_points=1000, rng_key=jax.random.PRNGKey(0))  # scaffolding
rng = onp.random.RandomState(0)  # scaffolding


def _rollout(scale):  # scaffolding: one episode of 32 steps; later episodes visit larger states
    obs = rng.randn(33, 4).astype("float32") * scale  # scaffolding
    return jnp.array(obs), jnp.array(rng.randn(32, 1).astype("float32"))  # scaffolding


import tqdm as _tqdm, functools as _ft  # scaffolding
trange = _ft.partial(_tqdm.trange, disable=True)  # scaffolding: quiet progress bars
try:  # scaffolding
    agent.add_interaction_data(*_rollout(0.1))  # scaffolding: first episode
    agent.train()  # scaffolding: fits the normalizer, then 3 jitted model updates
    print(agent.get_logging_statistics())  # scaffolding: logged after every iteration, as in model_based_experiment.py
    agent.add_interaction_data(*_rollout(5.0))  # scaffolding: second episode, very different state scale
    agent.train()  # scaffolding: refits the normalizer, 3 more model updates
    print(agent.get_logging_statistics())  # scaffolding
    batch = next(agent._dynamics_dataset.bootstrap(2, jax.random.PRNGKey(1)).epoch(16, jax.random.PRNGKey(2)))  # scaffolding
    jitted = agent._model_update_op(agent._dynamics_params, agent._dynamics_optimizer_state, batch)[0]  # scaffolding
    with jax.disable_jit():  # scaffolding: the same update traced with the current normalizer
        eager = agent._model_update_op(agent._dynamics_params, agent._dynamics_optimizer_state, batch)[0]  # scaffolding
    diff = max(float(jnp.max(jnp.abs(a - b))) for a, b in zip(jax.tree_util.tree_leaves(jitted), jax.tree_util.tree_leaves(eager)))  # scaffolding
    print("normalizer input scale now:", dynamics_model._normalizer_params["input"]["scale"][:2], "max |jit - eager| update:", diff, "stale:", diff > 1e-6)  # scaffolding
    _report({"jit(model_update)", "jit(ensemble_eval)"}, 9)  # scaffolding: 6 training updates + 1 probe, 2 evaluations
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
