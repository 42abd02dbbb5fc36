# source: https://github.com/kchua/mbrl-jax/blob/bb05e8fa5b28ecc61a3f083972df0336f06fe0c5/mbrl/agents/model_predictive_control_agent.py
# expect: none
# runtime: COMPILES 1 CALLS 24
# why: PETS act() runs a Python while loop whose test is jnp.max(proposal stddev) > eps around the jitted cross_entropy_method_update; the loop is outside jit (concrete test) and the update is built once with stable shapes/dtypes, so it compiles once for 24 calls.
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
VideoRecorder = lambda env, base_path=None, enabled=False: __import__("types").SimpleNamespace(capture_frame=lambda: None, close=lambda: None)  # scaffolding: gym VideoRecorder stand-in (recording disabled)

# ---- mbrl/_src/utils.py ----
import logging
from typing import Callable, Union

# from gym.wrappers.monitoring.video_recorder import VideoRecorder  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)
import jax.numpy as jnp
import numpy as onp

Array = Union[jnp.ndarray, onp.ndarray]
Activation = Callable[[Array], Array]


def normalize(normalizer_params, query):
    return (query - normalizer_params["center"]) / normalizer_params["scale"]


def denormalize(normalizer_params, query):
    return query * normalizer_params["scale"] + normalizer_params["center"]


def rollout(env, discount_factor, agent=None, recording_path=None, evaluation=False):
    observations, actions = [], []
    observations.append(env.reset())

    recorder = VideoRecorder(env, base_path=recording_path, enabled=(recording_path is not None))
    recorder.capture_frame()

    rollout_return, rollout_discounted_return, cur_discount_multiplier = 0., 0., 1.
    done = False
    while not done:
        if agent is None:
            ac = env.action_space.sample()
        else:
            ac = agent.act(observations[-1], evaluation=evaluation)

        ob, reward, done, _ = env.step(ac)
        recorder.capture_frame()

        rollout_return += reward
        rollout_discounted_return += cur_discount_multiplier * reward
        cur_discount_multiplier *= discount_factor

        observations.append(ob)
        actions.append(ac)

    rollout_statistics = {
        "Return": rollout_return,
        "Discounted return": rollout_discounted_return
    }

    recorder.close()
    return observations, actions, rollout_statistics


def print_logging_statistics(iteration, logging_statistics, n_after_decimal=6):
    max_len = len(max(logging_statistics, key=lambda x: len(x)))
    number_length = 3 + n_after_decimal + 4
    writeable_length = max(max_len + 1 + 1 + 1 + number_length, 30)
    label_length = writeable_length - 3 - number_length

    logging.info("#" * (1 + 1 + label_length + 1 + 1 + 1 + number_length + 1 + 1))
    logging.info(("# {:^%d} #" % writeable_length).format("Iteration {} Statistics".format(iteration)))
    logging.info("# " + (" " * writeable_length) + " #")
    for stat, value in logging_statistics.items():
        if value >= 0:
            logging.info(("# {:>%d} :  {:.%de} #" % (label_length, n_after_decimal)).format(stat, value))
        else:
            logging.info(("# {:>%d} : {:.%de} #" % (label_length, n_after_decimal)).format(stat, value))
    logging.info("#" * (1 + 1 + max_len + 1 + 1 + 1 + 3 + n_after_decimal + 4 + 1 + 1))

# ---- mbrl/_src/gaussian_utils.py ----
from typing import Callable

import jax
import jax.numpy as jnp


def gaussian_log_prob(gaussian_params, query):
    """Evaluates the log-likelihood of the query point under the multivariate Gaussian with the given
    parameters.

    Args:
        gaussian_params: A dictionary containing "mean", "stddev", and "log_stddev"
        query: Query point.

    Returns:
        Log-likelihood
    """
    query, mean, stddev, log_stddev = jnp.broadcast_arrays(
        query, gaussian_params["mean"], gaussian_params["stddev"], gaussian_params["log_stddev"]
    )
    dim = mean.size
    weighted_mse = 0.5 * jnp.sum(jnp.square((query - mean) / stddev))
    log_det_cov = jnp.sum(log_stddev)
    return -(weighted_mse + log_det_cov + (dim / 2) * jnp.log(2 * jnp.pi))


def gaussian_entropy(gaussian_params):
    log_cov_term = jnp.sum(gaussian_params["log_stddev"])
    constant = 0.5 * gaussian_params["mean"].size * (1 + jnp.log(2 * jnp.pi))
    return log_cov_term + constant


def create_bounded_gaussianizer(
    min_stddev: float,
    max_stddev: float,
    mean_activation: Callable = lambda x: x
):
    """Creates an output activation which maps from an input tensor of shape [..., dim] to the
    parameters of a Gaussian with mean and stddev both of shape [..., dim // 2].

    Args:
        min_stddev: Minimum standard deviation output.
        max_stddev: Maximum standard deviation output.
        mean_activation: Activation applied to obtain the mean, defaults to the identity operation.

    Returns:
        Activation function.
    """
    delta = max_stddev - min_stddev

    def gaussianize(query):
        out_dim = query.shape[-1] // 2
        stddev_logit = query[..., out_dim:]
        stddev = min_stddev + delta * jax.nn.sigmoid(4 * (stddev_logit / delta))
        return {
            "mean": mean_activation(query[..., :out_dim]),
            "stddev": stddev,
            "log_stddev": jnp.log(stddev)
        }

    return gaussianize


