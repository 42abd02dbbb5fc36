# source: https://github.com/yashsmehta/MetaLearnPlasticity/blob/69864aea7c830f7394bae5fd21f6e7d525c1e295/plasticity/data_loader.py
# expect: none
# runtime: COMPILES 2 CALLS 292
# why: generate_trial rebuilds jax.jit(model.network_forward) and partial(jax.jit, static_argnums=(3,))(model.update_params) at every step of its while loop, but both wrap module-level functions with the same module-level plasticity function as static argument and fixed shapes/dtypes, so each compiles once.

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
import numpy as np
import jax
from jax.random import bernoulli, split
from jax.nn import sigmoid
import jax.numpy as jnp
import collections
import re
import types  # scaffolding
from functools import partial


# --- plasticity/utils.py ---


def generate_gaussian(key, shape, scale=0.1):
    """
    returns a random normal tensor of specified shape with zero mean and
    'scale' variance
    """
    assert type(shape) is tuple, "shape passed must be a tuple"
    return scale * jax.random.normal(key, shape)


def compute_neg_log_likelihoods(ys, decisions):
    not_ys = jnp.ones_like(ys) - ys
    neg_log_likelihoods = -2 * jnp.log(jnp.where(decisions == 1, ys, not_ys))
    return jnp.mean(neg_log_likelihoods)


def create_nested_list(num_outer, num_inner):
    return [[[] for _ in range(num_inner)] for _ in range(num_outer)]


def experiment_list_to_tensor(longest_trial_length, nested_list, list_type):
    # note: trial lengths are not all the same, so we need to pad with nans
    num_blocks = len(nested_list)
    trials_per_block = len(nested_list[0])

    num_trials = num_blocks * trials_per_block

    if list_type == "decisions" or list_type == "odors":
        # individual trial length check for nans and stop when they see one
        tensor = np.full((num_trials, longest_trial_length), np.nan)

    elif list_type == "xs" or list_type == "neural_recordings":
        element_dim = len(nested_list[0][0][0])
        tensor = np.full((num_trials, longest_trial_length, element_dim), 0.0)
    else:
        raise Exception("list passed must be odors, decisions or xs")

    for i in range(num_blocks):
        for j in range(trials_per_block):
            trial = nested_list[i][j]
            for k in range(len(trial)):
                tensor[i * trials_per_block + j][k] = trial[k]

    return jnp.array(tensor)


# --- plasticity/synapse.py ---


def volterra_synapse_tensor(x, y, z):
    """
    Functionality: Computes the Volterra synapse tensor for given inputs.
    Inputs: x, y, z (floats): Inputs to the Volterra synapse tensor.
    Returns: A 3x3x3 tensor representing the Volterra synapse tensor.
    """
    synapse_tensor = jnp.outer(
        jnp.outer(
            jnp.array([x**0, x**1, x**2]),
            jnp.array([y**0, y**1, y**2]),
        ),
        jnp.array([z**0, z**1, z**2]),
    )
    synapse_tensor = jnp.reshape(synapse_tensor, (3, 3, 3))
    return synapse_tensor


def volterra_plasticity_function(x, y, z, volterra_coefficients):
    """
    Functionality: Computes the Volterra plasticity function for given inputs and coefficients.
    Inputs: x, y, z (floats): Inputs to the Volterra plasticity function.
            volterra_coefficients (array): Coefficients for the Volterra plasticity function.
    Returns: The result of the Volterra plasticity function.
    """
    synapse_tensor = volterra_synapse_tensor(x, y, z)
    dw = jnp.sum(jnp.multiply(volterra_coefficients, synapse_tensor))
    return dw


def mlp_forward_pass(mlp_params, inputs):
    """
    Functionality: Performs a forward pass through a multi-layer perceptron (MLP).
    Inputs: mlp_params (list): List of tuples (weights, biases) for each layer.
            inputs (array): Input data.
    Returns: The logits output of the MLP.
    """
    activation = inputs
    for w, b in mlp_params[:-1]:  # for all but the last layer
        activation = jax.nn.leaky_relu(jnp.dot(activation, w) + b)
    final_w, final_b = mlp_params[-1]  # for the last layer
    logits = jnp.dot(activation, final_w) + final_b
    output = jnp.tanh(logits)
    return jnp.squeeze(output)


def mlp_plasticity_function(x, y, z, mlp_params):
    """
    Functionality: Computes the MLP plasticity function for given inputs and MLP parameters.
    Inputs: x, y, z (floats): Inputs to the MLP plasticity function.
            mlp_params (list): MLP parameters.
    Returns: The result of the MLP plasticity function.
    """
    inputs = jnp.array([x, y, z])
    dw = mlp_forward_pass(mlp_params, inputs)
    return dw


def init_zeros():
    return np.zeros((3, 3, 3))


def init_random(key):
    assert key is not None, "For random initialization, a random key has to be given"
    return generate_gaussian(key, (3, 3, 3), scale=1e-5)


def split_init_string(s):
    """
    Functionality: Splits an initialization string into a list of matches.
    Inputs: s (str): Initialization string.
    Returns: A list of matches.
    """
    return [
        match.replace(" ", "")
        for match in re.findall(r"(-?\s*[A-Za-z0-9.]+[A-Za-z][0-9]*)", s)
    ]


def extract_numbers(s):
    """
    Functionality: Extracts numbers from string initialization: X1R0W1
    for the plasticity coefficients
    Inputs: s (str): String to extract numbers from.
    Returns: A tuple of extracted numbers.
    """
    x = int(re.search("X(\d+)", s).group(1))
    y_or_r = int(re.search("[YR](\d+)", s).group(1))
    w = int(re.search("W(\d+)", s).group(1))
    multiplier_match = re.search("^(-?\d+\.?\d*)", s)
    multiplier = float(multiplier_match.group(1)) if multiplier_match else 1.0
    assert x < 3 and y_or_r < 3 and w < 3, "X, Y/R and W must be between 0 and 2"
    return x, y_or_r, w, multiplier


def init_generation_volterra(init):
    """
    Functionality: Initializes the parameters for the Volterra generation model.
    Inputs: init (str): Initialization string.
    Returns: A tuple containing the initialized parameters and the Volterra plasticity function.
    """
    parameters = np.zeros((3, 3, 3))
    inits = split_init_string(init)
    for init in inits:
        x, y_or_r, w, multiplier = extract_numbers(init)
        parameters[x][y_or_r][w] = multiplier

    return jnp.array(parameters), volterra_plasticity_function


def init_plasticity_volterra(key, init):
    init_functions = {
        "zeros": init_zeros,
        "random": lambda: init_random(key),
    }

    parameters = init_functions[init]()
    return jnp.array(parameters), volterra_plasticity_function


def init_plasticity_mlp(key, layer_sizes, scale=0.01):

    mlp_params = [
        (
            generate_gaussian(key, (m, n), scale),
            generate_gaussian(key, (n,), scale),
        )
        for m, n in zip(layer_sizes[:-1], layer_sizes[1:])
    ]
    return mlp_params, mlp_plasticity_function


def init_plasticity(key, cfg, mode):
    """
    Functionality: Initializes the parameters for a given plasticity model.
    Inputs: key (int): Seed for the random number generator.
            cfg (object): Configuration object containing the model settings.
            mode (str): Mode of operation ("generation" or "plasticity").
    Returns: A tuple containing the initialized parameters and the corresponding plasticity function.
    """
    if "generation" in mode:
        if cfg.generation_model == "volterra":
            return init_generation_volterra(init=cfg.generation_coeff_init)
        elif cfg.generation_model == "mlp":
            return init_plasticity_mlp(key, cfg.meta_mlp_layer_sizes)
    elif "plasticity" in mode:
        if cfg.plasticity_model == "volterra":
            return init_plasticity_volterra(key, init=cfg.plasticity_coeff_init)
        elif cfg.plasticity_model == "mlp":
            return init_plasticity_mlp(key, cfg.meta_mlp_layer_sizes)

    raise RuntimeError(
        f"mode needs to be either generation or plasticity, and plasticity_model needs to be either volterra or mlp"
    )