def reparameterized_gaussian_sampler(gaussian_params, rng_key):
    """Samples from the given Gaussian using the reparameterization trick (to allow gradients to pass into the
    Gaussian parameters).

    Args:
        gaussian_params: Parameters of the Gaussian that will be sampled.
        rng_key: JAX RNG key for sampling, do not reuse outside function.

    Returns:
        sample from Gaussian.
    """
    mean, stddev = jnp.broadcast_arrays(gaussian_params["mean"], gaussian_params["stddev"])
    standard_normal_sample = jax.random.normal(rng_key, shape=mean.shape)
    return mean + stddev * standard_normal_sample

# ---- mbrl/misc/dataset.py ----
from typing import Iterable, Optional

import jax
import jax.numpy as jnp


class Dataset:
    def __init__(
        self,
        max_length: Optional[int] = None,
        **kwargs: Iterable[int]
    ):
        """Creates a dataset with named components.

        Args:
            max_length: Optional argument specifying the largest size allowed for this dataset. Points are dropped
                in order to enforce this constraint, with the oldest points being dropped first.
            **kwargs: Dictionary mapping from a named component to expected shape.

        >>> # Creates a dataset for a regression task with inputs in R^10 and outputs in R
        >>> Dataset(inputs=(10,), outputs=())
        >>> # Creates a dataset for an image classification task with 256x256 images and binary labels
        >>> Dataset(inputs=(256, 256), outputs=())
        """
        self._dataset = {}
        self._length = 0
        self._max_length = max_length

        for name, shape in kwargs.items():
            self._dataset[name] = jnp.zeros([0] + list(shape))

    def __len__(self):
        """Returns number of points added to this dataset so far."""
        return self._length

    def __iter__(self):
        """Returns an iterator over the named elements of this dataset."""
        return self._dataset.__iter__()

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
        if len(kwargs) != len(self._dataset.keys()):
            raise RuntimeError("Number of named components during add() does not match "
                               "dataset at construction time.")

        n_elems_to_add = None
        for name in self._dataset:
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

        if self._max_length is None:
            self._length += n_elems_to_add
        else:
            self._length = min(self._length + n_elems_to_add, self._max_length)

        for name in self._dataset:
            self._dataset[name] = jnp.concatenate([self._dataset[name], kwargs[name]])[-self._length:]

    def sample(
        self,
        sample_size,
        rng_key: jax.random.KeyArray
    ):
        """Samples a set of size sample_size uniformly with replacement from this dataset.

        Args:
            sample_size: Size of set to sample from this dataset.
            rng_key: JAX RNG key used to sample from this dataset, do not reuse.

        Returns:
            A set of samples of size sample_size sampled uniformly with replacement.
        """
        idxs = jax.random.randint(rng_key, (sample_size,), 0, len(self), dtype=int)
        return jax.tree_map(lambda x: x[idxs], self._dataset)

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

        def __len__(self):
            """Returns the number of points in each bootstrap."""
            return len(self._dataset)

        def __iter__(self):
            """Returns an iterator over the named elements of this dataset."""
            return self._dataset.__iter__()

        def __getitem__(self, key) -> jnp.ndarray:
            """Returns a named component in the dataset, if it exists."""
            return self._dataset[key][self._bootstrap_idxs]

        def epoch(self, batch_size, rng_key, full_batch_required=True):
            return Dataset._DatasetIterator(
                self._dataset, batch_size, rng_key,
                idxs=self._bootstrap_idxs,
                full_batch_required=full_batch_required
            )

    class _DatasetIterator:
        def __init__(self, dataset, batch_size, rng_key, idxs=None, full_batch_required=True):
            self._dataset: Dataset = dataset
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
            if self._full_batch_required and self._batch_size * (self._epoch_steps + 1) > self._idxs.shape[-1]:
                raise StopIteration("Not enough data left for a full batch.")
            if self._batch_size * self._epoch_steps >= self._idxs.shape[-1]:
                raise StopIteration("Reached end of dataset.")

            batch_start = self._epoch_steps * self._batch_size
            batch_end = min(batch_start + self._batch_size, self._idxs.shape[-1])
            batch_idxs = self._idxs[..., batch_start:batch_end]
            self._epoch_steps += 1

            return jax.tree_map(lambda x: x[batch_idxs], self._dataset._dataset)

# ---- mbrl/misc/fully_connected_neural_net.py ----
from typing import Any, Callable, Dict, List, Union

import jax.numpy as jnp
import jax.random

# from mbrl._src.utils import Array  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)