# --- plasticity/inputs.py ---


def generate_input_parameters(seed, cfg):
    """
    return the mus and sigmas tensors, with some mean, and variance
    """
    # for now, this is hardcoded to 2 odors
    np.random.seed(seed)
    num_odors = 2
    input_dim = cfg.layer_sizes[0]
    firing_idx = np.random.choice(
        np.arange(input_dim), size=input_dim // 2, replace=False
    )
    mus_a = np.zeros(input_dim)
    mus_a[firing_idx] = cfg.input_firing_mean

    mus_b = cfg.input_firing_mean * np.ones(input_dim)
    mus_b[firing_idx] = 0.0
    mus = np.vstack((mus_a, mus_b))

    diag_mask = np.ma.diag(np.ones(input_dim))

    sigmas = cfg.input_variance * np.ones((num_odors, input_dim, input_dim))

    for i in range(num_odors):
        sigmas[i] = np.multiply(sigmas[i], diag_mask)

    return jnp.array(mus), jnp.array(sigmas)


def sample_inputs(key, mus, sigmas, odor):
    input_dim = mus.shape[1]
    x = jax.random.normal(key, shape=(input_dim,))

    # shift and scale according to mus[odor]
    x = x @ sigmas[odor]
    x = x + mus[odor]

    return x


# --- plasticity/model.py ---


def initialize_params(key, cfg, scale=0.01, last_layer_multiplier=5.0):
    """
    Functionality: Initialize parameters for the network.
    Inputs:
        key (int): Seed for the random number generator.
        cfg (object): Configuration object containing the model settings.
        scale (float, optional): Scale for the Gaussian distribution used to initialize the parameters. Default is 0.01.
        last_layer_multiplier (float, optional): Multiplier for the last layer. Default is 5.0.
    Returns: List of tuples of weights and biases for each layer.
    """
    layer_sizes = cfg.layer_sizes

    initial_params = [
        (
            utils.generate_gaussian(key, (m, n), scale),
            # utils.generate_gaussian(key, (n,), scale),
            jnp.zeros((n,)),
        )
        for m, n in zip(layer_sizes[:-1], layer_sizes[1:])
    ]

    if len(layer_sizes) > 2:
        # for multilayer networks, remove last layer and initialize weights to 1/n
        initial_params.pop()
        hidden_dim = layer_sizes[-2]
        initial_params.append(
            (
                last_layer_multiplier * jnp.ones((hidden_dim, 1)) / hidden_dim,
                jnp.zeros((1,)),
            )
        )

    return initial_params


def network_forward(params, inputs):
    """
    Functionality: Performs a forward pass for the network.
    Inputs:
        params (list): List of tuples (weights, biases) for each layer.
        inputs (array): Input data.
    Returns: Activations for all layers, and logits.
    """
    print("compiling model.network_forward()...")
    activations = [inputs]
    activation = inputs
    for w, b in params[:-1]:
        activation = jnp.tanh(activation @ w + b)
        activations.append(activation)

    final_w, final_b = params[-1]
    logits = activation @ final_w + final_b
    activations.append(logits)
    return activations