class FullyConnectedNeuralNet:
    def __init__(
        self,
        input_dim: int,
        output_dim: int,
        hidden_dims: List[int],
        hidden_activations: Union[None, Callable[[Array], Array], List[Union[None, Callable[[Array], Array]]]],
        output_activation: Union[None, Callable[[Array], Any]] = None
    ):
        """Creates a fully-connected network.

        Args:
            input_dim: Net input dimension.
            output_dim: Net output dimension.
            hidden_dims: List of hidden layer dimensions.
            hidden_activations: A single activation type to use for every hidden layer,
                OR a list of activations to use for each hidden layer specified in hidden dims.
            output_activation: Activation to use for the final layer.
                Defaults to the identity operation.

        >>> net = FullyConnectedNeuralNet(5, 10, [100], jax.nn.relu)   # Creates a network R^5 -> R^10 with a single
                                                                       #   hidden layer of 100 ReLU neurons.
        """
        if not isinstance(hidden_activations, list):
            hidden_activations = len(hidden_dims) * [hidden_activations]
        if len(hidden_dims) != len(hidden_activations):
            raise ValueError("Number of hidden layers does not match number of hidden activations provided.")

        self._input_dim = input_dim
        self._intermediate_dims = hidden_dims + [output_dim]
        self._intermediate_activations = hidden_activations + [output_activation]

    def init(
        self,
        params: Dict,
        state: Dict,
        rng_key: jax.random.KeyArray
    ) -> (Dict, Dict):
        """Places randomly initialized net parameters and state within the given dictionaries, which are returned.

        Args:
            params: Dictionary where the network will place its own parameters.
            state: Dictionary where the network will place its internal state.
            rng_key: JAX RNG key, which should not be reused outside this function.

        Returns:
            params
        """
        cur_dim = self._input_dim
        for depth, out_dim in enumerate(self._intermediate_dims):
            layer_params = params["transform{}".format(depth)] = {}
            rng_key, subkey = jax.random.split(rng_key)
            layer_params["weights"] = jnp.sqrt(2 / cur_dim) * jax.random.normal(subkey, shape=[out_dim, cur_dim])
            layer_params["biases"] = jnp.zeros(out_dim)
            cur_dim = out_dim
        return params, state

    def forward(
        self,
        params: Dict,
        _state: Dict,
        query: Array
    ) -> Any:
        """Returns the output of the network on a single query point, using the given parameter dictionary.

        Args:
            params: Dictionary of network parameters.
            _state: Dictionary containing network state.
            query: Point on which network will be queried. query.shape = [input_dim].

        Returns:
            Network output evaluated at query. return.shape = [output_dim]
        """
        try:
            hidden = query
            for depth, activation in enumerate(self._intermediate_activations):
                layer_params = params["transform{}".format(depth)]
                pre_activation = jnp.dot(layer_params["weights"], hidden) + layer_params["biases"]
                hidden = pre_activation if activation is None else activation(pre_activation)
            return hidden
        except KeyError:
            raise RuntimeError("Missing parameters in provided parameter dictionary. Did you call init()?")

# ---- mbrl/misc/neural_net_dynamics_model.py ----
from typing import Callable, Dict, List, Optional, Union

import jax
import jax.numpy as jnp

# from mbrl.misc.fully_connected_neural_net import FullyConnectedNeuralNet  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)
# from mbrl._src.utils import Array, denormalize, normalize  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)
# from mbrl._src.gaussian_utils import create_bounded_gaussianizer, gaussian_log_prob, reparameterized_gaussian_sampler  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)


class NeuralNetDynamicsModel:
    def __init__(
        self,
        dummy_obs: Array,
        dummy_action: Array,
        hidden_dims: List[int],
        hidden_activations: Optional[Union[Callable[[Array], Array], List[Optional[Callable[[Array], Array]]]]],
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
        self._obs_preproc = obs_preproc
        self._targ_comp = targ_comp
        self._next_obs_comp = next_obs_comp
        self._is_probabilistic = is_probabilistic
        self._is_normalizing_inputs = normalize_inputs
        self._is_normalizing_outputs = normalize_outputs

        self._preproc_obs_dim = self._obs_preproc(dummy_obs).size
        self._action_dim = dummy_action.size
        self._pred_dim = self._targ_comp(dummy_obs, dummy_obs).size

        self._internal_net = FullyConnectedNeuralNet(
            input_dim=self._preproc_obs_dim + self._action_dim,
            output_dim=2*self._pred_dim if self._is_probabilistic else self._pred_dim,
            hidden_dims=hidden_dims,
            hidden_activations=hidden_activations,
            output_activation=create_bounded_gaussianizer(min_stddev, max_stddev) if self._is_probabilistic else None
        )

    @property
    def is_probabilistic(self) -> bool:
        """Does the model return stochastic predictions?"""
        return self._is_probabilistic

    def init(
        self,
        params: Dict,
        state: Dict,
        rng_key: jax.random.KeyArray
    ) -> (Dict, Dict):
        """Places randomly initialized net parameters and state within the given dictionary, which is returned.

        Args:
            params: Dictionary where initialized model parameters will be placed.
            state: Dictionary where model state will be placed.
            rng_key: JAX RNG key, which should not be reused outside this function.

        Returns:
            params
        """
        params["internal_net"], state["internal_net"] = self._internal_net.init({}, {}, rng_key)
        state["normalizer"] = {
            "input": {
                "center": jnp.zeros(shape=[self._preproc_obs_dim + self._action_dim]),
                "scale": jnp.ones(shape=[self._preproc_obs_dim + self._action_dim]),
            },
            "output": {
                "center": jnp.zeros(shape=[self._pred_dim]),
                "scale": jnp.ones(shape=[self._pred_dim])
            }
        }
        return params, state

    def fit_normalizer(
        self,
        params: Dict,
        state: Dict,
        obs: Array,
        actions: Array,
        next_obs: Array
    ) -> (Dict, Dict):
        """Fits the normalizer of this network to the given points.

        Args:
            params: Dictionary of model parameters.
            state: Dictionary of model state.
            obs: Array of observations.
            actions: Array of actions.
            next_obs: Array of next observations.

        Returns:
            Updated params and state reflecting fitted normalizer.
        """
        if obs.shape[0] != actions.shape[0] or actions.shape[0] != next_obs.shape[0]:
            raise RuntimeError("Arrays for fitting normalizer do not have matching lengths.")

        if self._is_normalizing_inputs:
            inputs = jax.vmap(self._compute_unnormalized_net_input)(obs, actions)
            input_mean = jnp.mean(inputs, axis=0)
            input_stddev = jnp.std(inputs, axis=0)
            state["normalizer"]["input"] = {
                "center": input_mean,
                "scale": jnp.where(input_stddev > 1e-5, input_stddev, jnp.ones_like(input_stddev))
            }

        if self._is_normalizing_outputs:
            outputs = jax.vmap(self._targ_comp)(obs, next_obs)
            output_mean = jnp.mean(outputs, axis=0)
            output_stddev = jnp.std(outputs, axis=0)
            state["normalizer"]["output"] = {
                "center": output_mean,
                "scale": jnp.where(output_stddev > 1e-5, output_stddev, jnp.ones_like(output_stddev))
            }

        return params, state

    def predict(
        self,
        params: Dict,
        state: Dict,
        obs: Array,
        action: Array,
        rng_key=None
    ) -> jnp.ndarray:
        """Returns the prediction of the model on a SINGLE observation and action.

        Args:
            params: Dictionary of model parameters.
            state: Dictionary of model state.
            obs: Environment observation.
            action: Action.
            rng_key: JAX RNG key, only needed for probabilistic model. Do not reuse outside function.

        Returns:
            The predicted next observation according to the model.
        """
        raw_output = self._compute_net_output(params, state, obs, action)

        if self._is_probabilistic:
            if rng_key is None:
                raise RuntimeError("Probabilistic dynamics models require a JAX RNG key for prediction.")

            raw_prediction = reparameterized_gaussian_sampler(raw_output, rng_key)
        else:
            raw_prediction = raw_output

        raw_prediction = denormalize(state["normalizer"]["output"], raw_prediction)
        return self._next_obs_comp(obs, raw_prediction)

    def log_likelihood(
        self,
        params: Dict,
        state: Dict,
        obs: Array,
        action: Array,
        next_obs: Array
    ) -> jnp.ndarray:
        """Computes the log-likelihood of the target induced by (obs, next_obs) with respect to the model,
        conditioned on (obs, action).

        Note: For deterministic models, the log-likelihood is computed as if the network output is the mean of a
        multivariate Gaussian with identity covariance.

        Args:
            params: Dictionary of model parameters.
            state: Dictionary of model state.
            obs: Environment observation.
            action: Action.
            next_obs: Next environment observation.

        Returns:
            Log-likelihood.
        """
        raw_output = self._compute_net_output(params, state, obs, action)
        targ = normalize(state["normalizer"]["output"], self._targ_comp(obs, next_obs))

        if self.is_probabilistic:
            gaussian_params = raw_output
        else:
            gaussian_params = {"mean": raw_output, "stddev": 1.}

        return gaussian_log_prob(gaussian_params, targ)

    def _compute_net_output(self, params, state, obs, action):
        unnormalized_net_input = self._compute_unnormalized_net_input(obs, action)
        return self._internal_net.forward(
            params["internal_net"],
            state["internal_net"],
            normalize(state["normalizer"]["input"], unnormalized_net_input)
        )

    def _compute_unnormalized_net_input(self, obs, action):
        preproc_obs = self._obs_preproc(obs)
        return jnp.concatenate([preproc_obs, action])

# ---- mbrl/agents/model_based_agent.py ----
from abc import ABC, abstractmethod
from functools import partial
from typing import Any, Callable, Dict

# from gym.envs.mujoco import MujocoEnv  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)
import jax
import jax.numpy as jnp
import numpy as onp
import optax
from tqdm import trange

# from mbrl.misc import Dataset, NeuralNetDynamicsModel  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)
# from mbrl.policies import DeterministicPolicy  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)
# from mbrl._src.utils import Array  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)


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
        rng_key: jax.random.KeyArray,
        *_args,
        **_kwargs
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
            rng_key: JAX RNG key to be used by this agent internally. Do not reuse.
        """
        self._reward_fn = reward_fn
        self._dynamics_model = dynamics_model
        self._ensemble_size = ensemble_size
        self._dynamics_optimizer = dynamics_optimizer
        self._n_model_train_steps = n_model_train_steps
        self._model_train_batch_size = model_train_batch_size
        self._rng_key = rng_key

        self._dynamics_dataset = Dataset(
            observation=env.observation_space.shape,
            action=env.action_space.shape,
            next_observation=env.observation_space.shape
        )

        self._rng_key, subkey = jax.random.split(self._rng_key)
        initializer = partial(self._dynamics_model.init, {}, {})
        self._dynamics_params, self._dynamics_state = \
            jax.vmap(initializer)(jax.random.split(subkey, num=self._ensemble_size))

        self._dynamics_optimizer_state = self._dynamics_optimizer.init(self._dynamics_params)
        self._model_update_op = jax.jit(self._update_model)

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
        self._rng_key, subkey = jax.random.split(self._rng_key)
        bootstrapped_dataset = self._dynamics_dataset.bootstrap(self._ensemble_size, subkey)

        self._dynamics_params, self._dynamics_state = jax.vmap(self._dynamics_model.fit_normalizer)(
            self._dynamics_params,
            self._dynamics_state,
            bootstrapped_dataset["observation"],
            bootstrapped_dataset["action"],
            bootstrapped_dataset["next_observation"]
        )

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

            self._dynamics_params, self._dynamics_state, self._dynamics_optimizer_state = self._model_update_op(
                self._dynamics_params, self._dynamics_state, self._dynamics_optimizer_state, batches_per_member
            )

    @abstractmethod
    def act(
        self,
        obs: Array,
        evaluation: bool = False
    ) -> onp.ndarray:
        """Queries the agent for its action on the given observation.

        Args:
            obs: The current observation.
            evaluation: Indicates if the agent is being queried for an action in an evaluation context.

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
        full_dataset_evaluations = jax.vmap(self._batch_mean_log_likelihood, (0, 0, None))(
            self._dynamics_params,
            self._dynamics_state,
            {name: self._dynamics_dataset[name] for name in self._dynamics_dataset}
        )
        return {"Dynamics model log-likelihood": jnp.mean(full_dataset_evaluations)}

    def get_miscellaneous_data(self):
        def mean_log_likelihood_across_ensemble(obs, action, next_obs):
            return jnp.mean(jax.vmap(self._dynamics_model.log_likelihood, (0, 0, None, None, None))(
                self._dynamics_params, self._dynamics_state, obs, action, next_obs
            ))

        ensemble_mean_log_likelihoods = jax.vmap(mean_log_likelihood_across_ensemble)(
            self._dynamics_dataset["observation"],
            self._dynamics_dataset["action"],
            self._dynamics_dataset["next_observation"]
        )
        return {"Dynamics model log-likelihoods": ensemble_mean_log_likelihoods}

    def _update_model(self, dynamics_params, dynamics_state, dynamics_optimizer_state, all_member_batches):
        def sum_ensemble_losses(ensemble_params, ensemble_state, ensemble_batches):
            return -jnp.sum(jax.vmap(self._batch_mean_log_likelihood)(
                ensemble_params, ensemble_state, ensemble_batches
            ))

        ensemble_grads = jax.grad(sum_ensemble_losses)(dynamics_params, dynamics_state, all_member_batches)
        updates, dynamics_optimizer_state = self._dynamics_optimizer.update(
            ensemble_grads, dynamics_optimizer_state, dynamics_params
        )
        updated_params = optax.apply_updates(dynamics_params, updates)
        return updated_params, dynamics_state, dynamics_optimizer_state

    def _create_rollout_evaluator(
        self,
        rollout_policy: Callable[[Dict, jnp.ndarray, int, jax.random.KeyArray], jnp.ndarray],
        rollout_horizon: int,
        fn_to_accumulate: Callable[[Dict, Dict, Dict, Dict, jax.random.KeyArray], Any],
        accumulator_init: Any
    ):
        """Helper method that creates evaluators using the model to roll out policies.
        Created so that the rollout_policy parameters are JAX vmap-able.

        Args:
            rollout_policy: A policy mapping of the form (rollout_policy_params, obs, timestep, rng_key) -> action.
                See examples below.
            rollout_horizon: Rollout horizon
            fn_to_accumulate: A pytree-valued function on
                (rollout_policy_params, dynamics_params, dynamics_state, timestep_information, rng_key)
                that will be summed over the rollout for trajectory evaluation.
                rng_key is provided to allow for random functions (e.g. entropy bonus estimated from samples)
            accumulator_init: Initial value for the accumulator, must be of the same type as the output of
                fn_to_accumulate.

        Returns:
            Policy evaluator for the set horizon which, given
            (rollout policy params, dynamics params, dynamics state, start_obs, JAX RNG key),
            outputs a predicted final state, the sum of fn_to_accumulate over the rollout, and predicted observation
            and action sequences.

        >>> # Evaluator for length-10 action sequences (e.g. MPC/random shooting methods).
        >>> evaluator_mpc = self._create_rollout_evaluator(
        ...     lambda action_seq, _, i, __: action_seq[i],
        ...     10,
        ...     self._wrap_basic_reward(self._reward_fn),
        ...     0.
        ... )
        >>>
        >>> # Evaluator for time-independent policy over a length-50 horizon
        >>> policy: DeterministicPolicy
        >>> evaluator_policy = self._create_rollout_evaluator(
        ...     lambda policy_params, obs, _, __: policy.act(policy_params, obs),
        ...     50,
        ...     self._wrap_basic_reward(self._reward_fn),
        ...     0.
        ... )
        """
        def rollout_and_evaluate(rollout_policy_params, dynamics_params, dynamics_state, start_obs, rng_key):
            # Randomly select an ensemble member for this rollout
            rng_key, subkey = jax.random.split(rng_key)
            member = jax.random.randint(subkey, minval=0, maxval=self._ensemble_size, shape=())
            member_params = jax.tree_map(lambda all_params: all_params[member], dynamics_params)
            member_state = jax.tree_map(lambda all_states: all_states[member], dynamics_state)

            def simulate_single_timestep(prev_timestep_carry, h):
                cur_obs, cur_return, r_key = prev_timestep_carry

                r_key, s_key = jax.random.split(r_key)
                action = rollout_policy(rollout_policy_params, cur_obs, h, s_key)

                r_key, s_key = jax.random.split(r_key)
                next_obs = self._dynamics_model.predict(member_params, member_state, cur_obs, action, s_key)

                timestep_info = {
                    "timestep": h,
                    "observation": cur_obs,
                    "action": action,
                    "next_observation": next_obs
                }

                r_key, s_key = jax.random.split(r_key)
                summand = fn_to_accumulate(rollout_policy_params, member_params, member_state, timestep_info, s_key)
                cur_return = jax.tree_map(lambda x, y: x + y, cur_return, summand)

                return (next_obs, cur_return, r_key), (cur_obs, action)

            (final_obs, accumulation, _), (obs_seq, action_seq) = jax.lax.scan(
                simulate_single_timestep,
                (start_obs, accumulator_init, rng_key),
                jnp.arange(rollout_horizon, dtype=int)
            )
            return {
                "final_observation": final_obs,
                "accumulation": accumulation,
                "observation_sequence": jnp.append(obs_seq, final_obs[None], axis=0),
                "action_sequence": action_seq
            }

        return rollout_and_evaluate

    def _batch_mean_log_likelihood(self, net_params, net_state, batch):
        log_likelihood_evaluator = partial(self._dynamics_model.log_likelihood, net_params, net_state)
        log_likelihoods = jax.vmap(log_likelihood_evaluator)(
            batch["observation"], batch["action"], batch["next_observation"]
        )
        return jnp.mean(log_likelihoods)

    @staticmethod
    def _wrap_basic_reward(reward_fn):
        """Convenience function which wraps a basic reward function in another function
        that is compatible with create_rollout_evaluator.
        """
        return lambda _, __, ___, timestep_info, ____: \
            reward_fn(timestep_info["observation"], timestep_info["action"], timestep_info["next_observation"])

# ---- mbrl/agents/model_predictive_control_agent.py ----
from functools import partial
from typing import Callable

# from gym.envs.mujoco import MujocoEnv  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)
import jax
import jax.numpy as jnp
import numpy as onp
import optax

# from mbrl.agents import DeepModelBasedAgent  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)
# from mbrl.misc import NeuralNetDynamicsModel  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)
# from mbrl._src.utils import Array  # scaffolding: mbrl is this file; gym/mujoco not installed (stand-ins above)


class ModelPredictiveControlAgent(DeepModelBasedAgent):
    def __init__(
        self,
        env: MujocoEnv,
        reward_fn: Callable[[jnp.ndarray, jnp.ndarray, jnp.ndarray], jnp.ndarray],
        dynamics_model: NeuralNetDynamicsModel,
        ensemble_size: int,
        dynamics_optimizer: optax.GradientTransformation,
        n_model_train_steps: int,
        model_train_batch_size: int,
        rng_key: jax.random.KeyArray,
        n_candidates: int,
        n_elites: int,
        plan_horizon: int,
        n_particles: int,
        cem_epsilon: float,
        max_cem_iters: int,
        *_args, **_kwargs
    ):
        """Creates an agent implementing PETS, i.e. a model predictive control-based agent
        which uses an ensemble of neural networks for its internal dynamics model, and CEM
        as its action sequence optimizer.

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
            n_candidates: Number of action sequence candidates for every iteration of CEM.
            n_elites: Number of elite action sequences used to update the CEM proposal distribution.
            plan_horizon: Planning horizon to use.
            n_particles: Number of independent particles to use for evaluating each action sequence.
            cem_epsilon: If the proposal distribution stddev drops below this, terminates CEM optimization.
            max_cem_iters: Maximum number of CEM iterations before forced termination.
        """
        super().__init__(
            env,
            reward_fn,
            dynamics_model,
            ensemble_size,
            dynamics_optimizer,
            n_model_train_steps,
            model_train_batch_size,
            rng_key
        )

        self._action_bounds = (env.action_space.low, env.action_space.high)
        self._action_dim = env.action_space.shape[0]
        self._n_candidates = n_candidates
        self._n_elites = n_elites
        self._plan_horizon = plan_horizon
        self._n_particles = n_particles
        self._cem_epsilon = cem_epsilon
        self._max_cem_iters = max_cem_iters

        self._proposal_dist = {
            "mean": jnp.zeros([self._plan_horizon, self._action_dim]),
            "stddev": jnp.ones([self._plan_horizon, self._action_dim])
        }

        self._cem_op = self._create_cross_entropy_method_op()

    def reset(self) -> None:
        """Resets the agent after an environment rollout."""
        self._proposal_dist = {
            "mean": jnp.zeros([self._plan_horizon, self._action_dim]),
            "stddev": jnp.ones([self._plan_horizon, self._action_dim])
        }

    def act(
        self,
        obs: Array,
        evaluation: bool = False
    ) -> onp.ndarray:
        """Queries the agent for its action on the given observation.

        Args:
            obs: The current observation.
            evaluation: Indicates if the agent is being queried for an action in an evaluation context.

        Returns:
            Action chosen by the agent
        """
        self._rng_key, subkey = jax.random.split(self._rng_key)
        optimized_action_seq_dist = self._cem_op(
            self._dynamics_params, self._dynamics_state, obs, self._proposal_dist, subkey
        )

        next_proposal_dist_mean = jnp.concatenate([
            optimized_action_seq_dist["mean"][1:],
            jnp.zeros([1, self._action_dim])]
        )
        next_proposal_dist_stddev = jnp.concatenate([
            0.5 * jnp.ones([self._plan_horizon - 1, self._action_dim]),
            jnp.ones([1, self._action_dim])   # Adding more noise since new timestep is unoptimized
        ])
        self._proposal_dist = {"mean": next_proposal_dist_mean, "stddev": next_proposal_dist_stddev}

        return onp.array(self._proposal_space_to_actions(optimized_action_seq_dist["mean"][0]))

    def _create_cross_entropy_method_op(self):
        rollout_and_evaluate = self._create_rollout_evaluator(
            rollout_policy=lambda action_seq, _obs, i, _rng_key: action_seq[i],
            rollout_horizon=self._plan_horizon,
            fn_to_accumulate=self._wrap_basic_reward(self._reward_fn),
            accumulator_init=0.
        )

        def multiple_particle_evaluator(action_seq, dynamics_params, dynamics_state, start_obs, rng_key):
            single_particle_evaluator = \
                partial(rollout_and_evaluate, action_seq, dynamics_params, dynamics_state, start_obs)
            particle_returns = \
                jax.vmap(single_particle_evaluator)(jax.random.split(rng_key, num=self._n_particles))["accumulation"]
            return jnp.mean(particle_returns)

        @jax.jit
        def cross_entropy_method_update(dynamics_params, dynamics_state, cur_obs, proposal_dist, rng_key):
            rng_key, subkey = jax.random.split(rng_key)
            pre_bounding_candidates = proposal_dist["mean"][None] + proposal_dist["stddev"][None] * \
                jax.random.normal(subkey, shape=[self._n_candidates] + list(proposal_dist["mean"].shape))

            action_seq_candidates = self._proposal_space_to_actions(pre_bounding_candidates)

            rng_key, subkey = jax.random.split(rng_key)
            candidate_evals = jax.vmap(multiple_particle_evaluator, (0, None, None, None, 0))(
                action_seq_candidates,
                dynamics_params,
                dynamics_state,
                cur_obs,
                jax.random.split(subkey, num=self._n_candidates)
            )

            sorting_idxs = jnp.argsort(candidate_evals)
            elite_candidates = pre_bounding_candidates[sorting_idxs[-self._n_elites:]]
            updated_proposal_dist = {
                "mean": jnp.mean(elite_candidates, axis=0),
                "stddev": jnp.std(elite_candidates, axis=0)
            }

            return updated_proposal_dist

        def cross_entropy_method(dynamics_params, dynamics_state, cur_obs, proposal_dist, rng_key):
            n_iters = 0
            while n_iters < self._max_cem_iters and jnp.max(proposal_dist["stddev"]) > self._cem_epsilon:
                rng_key, subkey = jax.random.split(rng_key)
                proposal_dist = cross_entropy_method_update(
                    dynamics_params, dynamics_state, cur_obs, proposal_dist, subkey
                )
                n_iters += 1
            return proposal_dist

        return cross_entropy_method

    def _proposal_space_to_actions(self, proposals):
        box_center = (self._action_bounds[0] + self._action_bounds[1]) / 2
        box_width = (self._action_bounds[1] - self._action_bounds[0]) / 2
        return box_center + box_width * jnp.tanh(proposals)

# ---- mbrl/config/cartpole.py ----
import jax
import jax.numpy as jnp
import optax


def create_config():
    def cartpole_reward(obs, action, _next_obs):
        obs_reward = jnp.exp(-jnp.sum(jnp.square(
            jnp.array([obs[0] + 0.6 * jnp.sin(obs[1]), 0.6 * jnp.cos(obs[1])]) - jnp.array([0, 0.6])
        )))
        action_reward = -0.01 * jnp.sum(jnp.square(action))
        return obs_reward + action_reward


    return {
        "discount_factor"              : 0.99,
        "env_args"                     : {},
        "preprocessing_functions"      : {
            "obs_preproc"  : lambda obs: jnp.concatenate([obs[:1], jnp.sin(obs[1:2]), jnp.cos(obs[1:2]), obs[2:]]),
            "targ_comp"    : lambda obs, next_obs: next_obs - obs,
            "next_obs_comp": lambda obs, pred: obs + pred
        },
        "reward_function"              : cartpole_reward,

        "dynamics"                     : {
            "hidden_dims"       : [200, 200, 200],
            "hidden_activations": jax.nn.swish,
            "is_probabilistic"  : True
        },
        "model_training_and_evaluation": {
            "ensemble_size"         : 7,
            "dynamics_optimizer"    : optax.adamw(1e-3, weight_decay=1e-5, eps=1e-7),
            "n_model_train_steps"   : 2000,
            "model_train_batch_size": 32,
        },

        "cem"                          : {
            "n_candidates" : 400,
            "n_elites"     : 40,
            "plan_horizon" : 20,
            "n_particles"  : 30,
            "cem_epsilon"  : 0.05,
            "max_cem_iters": 10,
        },

        "policy"                       : {
            "hidden_dims"       : [50, 50, 50],
            "hidden_activations": jax.nn.swish,
        },
        "policy_training"              : {
            "plan_horizon"           : 30,
            "n_particles"            : 30,
            "policy_optimizer"       : optax.adamw(1e-4),
            "n_policy_train_steps"   : 2000,
            "policy_train_batch_size": 32
        },

        "MBPO_policy"                  : {
            "hidden_dims"       : [256, 256],
            "hidden_activations": jax.nn.swish,
            "min_stddev"        : 1e-5,
            "max_stddev"        : 4.
        },
        "MBPO_critic"                  : {
            "hidden_dims"       : [256, 256],
            "hidden_activations": jax.nn.swish,
        },
        "MBPO_training"                : {
            "discount_factor"             : 0.99,
            "max_replay_buffer_length"    : 100 * 200,
            "include_augmentations"       : True,
            "augmentation_horizon"        : 1,
            "augmentation_batch_size"     : int(1e5),
            "augmentation_keep_epochs"    : 2,
            "real_ratio"                  : 0.05,
            "initial_temperature"         : 1e-2,
            "target_smoothing_coefficient": 5e-3,
            "sac_batch_size"              : 256,
            "sac_optimizer"               : optax.adam(3e-4, eps=1e-7),   # optax.adamw(3e-4)
            "n_steps_per_batch"           : 20,
            "target_entropy"              : -1.
        }
    }


# ---- scaffolding: a stand-in for the MuJoCo cartpole env (gym/mujoco are not installed) and a small PETS run ----
import numpy as onp  # scaffolding
from types import SimpleNamespace  # scaffolding
import tqdm as _tqdm, functools as _ft  # scaffolding
trange = _ft.partial(_tqdm.trange, disable=True)  # scaffolding: quiet progress bars


class _Box:  # scaffolding: gym.spaces.Box
    def __init__(self, low, high):  # scaffolding
        self.low, self.high = onp.asarray(low, onp.float32), onp.asarray(high, onp.float32)  # scaffolding
        self.shape = self.low.shape  # scaffolding

    def sample(self):  # scaffolding
        return onp.random.uniform(self.low, self.high).astype(onp.float32)  # scaffolding


class _CartpoleStandIn:  # scaffolding: float64 observations like MuJoCo, 8-step episodes
    observation_space = _Box(-onp.inf * onp.ones(4), onp.inf * onp.ones(4))  # scaffolding
    action_space = _Box(-3 * onp.ones(1), 3 * onp.ones(1))  # scaffolding

    def reset(self):  # scaffolding
        self.t, self.s = 0, onp.random.randn(4) * 0.1  # scaffolding
        return self.s.copy()  # scaffolding

    def step(self, ac):  # scaffolding
        self.t += 1  # scaffolding
        self.s = self.s + 0.05 * onp.array([self.s[2], self.s[3], ac[0], -ac[0] + onp.sin(self.s[1])])  # scaffolding
        return self.s.copy(), float(onp.cos(self.s[1])), self.t >= 8, {}  # scaffolding


onp.random.seed(0)  # scaffolding
config = create_config()  # scaffolding: mbrl/config/cartpole.py, sizes cut below
env = _CartpoleStandIn()  # scaffolding
dynamics_model = NeuralNetDynamicsModel(dummy_obs=jnp.zeros(4), dummy_action=jnp.zeros(1), hidden_dims=[32], hidden_activations=jax.nn.swish, is_probabilistic=True, **config["preprocessing_functions"])  # scaffolding: hidden_dims cut from [200, 200, 200]
agent = ModelPredictiveControlAgent(  # scaffolding: as model_based_experiment.py builds it, with smaller sizes
    env, config["reward_function"], dynamics_model, ensemble_size=2, dynamics_optimizer=optax.adamw(1e-3),  # scaffolding
    n_model_train_steps=3, model_train_batch_size=4, rng_key=jax.random.PRNGKey(0),  # scaffolding
    n_candidates=16, n_elites=4, plan_horizon=5, n_particles=3, cem_epsilon=1e-9, max_cem_iters=3)  # scaffolding: cem_epsilon tiny so every act() runs exactly 3 CEM iterations
try:  # scaffolding
    observations, actions, _ = rollout(env, config["discount_factor"])  # scaffolding: initial random trajectory
    agent.add_interaction_data(jnp.array(observations), jnp.array(actions))  # scaffolding
    agent.train()  # scaffolding
    agent.reset()  # scaffolding
    observations, actions, stats = rollout(env, config["discount_factor"], agent=agent)  # scaffolding: 8 MPC steps
    print("MPC episode:", len(actions), "actions, return", round(stats["Return"], 3))  # scaffolding
    _report({"jit(cross_entropy_method_update)"}, 3 * len(actions))  # scaffolding
except Exception as e:  # scaffolding
    print(f"ERROR {type(e).__name__}")  # scaffolding