def update_params(
    params, activations, plasticity_coeffs, plasticity_func, reward, expected_reward
):
    """
    Functionality: Updates the parameters of the network, assuming plasticity happens in the first layer only.
    Inputs:
        params (list): List of tuples (weights, biases) for each layer.
        activations (array): Array of activations.
        plasticity_coeffs (array): Array of plasticity coefficients.
        plasticity_func (function): Plasticity function.
        reward (float): Reward for the trial.
        expected_reward (float): Expected reward for the trial.
    Returns: Updated parameters.
    """
    print("compiling model.update_params()...")
    input_dim = params[0][0].shape[0]
    lr = 1.0 / input_dim
    # using expected reward or just the reward:
    reward_term = reward - expected_reward
    # reward_term = reward

    delta_params = []

    # plasticity happens in the first layer only
    activation = activations[0]
    w, b = params[0]
    # vmap over output neurons
    vmap_inputs = jax.vmap(plasticity_func, in_axes=(None, None, 0, None))
    # vmap over input neurons
    vmap_synapses = jax.vmap(vmap_inputs, in_axes=(0, None, 0, None))
    dw = vmap_synapses(activation, reward_term, w, plasticity_coeffs)
    # decide whether to update bias or not
    db = jnp.zeros_like(b)
    # db = vmap_inputs(1.0, reward_term, b, plasticity_coeffs)
    assert (
        dw.shape == w.shape and db.shape == b.shape
    ), "dw and w should be of the same shape to prevent broadcasting \
        while adding"
    delta_params.append((dw, db))

    # add the last layer of no plasticity
    if len(params) > len(delta_params):
        delta_params.append((0.0, 0.0))
    params = [
        (w + lr * dw, b + lr * db) for (w, b), (dw, db) in zip(params, delta_params)
    ]

    return params


# --- plasticity/data_loader.py ---


def load_data(key, cfg, mode="train"):
    """
    Functionality: Load data for training or evaluation.
    Inputs:
        key (int): Seed for the random number generator.
        cfg (object): Configuration object containing the model settings.
        mode (str, optional): Mode of operation ("train" or "eval"). Default is "train".
    Returns: Depending on the configuration, either experimental data or generated experiments data.
    """
    assert mode in ["train", "eval"]
    if cfg.use_experimental_data:
        return load_fly_expdata(key, cfg, mode)

    else:
        generation_coeff, generation_func = synapse.init_plasticity(
            key, cfg, mode="generation_model"
        )
        return generate_experiments_data(
            key, cfg, generation_coeff, generation_func, mode
        )


def generate_experiments_data(key, cfg, plasticity_coeff, plasticity_func, mode):
    """
    Functionality: Simulate all fly experiments with given plasticity coefficients.
    Inputs:
        key (int): Seed for the random number generator.
        cfg (object): Configuration object containing the model settings.
        plasticity_coeff (array): Array of plasticity coefficients.
        plasticity_func (function): Plasticity function.
        mode (str): Mode of operation ("train" or "eval").
    Returns: 5 dictionaries corresponding with experiment number (int) as key, with tensors as values.
    """
    if mode == "train":
        num_experiments = cfg.num_train
    else:
        num_experiments = cfg.num_eval
    xs, odors, neural_recordings, decisions, rewards, expected_rewards = (
        {},
        {},
        {},
        {},
        {},
        {},
    )
    print("generating experiments data...")

    for exp_i in range(num_experiments):
        seed = (cfg.flyid + 1) * (exp_i + 1)
        odor_mus, odor_sigmas = inputs.generate_input_parameters(seed, cfg)
        exp_i = str(exp_i)
        key, subkey = split(key)
        params = model.initialize_params(key, cfg)
        # print("prob_output:")
        (
            exp_xs,
            exp_odors,
            exp_neural_recordings,
            exp_decisions,
            exp_rewards,
            exp_expected_rewards,
        ) = generate_experiment(
            subkey,
            cfg,
            params,
            plasticity_coeff,
            plasticity_func,
            odor_mus,
            odor_sigmas,
        )

        trial_lengths = [
            [len(exp_decisions[j][i]) for i in range(cfg.trials_per_block)]
            for j in range(cfg.num_blocks)
        ]
        max_trial_length = np.max(np.array(trial_lengths))
        print("Exp " + exp_i + f", longest trial length: {max_trial_length}")

        xs[exp_i] = experiment_list_to_tensor(max_trial_length, exp_xs, list_type="xs")
        odors[exp_i] = experiment_list_to_tensor(
            max_trial_length, exp_odors, list_type="odors"
        )
        neural_recordings[exp_i] = experiment_list_to_tensor(
            max_trial_length, exp_neural_recordings, list_type="neural_recordings"
        )
        decisions[exp_i] = experiment_list_to_tensor(
            max_trial_length, exp_decisions, list_type="decisions"
        )
        rewards[exp_i] = np.array(exp_rewards, dtype=float).flatten()
        expected_rewards[exp_i] = np.array(exp_expected_rewards, dtype=float).flatten()
        # print("odors: ", odors[exp_i])
        # print("rewards: ", rewards[exp_i])

    return xs, neural_recordings, decisions, rewards, expected_rewards


def generate_experiment(
    key,
    cfg,
    params,
    plasticity_coeffs,
    plasticity_func,
    odor_mus,
    odor_sigmas,
):
    """
    Functionality: Simulate a single fly experiment with given plasticity coefficients.
    Inputs:
        key (int): Seed for the random number generator.
        cfg (object): Configuration object containing the model settings.
        params (list): List of tuples (weights, biases) for each layer.
        plasticity_coeffs (array): Array of plasticity coefficients.
        plasticity_func (function): Plasticity function.
        odor_mus (array): Array of odor means.
        odor_sigmas (array): Array of odor standard deviations.
    Returns: A nested list (num_blocks x trials_per_block) of lists of different lengths corresponding to the number of timesteps in each trial.
    """

    r_history = collections.deque(
        cfg.moving_avg_window * [0], maxlen=cfg.moving_avg_window
    )
    rewards_in_arena = np.zeros(
        2,
    )

    xs, odors, neural_recordings, decisions, rewards, expected_rewards = (
        create_nested_list(cfg.num_blocks, cfg.trials_per_block) for _ in range(6)
    )

    for block in range(cfg.num_blocks):
        r_ratio = cfg.reward_ratios[block]
        for trial in range(cfg.trials_per_block):
            key, _ = split(key)
            sampled_rewards = bernoulli(key, np.array(r_ratio))
            rewards_in_arena = np.logical_or(sampled_rewards, rewards_in_arena)
            key, _ = split(key)

            trial_data, params, rewards_in_arena, r_history = generate_trial(
                key,
                params,
                plasticity_coeffs,
                plasticity_func,
                rewards_in_arena,
                r_history,
                odor_mus,
                odor_sigmas,
            )
            (
                xs[block][trial],
                odors[block][trial],
                neural_recordings[block][trial],
                decisions[block][trial],
                rewards[block][trial],
                expected_rewards[block][trial],
            ) = trial_data

    return xs, odors, neural_recordings, decisions, rewards, expected_rewards


def generate_trial(
    key,
    params,
    plasticity_coeffs,
    plasticity_func,
    rewards_in_arena,
    r_history,
    odor_mus,
    odor_sigmas,
):
    """
    Functionality: Simulate a single fly trial, which ends when the fly accepts odor.
    Inputs:
        key (int): Seed for the random number generator.
        params (list): List of tuples (weights, biases) for each layer.
        plasticity_coeffs (array): Array of plasticity coefficients.
        plasticity_func (function): Plasticity function.
        rewards_in_arena (array): Array of rewards in the arena.
        r_history (deque): History of rewards.
        odor_mus (array): Array of odor means.
        odor_sigmas (array): Array of odor standard deviations.
    Returns: A tuple containing lists of xs, odors, decisions (sampled outputs), rewards, and expected_rewards for the trial.
    """

    input_xs, trial_odors, neural_recordings, decisions = [], [], [], []

    expected_reward = np.mean(r_history)

    while True:
        key, _ = split(key)
        odor = int(bernoulli(key, 0.5))
        trial_odors.append(odor)
        key, subkey = split(key)
        x = inputs.sample_inputs(key, odor_mus, odor_sigmas, odor)
        resampled_x = inputs.sample_inputs(subkey, odor_mus, odor_sigmas, odor)
        jit_network_forward = jax.jit(model.network_forward)
        activations = jit_network_forward(params, x)
        prob_output = sigmoid(activations[-1])

        key, subkey = split(key)
        sampled_output = float(bernoulli(subkey, prob_output)[0])  # changed (scaffolding): [0] added, jax 0.10 refuses float() of a (1,) array outside jit

        input_xs.append(resampled_x)
        # always recording the output neuron
        neural_recordings.append(prob_output)

        decisions.append(sampled_output)

        if sampled_output == 1:
            # print(prob_output)
            reward = rewards_in_arena[odor]
            r_history.appendleft(reward)
            rewards_in_arena[odor] = 0
            jit_update_params = partial(jax.jit, static_argnums=(3,))(
                model.update_params
            )
            params = jit_update_params(
                params,
                activations,
                plasticity_coeffs,
                plasticity_func,
                reward,
                expected_reward,
            )
            break

    return (
        (input_xs, trial_odors, neural_recordings, decisions, reward, expected_reward),
        params,
        rewards_in_arena,
        r_history,
    )


def get_trial_lengths(decisions):
    """
    Functionality: Get the lengths of trials.
    Inputs:
        decisions (array): Array of decisions.
    Returns: Array of trial lengths.
    """
    trial_lengths = jnp.sum(jnp.logical_not(jnp.isnan(decisions)), axis=1).astype(int)
    return trial_lengths


def get_logits_mask(decisions):
    """
    Functionality: Get a mask for the logits.
    Inputs:
        decisions (array): Array of decisions.
    Returns: Array representing the mask for the logits.
    """
    logits_mask = jnp.logical_not(jnp.isnan(decisions)).astype(int)
    return logits_mask

# scaffolding: the package's modules, as the code refers to them
utils = types.SimpleNamespace(generate_gaussian=generate_gaussian, compute_neg_log_likelihoods=compute_neg_log_likelihoods)
synapse = types.SimpleNamespace(init_plasticity=init_plasticity, init_plasticity_volterra=init_plasticity_volterra)
inputs = types.SimpleNamespace(generate_input_parameters=generate_input_parameters, sample_inputs=sample_inputs)
model = types.SimpleNamespace(initialize_params=initialize_params, network_forward=network_forward, update_params=update_params)
data_loader = types.SimpleNamespace(load_data=load_data, get_trial_lengths=get_trial_lengths, get_logits_mask=get_logits_mask)

# scaffolding: cfg from plasticity/run.py (OmegaConf), cut down; layer_sizes already parsed by validate_config
cfg = types.SimpleNamespace(
    num_train=2, num_eval=0, trials_per_block=20, num_blocks=3,
    reward_ratios=((0.2, 0.8), (0.9, 0.1), (0.2, 0.8)), use_experimental_data=False, flyid=1,
    layer_sizes=[2, 10, 1], input_firing_mean=0.75, input_variance=0.05,
    generation_coeff_init="X1R1W0", generation_model="volterra", plasticity_coeff_init="random",
    plasticity_model="volterra", meta_mlp_layer_sizes=[3, 10, 1], moving_avg_window=10,
)

key = jax.random.PRNGKey(cfg.flyid)  # scaffolding
(resampled_xs, neural_recordings, decisions, rewards, expected_rewards) = data_loader.load_data(key, cfg)
n_calls = sum(int(np.sum(~np.isnan(np.asarray(d)))) + d.shape[0] for d in decisions.values())  # scaffolding: forward calls + update calls
_report({"jit(network_forward)", "jit(update_params)"}, n_calls)
